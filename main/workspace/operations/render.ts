// render: review, then encode, verify with ffprobe, and write the file and its receipt into the
// results folder. A strict quality gate is checked before anything is encoded.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { FORMAT_EXTENSIONS } from '../../../shared/output/formats.ts';
import { chosenEncoderSettings } from '../../../shared/output/encoder-settings.ts';
import type { EncoderSettings } from '../../../shared/output/encoder-settings.ts';
import { encoderRefusal, frameCountRefusal, posterRefusal } from '../../engine/request-checks.ts';
import type { RequestRefusal } from '../../engine/request-checks.ts';
import { renderVideo } from '../../engine/render-video.ts';
import { resolveForOutput } from '../../engine/output-video.ts';
import { VerificationError } from '../../verify/verify.ts';
import { progressReport } from '../progress.ts';
import { WorkspaceError } from '../workspace-error.ts';
import { DEFAULT_REVIEW_FRAMES } from '../../../shared/protocol/review-frames.ts';
import { resultTag } from './context.ts';
import type { OperationContext } from './context.ts';
import { enforceQualityGate } from './quality-gate.ts';
import { buildRenderReceipt, receiptPathFor, writeReceipt } from '../../engine/receipt.ts';
import { runReview } from './review.ts';
import type { RenderOperationResult } from '../../../shared/protocol/workspace.ts';

/** A request check's refusal as the workspace answers it, its issues at their pointers. */
function refused(refusal: RequestRefusal, details: Record<string, unknown> = {}): WorkspaceError {
  return new WorkspaceError(refusal.status, refusal.code, refusal.message, {
    details: { ...details, errors: refusal.issues },
  });
}

/** A short name for chosen encoder settings, so renders with other settings never share a file name. */
function encoderTag(encoder: EncoderSettings | undefined): string {
  if (!encoder) return '';
  return `-enc${createHash('sha256').update(JSON.stringify(encoder)).digest('hex').slice(0, 8)}`;
}

export async function renderOperation(ctx: OperationContext): Promise<RenderOperationResult> {
  const { job } = ctx;
  const format = job.format ?? 'mp4';
  const quality = job.quality ?? 'standard';
  const encoder = chosenEncoderSettings(job.encoder);
  const encoderRefused = await encoderRefusal([{ format, encoder, pointer: '/encoder' }]);
  if (encoderRefused) throw refused(encoderRefused);
  const timeline = resolveForOutput(ctx.model, { aspect: job.aspect, format, quality });
  const framesRefused = frameCountRefusal(job.frameCount, timeline.durationFrames, '/frameCount');
  if (framesRefused) throw refused(framesRefused);
  // Refused before anything runs when the poster falls past the frames rendered.
  if (job.poster !== undefined) {
    const rendered = job.frameCount ?? timeline.durationFrames;
    const posterRefused = posterRefusal(job.poster, timeline.fps, rendered, '/poster');
    if (posterRefused) {
      const { frame, frames } = posterRefused;
      throw refused(posterRefused, { poster: job.poster, frame, frames });
    }
  }
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
    encoderTag(encoder),
  ].join('');
  const dir = path.join(ctx.resultsDir, 'renders');
  await mkdir(dir, { recursive: true });
  const outputPath = path.join(dir, `${stem}-${resultTag(ctx)}${variant}${FORMAT_EXTENSIONS[format]}`);
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
        encoder,
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
  const { operation: _operation, ...request } = job;
  const receipt = await buildRenderReceipt({
    maker: 'workspace',
    subject: { kind: 'composition', path: ctx.source, modules: ctx.modules },
    request,
    options: { format, quality, poster: job.poster, encoder },
    result,
    workspace: {
      sourceRevision: ctx.sourceRevision,
      findings: review.findings,
      qualityGate: review.qualityGate,
      reviewMilliseconds,
    },
  });
  const receiptPath = receiptPathFor(outputPath);
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
