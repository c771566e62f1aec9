// review: samples frames across the timeline, checks them (visual checks, resources, the mixed
// soundtrack) and returns the samples as PNGs, the mounted facts and the findings. With
// reviewDeterminism every sample is drawn again in a freshly compiled and mounted composition.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { writePngAtomically } from '../../engine/render-frame.ts';
import { completeFinding } from '../../review/finding.ts';
import { reviewComposition } from '../../review/review-composition.ts';
import { progressReport } from '../progress.ts';
import { DEFAULT_REVIEW_FRAMES } from '../../../shared/protocol/review-frames.ts';
import { frameFileName, resultTag } from './context.ts';
import type { OperationContext } from './context.ts';
import { enforceQualityGate, qualityGate } from './quality-gate.ts';
import type { ReviewSampleResult, ReviewOutcome } from '../../../shared/protocol/workspace.ts';

export interface ReviewRunOptions {
  frames: number;
  determinism: boolean;
  /** Write each sample as a PNG into the results folder. */
  keepSamples: boolean;
}

export async function runReview(ctx: OperationContext, options: ReviewRunOptions): Promise<ReviewOutcome> {
  const started = performance.now();
  ctx.progress(
    progressReport({
      stage: 'reviewing',
      framesDone: 0,
      framesTotal: options.frames,
      fps: 0,
      etaSeconds: null,
    }),
  );
  const review = await reviewComposition({
    model: ctx.model,
    project: ctx.renderProject,
    aspect: ctx.job.aspect,
    samples: options.frames,
    png: options.keepSamples,
    mount: options.determinism ? ctx.remount : undefined,
    signal: ctx.signal,
    // Each sample as it is drawn: a UI shows the count move, not 0 of N until the end.
    onSample: (done, total) =>
      ctx.progress(
        progressReport({
          stage: 'reviewing',
          framesDone: done,
          framesTotal: total,
          fps: 0,
          etaSeconds: null,
        }),
      ),
  });
  const { visual, facts, drafts } = review;
  ctx.progress(
    progressReport({
      stage: 'reviewing',
      framesDone: visual.samples.length,
      framesTotal: visual.samples.length,
      fps: 0,
      etaSeconds: null,
    }),
  );
  const allowed = new Set<string>(ctx.job.allowQuality ?? []);
  const findings = drafts.map((draft) =>
    completeFinding(draft, visual.video.fps, ctx.sourceRevision, allowed),
  );

  let samplesDir: string | undefined;
  const samples: ReviewSampleResult[] = [];
  const writeStarted = performance.now();
  if (options.keepSamples) {
    // One folder per revision, emptied first: it always holds exactly the last review's samples.
    const tag = resultTag(ctx) + (ctx.job.aspect ? `.${ctx.job.aspect}` : '');
    samplesDir = path.join(ctx.resultsDir, 'reviews', tag);
    await rm(samplesDir, { recursive: true, force: true });
  }
  for (const sample of visual.samples) {
    const file =
      samplesDir && sample.png
        ? path.join(samplesDir, frameFileName(sample.frame, ctx.job.aspect))
        : undefined;
    if (file && sample.png) await writePngAtomically(file, sample.png);
    samples.push({
      frame: sample.frame,
      seconds: Number(sample.seconds.toFixed(3)),
      ...(file ? { path: file } : {}),
      sha256: sample.sha256,
    });
  }
  const determinism = visual.determinism && {
    checked: visual.determinism.length,
    mismatches: visual.determinism.filter((frame) => !frame.match).length,
    frames: visual.determinism,
  };
  const round = (ms: number) => Math.round(ms);
  return {
    samples,
    ...(samplesDir ? { samplesDir } : {}),
    facts,
    findings,
    qualityGate: qualityGate(findings, ctx.job),
    ...(determinism ? { determinism } : {}),
    timings: {
      captureMilliseconds: round(visual.timings.captureMs),
      checksMilliseconds: round(visual.timings.checksMs + visual.timings.frozenMs),
      determinismMilliseconds: round(visual.timings.determinismMs),
      factsMilliseconds: round(review.timings.factsMs),
      audioMilliseconds: round(review.timings.audioMs),
      writeMilliseconds: round(performance.now() - writeStarted),
      totalMilliseconds: round(performance.now() - started),
    },
  };
}

export async function reviewOperation(ctx: OperationContext): Promise<ReviewOutcome> {
  const outcome = await runReview(ctx, {
    frames: ctx.job.reviewFrames ?? DEFAULT_REVIEW_FRAMES,
    determinism: ctx.job.reviewDeterminism === true,
    keepSamples: true,
  });
  enforceQualityGate(outcome.qualityGate, outcome.findings, { operation: 'review', ...outcome });
  return outcome;
}
