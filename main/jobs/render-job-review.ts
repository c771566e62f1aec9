// The quality gate (options.review, options.strictQuality): the workspace's checks on the resolved
// model, before anything is rendered. The findings go to the parent; a strict job whose findings are
// not all allowed fails quality_gate.
import { MAX_REVIEW_FRAMES } from '../../shared/protocol/review-frames.ts';
import { projectContext } from '../engine/project-context.ts';
import { completeFinding } from '../review/finding.ts';
import { elementPointer } from '../../shared/timeline/element-keys.ts';
import { qualityGate } from '../review/quality-gate.ts';
import { reviewComposition } from '../review/review-composition.ts';
import { JobFailure } from './render-job-failure.ts';
import type { ResolvedInput } from './render-job-input.ts';
import type { RenderAssignment, RenderJobChannel } from './render-job-messages.ts';

/**
 * options.review / strictQuality: the workspace's checks on the resolved model, before rendering;
 * a strict job whose findings are not all allowed fails quality_gate and renders nothing.
 */
export async function reviewAssignment(
  job: Pick<RenderAssignment, 'jobId' | 'options'>,
  resolved: Pick<ResolvedInput, 'model' | 'project' | 'spec'>,
  { send, signal }: RenderJobChannel,
): Promise<void> {
  const { review, strictQuality, allowQuality } = job.options;
  if (!review && !strictQuality) return;
  await send({
    type: 'progress',
    progress: {
      stage: 'reviewing',
      framesDone: 0,
      framesTotal: MAX_REVIEW_FRAMES,
      percent: 0,
      etaSeconds: null,
    },
  });
  const result = await reviewComposition({
    model: resolved.model,
    project: await projectContext(resolved.project),
    aspect: job.options.aspect,
    samples: MAX_REVIEW_FRAMES,
    signal,
  });
  const allowed = new Set<string>(allowQuality ?? []);
  const findings = result.drafts.map((draft) =>
    completeFinding(draft, result.visual.video.fps, job.jobId, allowed),
  );
  const gate = qualityGate(findings, strictQuality === true);
  await send({ type: 'review', review: { findings, qualityGate: gate } });
  if (gate.strict && !gate.passed) {
    const open = findings.filter((finding) => !finding.allowed);
    const errors = open.flatMap((finding) => {
      const pointer = resolved.spec && finding.element ? elementPointer(finding.element) : undefined;
      return [
        { pointer: pointer ?? '', message: `${finding.code}: ${finding.message} Fix: ${finding.remedy}` },
      ];
    });
    throw new JobFailure({
      code: 'quality_gate',
      message: `strict quality: ${open.length} finding${open.length === 1 ? '' : 's'} not allowed (${gate.failing.join(', ')}); fix them or list their codes in options.allowQuality`,
      errors,
    });
  }
}
