// The failures a render, a frame, a review or a preview can end in, each with one code and one HTTP
// status. The render job, the workspace, the preview and MCP all read this table, so a composition
// that does not compile is `compile_failed` wherever it is met, and a new error class is added once.
import { CompositionCompileError } from '../composition/compile.ts';
import { CompositionLoadError } from '../composition/load.ts';
import { FfmpegError } from '../ffmpeg/run.ts';
import { MediaError } from '../media/media-error.ts';
import { KinoInputError } from '../project/input-error.ts';
import { VerificationError } from '../verify/verify.ts';
import { SpecValidationError } from '../../shared/spec/validate.ts';
import { VariableBindingError } from '../../shared/spec/variables.ts';
import { FrameOutOfRangeError } from './drawing-session.ts';
import { PosterOutOfRange } from './poster-frame.ts';
import { RenderChunkError } from './render-chunks.ts';

/**
 * input: the request or the composition is at fault, and the message is written for whoever made it
 * (a caller may show it as it is); server: Kino or its tools failed, and the message may hold internals.
 */
export type FailureCause = 'input' | 'server';

export interface Failure {
  code: string;
  status: number;
  cause: FailureCause;
}

export const COMPILE_FAILED = 'compile_failed';

type ErrorClass = abstract new (...args: never[]) => Error;

const FAILURES: [ErrorClass, Failure | ((error: never) => Failure)][] = [
  [KinoInputError, { code: 'invalid_input', status: 400, cause: 'input' }],
  [VariableBindingError, { code: 'invalid_variables', status: 400, cause: 'input' }],
  [CompositionCompileError, { code: COMPILE_FAILED, status: 422, cause: 'input' }],
  [CompositionLoadError, { code: 'composition_failed', status: 422, cause: 'input' }],
  [SpecValidationError, { code: 'invalid_spec', status: 422, cause: 'input' }],
  [FrameOutOfRangeError, { code: 'frame_out_of_range', status: 400, cause: 'input' }],
  [PosterOutOfRange, { code: 'poster_out_of_range', status: 400, cause: 'input' }],
  // Media failures keep their own codes (media_fetch_failed, missing_asset, …): each has its remedy.
  [MediaError, (error: MediaError) => ({ code: error.code, status: 422, cause: 'input' })],
  [RenderChunkError, { code: 'render_chunk_invalid', status: 400, cause: 'input' }],
  [FfmpegError, { code: 'encoder_failed', status: 500, cause: 'server' }],
  [VerificationError, { code: 'verification_failed', status: 500, cause: 'server' }],
];

/** The code, status and cause of a known failure; undefined for an unexpected error. */
export function failureOf(error: unknown): Failure | undefined {
  for (const [kind, failure] of FAILURES) {
    if (error instanceof kind) return typeof failure === 'function' ? failure(error as never) : failure;
  }
  return undefined;
}
