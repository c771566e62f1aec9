// The noise background, painted once per grain variant and copied after: each frame must equal the
// one painted afresh by a new host, whether its variant was cached, evicted or never drawn.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { drawFrame } from '../../shared/draw/frame.ts';
import { assertSpec } from '../../shared/spec/validate.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { createDrawEnv, createSkiaSurface, readRgba } from './canvas-host.ts';

const SIZE = { width: 320, height: 568 };
const noMedia = { image: () => undefined, videoFrame: () => undefined };
const video = resolveTimeline(
  assertSpec({
    kinoSpec: 1,
    fps: 30,
    aspect: SIZE,
    scenes: [
      { duration: 1, background: { type: 'noise', color: '#0b0b10', grain: 0.2 } },
      { duration: 1, background: { type: 'noise', color: '#203040', scale: 3 } },
    ],
  }),
);

function hashFrames(frames: number[], sharedHost: boolean): string[] {
  const shared = createDrawEnv(SIZE, 30, noMedia);
  return frames.map((frame) => {
    const env = sharedHost ? shared : createDrawEnv(SIZE, 30, noMedia);
    const surface = createSkiaSurface(SIZE.width, SIZE.height);
    drawFrame(surface.ctx, video, frame, env);
    return createHash('sha256').update(readRgba(surface)).digest('hex');
  });
}

describe('noise background', () => {
  it('draws each frame as a fresh host paints it, through cache hits and evictions', () => {
    // Both scenes' six variants each: twelve looks through a cache of six, and back again.
    const frames = [0, 1, 2, 3, 4, 5, 6, 0, 30, 31, 32, 33, 34, 35, 36, 1, 7, 59];
    const cached = hashFrames(frames, true);
    expect(cached).toEqual(hashFrames(frames, false));
    expect(cached[0]).toBe(cached[6]); // frame 6 shows variant 0 again
    expect(cached[0]).not.toBe(cached[1]); // the grain moves
    expect(cached[0]).not.toBe(cached[8]); // the second look
  });
});
