// The quality gate (options.review, options.strictQuality): the workspace's checks on the resolved
// model, before anything is rendered, in every aspect the job's outputs draw in. The findings go to
// the parent; a strict job whose findings are not all allowed fails quality_gate.
import { MAX_REVIEW_FRAMES } from '../../shared/protocol/review-frames.ts';
import type { Aspect } from '../../shared/spec/sizes.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import { projectContext } from '../engine/project-context.ts';
import { aspectLabel, mergeAspectFindings } from '../review/aspect-findings.ts';
import type { AspectFindings } from '../review/aspect-findings.ts';
import { completeFinding } from '../review/finding.ts';
import { elementPointer } from '../../shared/timeline/element-keys.ts';
import { qualityGate } from '../review/quality-gate.ts';
import { reviewComposition } from '../review/review-composition.ts';
import { JobFailure } from './render-job-failure.ts';
import type { ResolvedInput } from './render-job-input.ts';
import type { RenderAssignment, RenderJobChannel } from './render-job-messages.ts';

/** Each aspect the job draws in, once, in the order of its outputs (one output: the job's own). */
export function reviewedAspects(
  options: Pick<RenderAssignment['options'], 'aspect' | 'outputs'>,
  model: Pick<VideoModel, 'aspect'>,
): Aspect[] {
  const asked = (options.outputs ?? [options]).map(
    (output): Aspect => output.aspect ?? options.aspect ?? model.aspect ?? 'reels',
  );
  const byLabel = new Map(asked.map((aspect) => [aspectLabel(aspect), aspect]));
  return [...byLabel.values()];
}

/**
 * options.review / strictQuality: the workspace's checks on the resolved model, before rendering, in
 * each aspect the outputs draw in; a strict job whose findings are not all allowed fails quality_gate
 * and renders nothing.
 */
export async function reviewAssignment(
  job: Pick<RenderAssignment, 'jobId' | 'options'>,
  resolved: Pick<ResolvedInput, 'model' | 'project' | 'spec'>,
  { send, signal }: RenderJobChannel,
): Promise<void> {
  const { review, strictQuality, allowQuality } = job.options;
  if (!review && !strictQuality) return;
  const aspects = reviewedAspects(job.options, resolved.model);
  await send({
    type: 'progress',
    progress: {
      stage: 'reviewing',
      framesDone: 0,
      framesTotal: MAX_REVIEW_FRAMES * aspects.length,
      percent: 0,
      etaSeconds: null,
    },
  });
  const project = await projectContext(resolved.project);
  const allowed = new Set<string>(allowQuality ?? []);
  const reviews: AspectFindings[] = [];
  for (const aspect of aspects) {
    const result = await reviewComposition({
      model: resolved.model,
      project,
      aspect,
      samples: MAX_REVIEW_FRAMES,
      signal,
    });
    reviews.push({
      aspect: aspectLabel(aspect),
      findings: result.drafts.map((draft) =>
        completeFinding(draft, result.visual.video.fps, job.jobId, allowed),
      ),
    });
  }
  const findings = mergeAspectFindings(reviews);
  const gate = qualityGate(findings, strictQuality === true);
  await send({
    type: 'review',
    review: { findings, qualityGate: gate, aspects: reviews.map((one) => one.aspect) },
  });
  if (gate.strict && !gate.passed) {
    const open = findings.filter((finding) => !finding.allowed);
    const errors = open.map((finding) => {
      const pointer = resolved.spec && finding.element ? elementPointer(finding.element) : undefined;
      const where = finding.aspect ? ` (in ${finding.aspect})` : '';
      return {
        pointer: pointer ?? '',
        message: `${finding.code}${where}: ${finding.message} Fix: ${finding.remedy}`,
      };
    });
    throw new JobFailure({
      code: 'quality_gate',
      message: `strict quality: ${open.length} finding${open.length === 1 ? '' : 's'} not allowed (${gate.failing.join(', ')}); fix them or list their codes in options.allowQuality`,
      errors,
    });
  }
}
