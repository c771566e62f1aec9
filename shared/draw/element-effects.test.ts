import { describe, expect, it } from 'vitest';
import type { Ctx2D } from '../canvas/types.ts';
import { clipToInk } from './element-effects.ts';

/** A context on a 100×50 canvas under `m`, recording the clip rectangles it is given. */
function recordingContext(m: { a: number; b: number; c: number; d: number; e: number; f: number }) {
  const clips: number[][] = [];
  let pending: number[] | undefined;
  const ctx = {
    canvas: { width: 100, height: 50 },
    getTransform: () => m,
    setTransform: () => undefined,
    beginPath: () => undefined,
    rect: (...args: number[]) => (pending = args),
    clip: () => clips.push(pending!),
  };
  return { ctx: ctx as unknown as Ctx2D, clips };
}
const translate = (e: number, f: number) => ({ a: 1, b: 0, c: 0, d: 1, e, f });
const ink = { x: 0, y: 0, width: 10, height: 10 };

describe('clipToInk', () => {
  it('clips from the canvas origin to the ink and its reach, or tightly when shiftable', () => {
    const loose = recordingContext(translate(40, 20));
    clipToInk(loose.ctx, ink, 5);
    expect(loose.clips).toEqual([[0, 0, 55, 35]]);
    const tight = recordingContext(translate(40, 20));
    clipToInk(tight.ctx, ink, 5, true);
    expect(tight.clips).toEqual([[35, 15, 20, 20]]);
  });

  it('clips to nothing when neither the ink nor its reach lands on the canvas', () => {
    for (const [e, f] of [
      [-30, 10],
      [130, 10],
      [40, -30],
      [40, 80],
    ] as const) {
      const { ctx, clips } = recordingContext(translate(e, f));
      clipToInk(ctx, ink, 5);
      expect(clips).toEqual([[0, 0, 0, 0]]);
    }
  });

  it('leaves the layer unbounded under a transform that is not finite', () => {
    const { ctx, clips } = recordingContext({ a: Infinity, b: 0, c: 0, d: 1, e: 0, f: 0 });
    clipToInk(ctx, ink, 5);
    expect(clips).toEqual([]);
  });
});
