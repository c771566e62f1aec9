// A render split into chunks for several workers: each chunk is a run of the timeline's frames,
// rendered (renderVideo with options.chunk) to a video-only H.264 mp4, and the chunks are joined by
// stream copy, with the soundtrack mixed once for the whole length (stitchVideo). What a caller
// needs to plan the chunks lives here: the frames a render draws, ranges over them, and the checks.
import type { VideoModel } from '../../shared/spec/model.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import type { Time } from '../../shared/spec/time.ts';
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';
import { resolveForOutput } from './output-video.ts';
import { posterFrameFor } from './poster-frame.ts';

/** Frames [start, end) of the whole timeline: frame numbers are the timeline's, not the chunk's. */
export interface FrameRange {
  start: number;
  end: number;
}

/** The only format whose renders split: H.264 chunks with closed GOPs join by stream copy. */
export const CHUNKED_FORMAT = 'mp4';

/** A chunk was asked of a format that does not split, or its range is not inside the render. */
export class RenderChunkError extends Error {
  override name = 'RenderChunkError';
  readonly code = 'render_chunk_invalid';
}

export function assertChunkedFormat(format: OutputFormat): void {
  if (format !== CHUNKED_FORMAT) {
    throw new RenderChunkError(
      `only mp4 renders can be split into chunks (H.264 chunks are joined without re-encoding); render ${format} whole`,
    );
  }
}

/** Checks `chunk` is a run of whole frames inside a render of `frames` frames. */
export function assertChunkRange(chunk: FrameRange, frames: number): void {
  const { start, end } = chunk;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end <= start) {
    throw new RenderChunkError(
      `chunk frames [${start}, ${end}) must be whole frame numbers with 0 <= start < end`,
    );
  }
  if (end > frames) {
    throw new RenderChunkError(
      `chunk frames [${start}, ${end}) run past the render's end: it has ${frames} frames (0–${frames - 1})`,
    );
  }
}

export interface RenderFramePlan {
  /** Frames the render draws: the timeline's, or its first `options.frames`. Chunks split [0, frames). */
  frames: number;
  fps: number;
  /** The frame options.poster names (a global frame: "45f" is frame 45); undefined without a poster. */
  posterFrame: number | undefined;
}

/**
 * What a render with these options draws, without drawing: a caller plans chunks over `frames` and
 * finds the chunk holding `posterFrame` (only the chunk holding it writes the poster).
 */
export function renderFramePlan(
  model: VideoModel,
  options: {
    format: OutputFormat;
    quality: Quality;
    aspect?: AspectName | undefined;
    frames?: number | undefined;
    poster?: Time | undefined;
  },
): RenderFramePlan {
  const video = resolveForOutput(model, options);
  const frames = Math.max(1, Math.min(video.durationFrames, options.frames ?? video.durationFrames));
  const posterFrame =
    options.poster === undefined ? undefined : posterFrameFor(options.poster, video.fps, frames);
  return { frames, fps: video.fps, posterFrame };
}

/** `frames` split into `count` runs in order, as even as whole frames allow (fewer when frames < count). */
export function chunkRanges(frames: number, count: number): FrameRange[] {
  if (!Number.isSafeInteger(frames) || frames < 1 || !Number.isSafeInteger(count) || count < 1) {
    throw new RenderChunkError(
      `cannot split ${frames} frames into ${count} chunks: both must be whole numbers of at least 1`,
    );
  }
  const chunks = Math.min(count, frames);
  return Array.from({ length: chunks }, (_, i) => ({
    start: Math.floor((i * frames) / chunks),
    end: Math.floor(((i + 1) * frames) / chunks),
  }));
}
