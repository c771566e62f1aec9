// The poster is one of the frames rendered. A time past the end used to be clamped to the last
// frame on some surfaces and refused on others; every surface now refuses it the same way.
import { timeToFrame } from '../../shared/spec/time.ts';
import type { Time } from '../../shared/spec/time.ts';

export class PosterOutOfRange extends Error {
  override name = 'PosterOutOfRange';
  readonly code = 'poster_out_of_range';
  readonly frame: number;
  readonly frames: number;
  constructor(poster: Time, frame: number, frames: number, fps: number) {
    super(
      `poster ${String(poster)} is frame ${frame}, but the render has ${frames} frames (0–${frames - 1}, up to ${((frames - 1) / fps).toFixed(3)} s at ${fps} fps)`,
    );
    this.frame = frame;
    this.frames = frames;
  }
}

/** The frame `poster` names, which must be one of the `frames` rendered. */
export function posterFrameFor(poster: Time, fps: number, frames: number): number {
  const frame = timeToFrame(poster, fps);
  if (frame >= frames) throw new PosterOutOfRange(poster, frame, frames, fps);
  return frame;
}
