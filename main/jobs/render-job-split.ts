// Planning a split render (plan mode): whether the render is long enough to be cut into chunks that
// free workers render at once, and where the cuts fall.
import { chunkRanges, renderFramePlan } from '../engine/render-chunks.ts';
import type { ResolvedInput } from './render-job-input.ts';
import type { RenderAssignment, SplitPlan } from './render-job-messages.ts';

/**
 * Plan mode: the chunks to split the render into, when it is long enough and the queue offered
 * slots for at least two; each chunk has at least half of CHUNK_MIN_FRAMES.
 */
export function splitPlan(
  job: Pick<RenderAssignment, 'mode' | 'options'>,
  resolved: Pick<ResolvedInput, 'model'>,
): SplitPlan | undefined {
  const { mode } = job;
  if (mode.kind !== 'plan' || job.options.outputs) return undefined;
  const { frames } = renderFramePlan(resolved.model, job.options);
  if (frames <= mode.minFrames) return undefined;
  const count = Math.min(mode.maxChunks, Math.floor(frames / Math.max(1, Math.ceil(mode.minFrames / 2))));
  return count < 2 ? undefined : { framesTotal: frames, chunks: chunkRanges(frames, count) };
}
