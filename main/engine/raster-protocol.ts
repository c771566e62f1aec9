// The messages between a render and its rasterising worker threads. Frames travel through shared
// frame slots (one SharedArrayBuffer), never through the message itself: Skia's pixel buffers are
// external memory, which a worker cannot transfer, and a copy per frame per message would double the
// traffic.
import type { InputPixelFormat } from '../encoder/encoder-args.ts';
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import { MediaError } from '../media/media-error.ts';
import type { MediaErrorCode } from '../media/media-error.ts';
import type { RelayedVideoFrame } from './media-session.ts';
import type { RenderProjectContext } from './project-context.ts';

/**
 * How a worker gets the video model: a plain model is cloned into it; a code composition with custom
 * drawing (functions cannot be cloned) is loaded again from its file.
 */
export type ModelSource =
  | { kind: 'model'; model: VideoModel }
  | { kind: 'composition'; path: string; variables?: VariableValues | undefined };

export interface RasterThreadInit {
  source: ModelSource;
  project: RenderProjectContext;
  output: { aspect?: AspectName | undefined; format: OutputFormat; quality: Quality };
  /**
   * Frame slots, `frameBytes` each, that drawn frames are written into: as straight RGBA, or
   * converted to yuv420p in the thread (the encoder then takes them as they are).
   */
  slots: SharedArrayBuffer;
  frameBytes: number;
  pixelFormat: InputPixelFormat;
}

/** A frame to draw; the pool ends a thread by terminating it, once every frame is written. */
export interface RasterRequest {
  type: 'draw';
  frame: number;
  slot: number;
  /** The video pictures shown on this frame, decoded once by the render's own thread. */
  videos: RelayedVideoFrame[];
  /** Send this frame's straight RGBA back too (the poster frame, when the slots hold yuv420p). */
  rgba?: boolean | undefined;
}

export type RasterReply =
  | { type: 'ready'; width: number; height: number; frames: number }
  | { type: 'drawn'; frame: number; slot: number; drawMs: number; rgba?: Uint8Array | undefined }
  | { type: 'failed'; error: ThreadError };

/**
 * An error as it crosses from a thread: structured cloning keeps only a plain Error, so a media
 * error's code (which callers answer on: a 422 rather than a 500) travels beside it.
 */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string | undefined;
  media?: { code: MediaErrorCode; source: string | undefined } | undefined;
}

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const media = error instanceof MediaError ? { code: error.code, source: error.source } : undefined;
  return { name: error.name, message: error.message, stack: error.stack, media };
}

export function fromThreadError(error: ThreadError): Error {
  const rebuilt = error.media
    ? new MediaError(
        error.media.code,
        error.message,
        error.media.source ? { source: error.media.source } : {},
      )
    : new Error(error.message);
  rebuilt.name = error.name;
  if (error.stack) rebuilt.stack = error.stack;
  return rebuilt;
}
