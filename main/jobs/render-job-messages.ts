// Messages between the API process and a render job process (one child per render), so a
// render's CPU and memory never stall the HTTP event loop.
import type { RenderReceipt, Toolchain } from '../../shared/protocol/receipt.ts';
import type { AuthoringLimits } from '../authoring/author-spec.ts';
import type { ProviderSettings } from '../authoring/providers.ts';
import type { JobError, JobProgress, JobReview, RenderInput, RenderJobOptions } from './job-store.ts';

/**
 * What a render process does with its job. `whole`: the render, start to end. `plan`: resolve,
 * author and review as usual, then either answer with a split into chunks (when the render is long
 * enough and can be joined without re-encoding) or render whole. `chunk`: frames [start, end) only,
 * to a video-only chunk file. `stitch`: join the chunk files given, mix the audio, verify, store.
 */
export type RenderMode =
  | { kind: 'whole' }
  | { kind: 'plan'; minFrames: number; maxChunks: number }
  | { kind: 'chunk'; index: number; count: number; start: number; end: number }
  /** `posterPath`: the poster the chunk holding the poster frame drew, when a poster was asked for. */
  | { kind: 'stitch'; chunkPaths: string[]; posterPath?: string };

/** A render split into chunks of its timeline's frames, in order: [start, end) each. */
export interface SplitPlan {
  framesTotal: number;
  chunks: { start: number; end: number }[];
}

export interface RenderAssignment {
  type: 'render';
  jobId: string;
  input: RenderInput;
  options: RenderJobOptions;
  /** The render project: where keys are registered and `asset:` sources live. */
  renderProject: string;
  /** The render job process's scratch folder for this job; the parent moves the results into storage. */
  workDir: string;
  mode: RenderMode;
  /** For a chunk or the stitch step of a prompt or an edit: the spec the job already authored. */
  authored?: Record<string, unknown>;
  /**
   * The toolchain versions for the receipt, found once by the API process (a render job process would start
   * ffmpeg and ffprobe again for every job); absent when they could not be found there.
   */
  toolchain?: Toolchain;
  /**
   * For a prompt or an edit: the provider to author with, its key included. It travels over the IPC
   * channel only, never in the environment, a log line or the job.
   */
  ai?: { provider: ProviderSettings; limits: AuthoringLimits };
}

export interface CancelRender {
  type: 'cancel';
}

export type ToRenderJob = RenderAssignment | CancelRender;

export interface RenderJobOutput {
  videoPath: string;
  posterPath: string | null;
  width: number;
  height: number;
  durationSeconds: number;
  sha256: string;
  bytes: number;
  /** The receipt, written as JSON to receiptPath beside the video. */
  receiptPath: string;
  receipt: RenderReceipt;
}

export type FromRenderJob =
  | { type: 'progress'; progress: JobProgress }
  /** The resolved spec (when the model is plain data) and its builder source, before rendering. */
  | { type: 'resolved'; spec: Record<string, unknown> | null; code: string | null }
  /** How a prompt or an edit was authored (also sent when authoring failed), and what an edit changed. */
  | { type: 'authoring'; authoring: Record<string, unknown>; changes: string[] | null }
  /** What an AI provider said it ignored (an unsupported setting), for the log. */
  | { type: 'warning'; message: string }
  /** The review of the resolved spec (options.review or strictQuality), before rendering. */
  | { type: 'review'; review: JobReview }
  /** One output per options.outputs entry (one when there are none), in order. */
  | { type: 'done'; outputs: RenderJobOutput[] }
  /** In plan mode: the render is to be split into these chunks, none rendered yet. */
  | { type: 'split'; plan: SplitPlan }
  /** In chunk mode: the chunk file, in the work folder (and the poster, when its frame is here). */
  | { type: 'chunk-done'; path: string; frames: number; posterPath: string | null }
  | { type: 'failed'; error: JobError };

/** How each step of a render job process talks to its parent and learns that it is to stop. */
export interface RenderJobChannel {
  /** Sends a message to the parent; resolves once it is sent (at once when the channel is closed). */
  send(message: FromRenderJob): Promise<void>;
  /** Aborted when the render is canceled or the parent goes away. */
  signal: AbortSignal;
}
