// Charts drawn with the real Skia canvas: the last frame of each build is the chart at rest.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDrawEnv, createSkiaSurface, readRgba } from './canvas-host.ts';
import { registerBundledFonts } from '../fonts/register.ts';
import { restingState } from '../../shared/animation/state.ts';
import type { DrawEnv } from '../../shared/canvas/types.ts';
import { buildEndSeconds } from '../../shared/elements/chart/chart-build.ts';
import { chartData } from '../../shared/elements/chart/chart-data.ts';
import { lastBuildItem } from '../../shared/elements/chart/chart-geometry.ts';
import { chartAt, drawChart, labelColorOn } from '../../shared/elements/chart/chart-draw.ts';
import type { ChartElement } from '../../shared/spec/chart-element.ts';
import { ChartElementSchema } from '../../shared/spec/chart-element.ts';

const FRAME = { width: 1080, height: 1920 };
const BOX = { x: 60, y: 300, width: 960, height: 1000 };
let env: DrawEnv;

beforeAll(() => {
  registerBundledFonts();
  env = createDrawEnv(FRAME, 30, { image: () => undefined, videoFrame: () => undefined });
});

function draw(element: ChartElement, elementSeconds: number, box = BOX, background = '#0f172a'): Uint8Array {
  const surface = createSkiaSurface(FRAME.width, FRAME.height);
  surface.ctx.fillStyle = background;
  surface.ctx.fillRect(0, 0, FRAME.width, FRAME.height);
  drawChart({
    ctx: surface.ctx,
    element,
    box,
    state: restingState(),
    env,
    time: { frame: 0, sceneSeconds: elementSeconds, elementSeconds, elementDuration: 100 },
    key: 's0/e0',
    drawChildren: () => {},
  });
  return readRgba(surface);
}

function differingPixels(a: Uint8Array, b: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) count++;
  }
  return count;
}

const labels = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];
const two = [
  { name: 'Organic', values: [30, 42, 38, 51, 48] },
  { name: 'Paid', values: [12, 18, 22, 19, 25] },
];
const CHARTS: Record<string, Record<string, unknown>> = {
  'grouped bars': { kind: 'bar', labels, series: two },
  'stacked horizontal bars': { kind: 'bar', horizontal: true, stacked: true, labels, series: two },
  line: { kind: 'line', labels, series: two, valueLabels: 'value' },
  'stacked area': { kind: 'area', stacked: true, labels, series: two },
  donut: { kind: 'donut', labels, series: [two[0]] },
  scatter: {
    kind: 'scatter',
    series: [
      {
        name: 'P',
        points: [
          [1, 2],
          [2, 5],
          [3, 3],
          [4, 6],
        ],
      },
    ],
  },
};

describe('chart build', () => {
  for (const [name, fields] of Object.entries(CHARTS)) {
    it(`${name}: the last frame of the build is the chart at rest and the chart without a build`, () => {
      const element = ChartElementSchema.parse({ type: 'chart', ...fields });
      const { last, count } = lastBuildItem(
        element,
        chartData(element, () => undefined)!,
      );
      const end = buildEndSeconds(element, last, count, 30);
      const built = draw(element, end);
      const later = draw(element, end + 30);
      const unbuilt = draw(ChartElementSchema.parse({ type: 'chart', ...fields, buildDuration: 0 }), 0);
      expect(differingPixels(built, later)).toBe(0);
      expect(differingPixels(built, unbuilt)).toBe(0);
      // Early in the build, the chart is visibly not yet built.
      expect(differingPixels(draw(element, end * 0.4), later)).toBeGreaterThan(300);
    });
  }
});

describe('labels on bars and slices', () => {
  it('are white where white reaches 4.5:1 (3:1 for large text), near-black elsewhere', () => {
    // White on this blue is 3.3:1: enough for large text only.
    expect(labelColorOn('#4c8df6')).toBe('#0f172a');
    expect(labelColorOn('#4c8df6', true)).toBe('#ffffff');
    // 6.7:1.
    expect(labelColorOn('#1d4ed8')).toBe('#ffffff');
  });
});

describe('a small donut', () => {
  // Light slices on white: the labels are the only dark pixels, so any dark pixel off the ring is a
  // label hanging over the hole or past the edge.
  const donut = ChartElementSchema.parse({
    type: 'chart',
    kind: 'donut',
    legend: 'none',
    buildDuration: 0,
    labels: ['Free', 'Pro', 'Team'],
    series: [{ name: 'Plan', values: [58, 30, 12] }],
    colors: ['#fde68a', '#bbf7d0', '#bfdbfe'],
  });

  for (const side of [220, 280, 360]) {
    it(`${side} px: draws every slice's label wholly on the ring`, () => {
      const box = { x: 200, y: 400, width: side, height: side };
      const geometry = chartAt(donut, env, box, 1)!;
      const { x: cx, y: cy } = geometry.center!;
      const { innerRadius, outerRadius } = geometry.slices[0]!;
      expect(geometry.texts.filter((text) => text.role === 'value')).toHaveLength(3);
      const pixels = draw(donut, 1, box, '#ffffff');
      let onRing = 0;
      let offRing = 0;
      for (let y = box.y - 20; y < box.y + side + 20; y++) {
        for (let x = box.x - 20; x < box.x + side + 20; x++) {
          const i = (y * FRAME.width + x) * 4;
          if (pixels[i]! + pixels[i + 1]! + pixels[i + 2]! >= 3 * 128) continue;
          const distance = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
          if (distance > innerRadius + 1 && distance < outerRadius - 1) onRing++;
          else offRing++;
        }
      }
      expect(onRing).toBeGreaterThan(300);
      expect(offRing).toBe(0);
    });
  }
});
