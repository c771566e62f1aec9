// Annotations drawn whole, by the real frame drawing on Skia: what they point at as things move,
// and that every entrance lands exactly on the element's resting look.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDrawEnv } from './canvas-host.ts';
import { registerBundledFonts } from '../fonts/register.ts';
import type { Ctx2D, DrawEnv } from '../../shared/canvas/types.ts';
import { drawFrame } from '../../shared/draw/frame.ts';
import type { SpecElement } from '../../shared/spec/elements.ts';
import { assertSpec } from '../../shared/spec/validate.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';

const SIZE = { width: 1280, height: 720 };
const FPS = 30;
const noMedia = { image: () => undefined, videoFrame: () => undefined };
let env: DrawEnv;

beforeAll(() => {
  registerBundledFonts();
  env = createDrawEnv(SIZE, FPS, noMedia);
});

function video(elements: SpecElement[], background = '#101010', duration = 4) {
  return resolveTimeline(
    assertSpec({ kinoSpec: 1, fps: FPS, aspect: SIZE, scenes: [{ duration, background, elements }] }),
  );
}

function render(
  elements: SpecElement[],
  frame: number,
  options: { background?: string; spy?: (ctx: Ctx2D) => void } = {},
) {
  const surface = env.createSurface(SIZE.width, SIZE.height);
  options.spy?.(surface.ctx);
  drawFrame(surface.ctx, video(elements, options.background), frame, env);
  const data = surface.ctx.getImageData(0, 0, SIZE.width, SIZE.height).data;
  return {
    data,
    at: (x: number, y: number) => {
      const i = (Math.round(y) * SIZE.width + Math.round(x)) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    },
  };
}

describe('callout', () => {
  // A 180-design-pixel square (120 px here) that holds at x 0.25 for 1s, then moves to x 0.55 by 2s.
  const card: SpecElement = {
    type: 'rect',
    id: 'card',
    box: 'frame',
    y: 0.6,
    width: 180,
    height: 180,
    fill: '#334155',
    keyframes: {
      x: [
        { at: 0, value: 0.25 },
        { at: '1s', value: 0.25 },
        { at: '2s', value: 0.55 },
      ],
    },
  };
  const callout: SpecElement = {
    type: 'callout',
    text: 'It follows',
    target: 'card',
    box: 'frame',
    x: 0.5,
    y: 0.15,
  };

  /** Where the target dot is drawn, in frame pixels (its arcs are centred on the pointer's end). */
  function dotAt(frame: number): { x: number; y: number } {
    const centres: { x: number; y: number }[] = [];
    render([card, callout], frame, {
      spy: (ctx) => {
        const arc = ctx.arc.bind(ctx);
        ctx.arc = (x, y, ...rest) => {
          const point = ctx.getTransform().transformPoint({ x, y });
          centres.push({ x: point.x, y: point.y });
          arc(x, y, ...rest);
        };
      },
    });
    expect(centres.length).toBeGreaterThan(0);
    return centres[centres.length - 1]!;
  }

  it('points at the near edge of its target, and follows it as it moves', () => {
    // The callout's centre is (640, 108); the card's top edge is at 432 − 60 = 372, and the pointer
    // meets it on the line between the two centres.
    const before = dotAt(30);
    expect(before.y).toBeCloseTo(372, 6);
    expect(before.x).toBeCloseTo(320 + 320 * (60 / 324), 6);
    const after = dotAt(75);
    expect(after.y).toBeCloseTo(372, 6);
    expect(after.x).toBeCloseTo(704 - 64 * (60 / 324), 6);
  });

  it('draws its dot at a target point given as fractions of the frame', () => {
    const centres: { x: number; y: number }[] = [];
    render([{ ...callout, target: { x: 0.2, y: 0.9 } }], 30, {
      spy: (ctx) => {
        const arc = ctx.arc.bind(ctx);
        ctx.arc = (x, y, ...rest) => {
          centres.push({ x, y });
          arc(x, y, ...rest);
        };
      },
    });
    expect(centres.at(-1)).toEqual({ x: 256, y: 648 });
  });
});

describe('spotlight', () => {
  it('keeps its hole where keyframes move it, and darkens the rest', () => {
    const spotlight: SpecElement = {
      type: 'spotlight',
      box: 'frame',
      y: 0.5,
      width: 150,
      height: 150,
      dim: 1,
      color: '#000000',
      feather: 0,
      enterDuration: 0,
      exitDuration: 0,
      keyframes: {
        x: [
          { at: 0, value: 0.2 },
          { at: '2s', value: 0.7 },
        ],
      },
    };
    const start = render([spotlight], 0, { background: '#ffffff' });
    expect(start.at(0.2 * 1280, 360)).toEqual([255, 255, 255]);
    expect(start.at(0.7 * 1280, 360)).toEqual([0, 0, 0]);
    // Just outside the hole's edge (radius 75 design px = 50 px) it is dark.
    expect(start.at(0.2 * 1280 + 52, 360)).toEqual([0, 0, 0]);
    expect(start.at(0.2 * 1280 + 48, 360)).toEqual([255, 255, 255]);
    const moved = render([spotlight], 60, { background: '#ffffff' });
    expect(moved.at(0.7 * 1280, 360)).toEqual([255, 255, 255]);
    expect(moved.at(0.2 * 1280, 360)).toEqual([0, 0, 0]);
  });
});

describe('entrances land on the resting drawing', () => {
  const cases: [string, SpecElement, number][] = [
    [
      'arrow',
      { type: 'arrow', from: { x: 0.2, y: 0.8 }, to: { x: 0.7, y: 0.3 }, curve: 0.3, heads: 'both' },
      0.7,
    ],
    ['callout', { type: 'callout', text: 'A note', target: { x: 0.1, y: 0.9 }, x: 0.6, y: 0.3 }, 0.8],
    ['spotlight', { type: 'spotlight', shape: 'rect', x: 0.4, y: 0.5 }, 0.8],
    ['lowerThird bar', { type: 'lowerThird', name: 'Ada Lovelace', title: 'Engineer' }, 0.9],
    ['lowerThird boxed', { type: 'lowerThird', name: 'Ada', title: 'Engineer', style: 'boxed' }, 0.9],
    ['lowerThird underline', { type: 'lowerThird', name: 'Ada', title: 'Engineer', style: 'underline' }, 0.9],
    ['lowerThird minimal', { type: 'lowerThird', name: 'Ada', title: 'Engineer', style: 'minimal' }, 0.9],
    ['titleCard', { type: 'titleCard', title: 'Hello', kicker: 'Intro', subtitle: 'World' }, 1.2],
    ['titleCard split', { type: 'titleCard', title: 'Hello', subtitle: 'World', style: 'split' }, 1.2],
    ['progressBar', { type: 'progressBar', value: 0.4, label: 'Upload', showPercent: true }, 0.6],
  ];

  for (const [name, element, enterSeconds] of cases) {
    it(`${name}: the entrance's last frame equals a later, resting frame`, () => {
      // A light grey frame, so a spotlight's dim shows as a change.
      const landed = render([element], Math.round(enterSeconds * FPS), { background: '#cbd5e1' });
      const resting = render([element], 75, { background: '#cbd5e1' });
      const halfway = render([element], Math.round((enterSeconds * FPS) / 2), { background: '#cbd5e1' });
      expect(Buffer.from(landed.data).equals(Buffer.from(resting.data))).toBe(true);
      // And the entrance is not a still: halfway differs.
      expect(Buffer.from(halfway.data).equals(Buffer.from(resting.data))).toBe(false);
    });
  }
});
