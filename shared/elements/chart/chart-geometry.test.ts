import { describe, expect, it } from 'vitest';
import type { ChartElement } from '../../spec/chart-element.ts';
import { ChartElementSchema } from '../../spec/chart-element.ts';
import { chartBuild, DATA_LEAD_SECONDS } from './chart-build.ts';
import { chartData, chartMoment } from './chart-data.ts';
import { chartFormat } from './chart-format.ts';
import { chartGeometry, niceDomain } from './chart-geometry.ts';
import { polylineLength } from './chart-path.ts';

const BOX = { x: 0, y: 0, width: 1600, height: 900 };
const FPS = 30;

function chart(fields: Record<string, unknown>): ChartElement {
  return ChartElementSchema.parse({
    type: 'chart',
    buildDuration: 1,
    stagger: 0,
    easing: 'linear',
    ...fields,
  });
}

/** The chart at `seconds` into its build (after the data lead), with text 10 px per character. */
function at(element: ChartElement, seconds: number, box = BOX) {
  const data = chartData(element, () => undefined)!;
  const elementSeconds = seconds + DATA_LEAD_SECONDS;
  return chartGeometry({
    element,
    moment: chartMoment(element, data, elementSeconds, FPS),
    build: chartBuild(element, elementSeconds, FPS),
    box,
    scale: 1,
    textSize: 30,
    measure: (text) => text.length * 10,
    format: chartFormat(element),
  });
}

const bars = chart({
  kind: 'bar',
  labels: ['A', 'B', 'C'],
  series: [{ name: 'Sales', values: [20, 50, 97] }],
});

describe('chart geometry', () => {
  it('rounds the value axis out to nice ticks: [0, 97] → 0, 20, …, 100', () => {
    expect(niceDomain([0, 97], 5)).toEqual([0, 100]);
    const ticks = at(bars, 2)
      .texts.filter((text) => text.role === 'tick')
      .map((text) => text.text);
    expect(ticks).toEqual(['0', '20', '40', '60', '80', '100']);
  });

  it('thins the value ticks on a short axis, so their labels stand 1.5 lines apart', () => {
    const short = at(bars, 2, { x: 0, y: 0, width: 1600, height: 260 });
    const ys = short.texts.filter((text) => text.role === 'tick').map((text) => text.y);
    expect(ys.length).toBeGreaterThanOrEqual(2);
    expect(ys.length).toBeLessThan(6);
    for (let i = 1; i < ys.length; i++) expect(Math.abs(ys[i]! - ys[i - 1]!)).toBeGreaterThanOrEqual(45);
  });

  it('grows bars from the baseline: none at progress 0, half at 0.5, full at 1', () => {
    const full = at(bars, 1).bars.map((bar) => bar.height);
    const { plot } = at(bars, 1);
    // 97 of a 0–100 axis.
    expect(full[2]).toBeCloseTo(plot.height * 0.97, 6);
    expect(at(bars, 0).bars).toEqual([]);
    at(bars, 0.5).bars.forEach((bar, index) => expect(bar.height).toBeCloseTo(full[index]! / 2, 6));
    for (const bar of at(bars, 0.5).bars) expect(bar.y + bar.height).toBeCloseTo(plot.y + plot.height, 6);
  });

  it('stacks series: each stack is as tall as its total', () => {
    const stacked = chart({
      kind: 'bar',
      stacked: true,
      labels: ['A', 'B'],
      series: [
        { name: 'X', values: [30, 10] },
        { name: 'Y', values: [50, 20] },
      ],
    });
    const geometry = at(stacked, 2);
    const { plot } = geometry;
    // Bars come category by category: A's X and Y, then B's. Totals 80 and 30 on a 0–80 axis.
    const [aX, aY, bX, bY] = geometry.bars;
    expect(aY!.y).toBeCloseTo(plot.y, 6);
    expect(bY!.y).toBeCloseTo(plot.y + plot.height * (1 - 30 / 80), 6);
    // Segments keep a 2 px seam between them; with it, each stack spans zero to its total.
    expect(aX!.y + aX!.height).toBeCloseTo(plot.y + plot.height, 6);
    expect(aX!.height + aY!.height + 2).toBeCloseTo(plot.height, 6);
    expect(bX!.height + bY!.height + 2).toBeCloseTo((plot.height * 30) / 80, 6);
  });

  it('sweeps pie slices round the whole circle once built', () => {
    const pie = chart({
      kind: 'donut',
      labels: ['a', 'b', 'c'],
      series: [{ name: 'Share', values: [1, 2, 3] }],
    });
    const slices = at(pie, 1).slices;
    expect(slices[0]!.startAngle).toBe(0);
    expect(slices.at(-1)!.endAngle).toBeCloseTo(2 * Math.PI, 9);
    const swept = slices.reduce((sum, slice) => sum + slice.endAngle - slice.startAngle, 0);
    expect(swept).toBeCloseTo(2 * Math.PI, 9);
    // Each slice's share of the circle is its share of the total.
    expect((slices[2]!.endAngle - slices[2]!.startAngle) / (2 * Math.PI)).toBeCloseTo(0.5, 2);
    // Half way, the sweep has reached six o'clock.
    const half = at(pie, 0.5).slices;
    expect(half.at(-1)!.endAngle).toBeCloseTo(Math.PI, 9);
    expect(slices[0]!.innerRadius / slices[0]!.outerRadius).toBeCloseTo(0.6, 9);
  });

  it('keeps donut labels full size on the ring middle where they fit, shrinks them alike on a thin ring', () => {
    const donut = chart({
      kind: 'donut',
      legend: 'none',
      labels: ['a', 'b', 'c'],
      series: [{ name: 'Share', values: [58, 30, 12] }],
    });
    const big = at(donut, 1);
    const { innerRadius, outerRadius } = big.slices[0]!;
    for (const text of big.texts) {
      expect(text.size).toBeUndefined();
      const radius = Math.hypot(text.x - big.center!.x, text.y - big.center!.y);
      expect(radius).toBeCloseTo((innerRadius + outerRadius) / 2, 6);
    }
    // A 32 px ring under 30 px labels 30 px wide: one smaller size for all three.
    const small = at(donut, 1, { x: 0, y: 0, width: 160, height: 160 });
    const sizes = small.texts.map((text) => text.size);
    expect(sizes).toHaveLength(3);
    expect(sizes[0]).toBeLessThan(30);
    expect(new Set(sizes).size).toBe(1);
    // Too thin for labels at half size: none.
    expect(at(donut, 1, { x: 0, y: 0, width: 90, height: 90 }).texts).toEqual([]);
  });

  it('keeps a pie next to its legend in a tall box, the two centred together', () => {
    const pie = chart({ kind: 'pie', labels: ['a', 'b'], series: [{ name: 'Share', values: [1, 3] }] });
    const tall = { x: 0, y: 0, width: 400, height: 1000 };
    const { plot, swatches } = at(pie, 1, tall);
    expect(plot.width).toBe(400);
    // One legend row (30 × 1.6 = 48 px), then 24 px of air, then the pie: 472 px centred in 1000.
    const legendTop = swatches[0]!.y + swatches[0]!.height / 2 - 24;
    expect(legendTop).toBeCloseTo(264, 6);
    expect(plot.y).toBeCloseTo(264 + 48 + 24, 6);
    expect(plot.y + plot.height).toBeCloseTo(1000 - 264, 6);
  });

  it('draws a line along half its length at half progress', () => {
    const line = chart({
      kind: 'line',
      labels: ['a', 'b', 'c', 'd'],
      series: [{ name: 'L', values: [10, 40, 20, 80] }],
    });
    const full = polylineLength(at(line, 1).lines[0]!.points);
    const half = polylineLength(at(line, 0.5).lines[0]!.points);
    expect(half / full).toBeCloseTo(0.5, 3);
    expect(at(line, 0).lines).toEqual([]);
  });

  it('pops scatter points with an overshoot past their radius', () => {
    const scatter = chart({ kind: 'scatter', series: [{ name: 'P', points: [[1, 2]] }] });
    const built = at(scatter, 1).dots[0]!.radius;
    const radii = [0.5, 0.6, 0.7, 0.8].map((t) => at(scatter, t).dots[0]!.radius);
    expect(Math.max(...radii)).toBeGreaterThan(built * 1.02);
  });

  it('tweens values and the axis to an update', () => {
    const updating = chart({
      kind: 'bar',
      labels: ['A'],
      series: [{ name: 'S', values: [40] }],
      updates: [{ at: 5, series: [{ values: [200] }], duration: 1, easing: 'linear' }],
    });
    const before = at(updating, 4 - DATA_LEAD_SECONDS);
    const middle = at(updating, 5.5 - DATA_LEAD_SECONDS);
    const after = at(updating, 7 - DATA_LEAD_SECONDS);
    const label = (geometry: typeof before) => geometry.texts.find((text) => text.role === 'value')!.text;
    expect([label(before), label(middle), label(after)]).toEqual(['40', '120', '200']);
    const top = (geometry: typeof before) =>
      geometry.texts.filter((text) => text.role === 'tick').at(-1)!.text;
    expect([top(before), top(after)]).toEqual(['40', '200']);
  });
});

describe('chart schema', () => {
  it('asks for one value per label, naming the series', () => {
    const result = ChartElementSchema.safeParse({
      type: 'chart',
      kind: 'bar',
      labels: ['a', 'b', 'c'],
      series: [{ name: 'S', values: [1, 2] }],
    });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({
      path: ['series', 0, 'values'],
      message: '2 values for 3 labels; give one value per label',
    });
  });

  it('takes data inline or from a file, not both', () => {
    const result = ChartElementSchema.safeParse({
      type: 'chart',
      kind: 'line',
      labels: ['a'],
      series: [{ name: 'S', values: [1] }],
      data: { src: 'asset:x.csv' },
    });
    expect(result.error!.issues[0]!.message).toMatch(/one of the two/);
  });
});
