// render: review, then encode, verify with ffprobe, and write the file and its receipt into the
// results folder. A strict quality gate is checked before anything is encoded.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { FORMAT_EXTENSIONS } from '../../encoder/formats.ts';
import { renderVideo, resolveForOutput } from '../../engine/render-video.ts';
import { VerificationError } from '../../verify/verify.ts';
import { timeToFrame } from '../../../shared/spec/time.ts';
import type { ResolvedVideo } from '../../../shared/timeline/types.ts';
import { progressReport } from '../progress.ts';
import { DEFAULT_REVIEW_FRAMES, WorkspaceError } from '../protocol.ts';
import type { WorkspaceJob } from '../protocol.ts';
import { toolchainVersions } from '../toolchain.ts';
import { revisionTag } from './context.ts';
import type { OperationContext } from './context.ts';
import { enforceQualityGate } from './quality-gate.ts';
import { buildReceipt, writeReceipt } from './receipt.ts';
import type { RenderReceipt } from './receipt.ts';
import { runReview } from './review.ts';

export interface RenderOperationResult {
  artifact: {
    path: string;
    bytes: number;
    sha256: string;
    format: string;
    /** The poster PNG, when the job asked for one. */
    poster?: { path: string; bytes: number };
  };
  receiptPath: string;
  receipt: RenderReceipt;
}

/** The poster's frame, which must be one of the frames rendered (renderVideo would quietly clamp it). */
function posterFrameOf(poster: string, job: WorkspaceJob, timeline: ResolvedVideo): number {
  const rendered = job.frameCount ?? timeline.durationFrames;
  const frame = timeToFrame(poster, timeline.fps);
  if (frame >= rendered) {
    throw new WorkspaceError(
      400,
      'poster_out_of_range',
      `poster ${poster} is frame ${frame}, but the render has ${rendered} frames (0–${rendered - 1}, up to ${((rendered - 1) / timeline.fps).toFixed(3)} s at ${timeline.fps} fps)`,
      { details: { poster, frame, frames: rendered } },
    );
  }
  return frame;
}

export async function renderOperation(ctx: OperationContext): Promise<RenderOperationResult> {
  const { job } = ctx;
  const format = job.format ?? 'mp4';
  const quality = job.quality ?? 'standard';
  const timeline = resolveForOutput(ctx.model, { aspect: job.aspect, format, quality });
  if (job.frameCount !== undefined && job.frameCount > timeline.durationFrames) {
    throw new WorkspaceError(
      400,
      'frame_out_of_range',
      `frameCount ${job.frameCount} is more than the timeline's ${timeline.durationFrames} frames`,
    );
  }
  const posterFrame = job.poster === undefined ? undefined : posterFrameOf(job.poster, job, timeline);
  const reviewStarted = performance.now();
  const review = await runReview(ctx, {
    frames: DEFAULT_REVIEW_FRAMES,
    determinism: false,
    keepSamples: false,
  });
  const reviewMilliseconds = performance.now() - reviewStarted;
  enforceQualityGate(review.qualityGate, review.findings, { operation: 'render' });

  const stem = path.basename(ctx.source).replace(/\.[^.]*$/, '');
  // Everything that changes the bytes is in the name, so a later render never overwrites one claimed
  // earlier (the format is in the extension).
  const variant = [
    job.frameCount === undefined ? '' : `-first${job.frameCount}`,
    job.aspect ? `-${job.aspect}` : '',
    job.quality ? `-${job.quality}` : '',
  ].join('');
  const dir = path.join(ctx.resultsDir, 'renders');
  await mkdir(dir, { recursive: true });
  const outputPath = path.join(
    dir,
    `${stem}-${revisionTag(ctx.sourceRevision)}${variant}${FORMAT_EXTENSIONS[format]}`,
  );
  const posterPath = job.poster === undefined ? undefined : outputPath.replace(/\.[^.]+$/, '.poster.png');
  let result;
  try {
    result = await renderVideo({
      model: ctx.model,
      project: ctx.renderProject,
      outputPath,
      options: {
        format,
        quality,
        aspect: job.aspect,
        frames: job.frameCount,
        poster: job.poster,
        posterPath,
      },
      signal: ctx.signal,
      onProgress: (progress) => ctx.progress(progressReport(progress)),
    });
  } catch (error) {
    if (!(error instanceof VerificationError)) throw error;
    const mismatches = error.output.checks.filter((check) => !check.ok);
    throw new WorkspaceError(500, 'verification_failed', error.message, {
      details: { verification: { ok: false, checks: error.output.checks, mismatches } },
    });
  }
  const receipt = buildReceipt({
    source: ctx.source,
    sourceRevision: ctx.sourceRevision,
    job,
    options: {
      format,
      quality,
      aspect: job.aspect ?? (typeof ctx.model.aspect === 'string' ? ctx.model.aspect : undefined),
      frames: result.frames,
      framesTotal: timeline.durationFrames,
      width: result.width,
      height: result.height,
      fps: result.fps,
      durationSeconds: result.durationSeconds,
    },
    toolchain: await toolchainVersions(),
    result,
    reviewMilliseconds,
    findings: review.findings,
    qualityGate: review.qualityGate,
    poster:
      result.poster && job.poster !== undefined && posterFrame !== undefined
        ? { ...result.poster, time: job.poster, frame: posterFrame }
        : undefined,
  });
  const receiptPath = outputPath.replace(/\.[^.]+$/, '.render.json');
  await writeReceipt(receiptPath, receipt);
  return {
    artifact: {
      path: outputPath,
      bytes: result.output.bytes,
      sha256: result.output.sha256,
      format,
      ...(result.poster ? { poster: result.poster } : {}),
    },
    receiptPath,
    receipt,
  };
}
