// The messages between a render and its rasterising worker threads. Frames travel through shared
// frame slots (one SharedArrayBuffer), never through the message itself: Skia's pixel buffers are
// external memory, which a worker cannot transfer, and a copy per frame per message would double the
// traffic.
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import type { RelayedVideoFrame } from './media-session.ts';
import type { RenderProjectContext } from './project-context.ts';

/**
 * How a worker gets the video model: a plain model is cloned into it; a code composition with custom
 * drawing (functions cannot be cloned) is loaded again from its file.
 */
export type ModelSource =
  | { kind: 'model'; model: VideoModel }
  | { kind: 'composition'; path: string; variables?: VariableValues | undefined };

export interface RasterWorkerInit {
  source: ModelSource;
  project: RenderProjectContext;
  output: { aspect?: AspectName | undefined; format: OutputFormat; quality: Quality };
  /** Frame slots, `frameBytes` each, that drawn frames are copied into as straight RGBA. */
  slots: SharedArrayBuffer;
  frameBytes: number;
}

export type RasterRequest =
  | {
      type: 'draw';
      frame: number;
      slot: number;
      /** The video pictures shown on this frame, decoded once by the render's own thread. */
      videos: RelayedVideoFrame[];
    }
  | { type: 'close' };

export type RasterReply =
  | { type: 'ready'; width: number; height: number; frames: number }
  | { type: 'drawn'; frame: number; slot: number; drawMs: number }
  | { type: 'failed'; error: unknown };
