// The checks a render request passes before anything is drawn: what it costs, whether its poster is
// one of its frames, whether its encoder settings fit its format and can run here, whether the frames
// it asks for exist. The render API, the render job and the workspace all ask these, and each turns a
// refusal into its own error shape (a problem, a job error, a workspace error body).
import { encoderSettingsIssues } from '../../shared/output/encoder-settings.ts';
import type { EncoderSettings } from '../../shared/output/encoder-settings.ts';
import type { OutputFormat } from '../../shared/output/formats.ts';
import { hardwareEncoderProblem } from '../encoder/encoder-settings.ts';
import { PosterOutOfRange, posterFrameFor } from './poster-frame.ts';
import { renderCostOver } from './render-cost.ts';

/** A request field that cannot be honoured: where (a JSON pointer into the request) and why. */
export interface RequestIssue {
  pointer: string;
  message: string;
}

export interface RequestRefusal {
  status: 400 | 422;
  code: string;
  message: string;
  issues: RequestIssue[];
}

/** One output as far as its cost and poster go. */
export interface OutputSize {
  fps: number;
  durationFrames: number;
  size: { width: number; height: number };
}

/**
 * A render's cost is frames × width × height at the size each output renders, summed; over
 * `maxPixels` (MAX_RENDER_PIXELS) it is refused, at `pointer` (what made the video).
 */
export function renderCostRefusal(
  outputs: readonly OutputSize[],
  maxPixels: number,
  pointer: string,
): RequestRefusal | undefined {
  const video = outputs[0];
  if (!video) return undefined;
  const total = outputs.reduce(
    (sum, output) => sum + output.durationFrames * output.size.width * output.size.height,
    0,
  );
  const over =
    outputs.length === 1
      ? renderCostOver(video, maxPixels)
      : total > maxPixels
        ? `the ${outputs.length} outputs together are ${total} pixels to render, over this server's limit of ${maxPixels} (MAX_RENDER_PIXELS)`
        : undefined;
  if (!over) return undefined;
  const what =
    outputs.length === 1
      ? `${video.durationFrames} frames of ${video.size.width}×${video.size.height}`
      : `${outputs.length} outputs of ${video.durationFrames} frames`;
  return {
    status: 400,
    code: 'render_too_large',
    message: over,
    issues: [{ pointer, message: `${what} is over MAX_RENDER_PIXELS (${maxPixels})` }],
  };
}

/** The poster must be one of the `frames` rendered (a time past them is refused, never clamped). */
export function posterRefusal(
  poster: string,
  fps: number,
  frames: number,
  pointer: string,
): (RequestRefusal & { frame: number; frames: number }) | undefined {
  try {
    posterFrameFor(poster, fps, frames);
    return undefined;
  } catch (error) {
    if (!(error instanceof PosterOutOfRange)) throw error;
    const { code, message, frame } = error;
    return { status: 400, code, message, issues: [{ pointer, message }], frame, frames: error.frames };
  }
}

/** Only the first `frameCount` frames: there must be that many. */
export function frameCountRefusal(
  frameCount: number | undefined,
  durationFrames: number,
  pointer: string,
): RequestRefusal | undefined {
  if (frameCount === undefined || frameCount <= durationFrames) return undefined;
  const message = `frameCount ${frameCount} is more than the timeline's ${durationFrames} frames`;
  return { status: 400, code: 'frame_out_of_range', message, issues: [{ pointer, message }] };
}

/** The encoder settings one output asks for, and where they sit in the request. */
export interface EncoderAsked {
  format: OutputFormat;
  encoder: EncoderSettings | undefined;
  pointer: string;
}

/**
 * Each output's encoder settings against its format: one it does not use, or out of bounds, is 400
 * validation_failed at its field; a hardware encoder this machine's ffmpeg does not list or cannot
 * open is 422 encoder_unavailable at its codec. `nameFormat` adds the format to each message (for
 * requests with several outputs).
 */
export async function encoderRefusal(
  asked: readonly EncoderAsked[],
  nameFormat = false,
): Promise<RequestRefusal | undefined> {
  const issues = asked.flatMap(({ format, encoder, pointer }) =>
    encoderSettingsIssues(format, encoder ?? {}).map((issue) => ({
      pointer: `${pointer}/${issue.field}`,
      message: nameFormat ? `${issue.message} (output format ${format})` : issue.message,
    })),
  );
  const unique = issues.filter(
    (issue, index) =>
      issues.findIndex((other) => other.pointer === issue.pointer && other.message === issue.message) ===
      index,
  );
  if (unique.length > 0) {
    return {
      status: 400,
      code: 'validation_failed',
      message: `encoder settings refused: ${unique.map((issue) => issue.message).join('; ')}`,
      issues: unique,
    };
  }
  for (const { encoder, pointer } of asked) {
    const problem = await hardwareEncoderProblem(encoder);
    if (problem) {
      return {
        status: 422,
        code: 'encoder_unavailable',
        message: problem,
        issues: [{ pointer: `${pointer}/codec`, message: problem }],
      };
    }
  }
  return undefined;
}
