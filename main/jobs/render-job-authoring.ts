// Authoring, the first step of a prompt or an edit: the assignment's AI provider writes the spec,
// and how it went (the authoring record, what an edit changed) goes to the parent as it happens.
import type { VideoSpec } from '../../shared/spec/schema.ts';
import { authorSpec } from '../authoring/author-spec.ts';
import { AuthoringError } from '../authoring/provider-errors.ts';
import { projectContext } from '../engine/project-context.ts';
import { KinoInputError } from '../project/input-error.ts';
import type { RenderProject } from '../project/load.ts';
import type { RenderAssignment, RenderJobChannel } from './render-job-messages.ts';

/** A prompt or an edit, authored into a spec by the assignment's provider, reported as it goes. */
export async function authorAssignment(
  job: Pick<RenderAssignment, 'input' | 'ai' | 'options'>,
  project: RenderProject,
  { send, signal }: RenderJobChannel,
): Promise<VideoSpec> {
  const input = job.input;
  if ((input.kind !== 'prompt' && input.kind !== 'edit') || !job.ai) {
    throw new KinoInputError('this render needs an AI provider, and none was assigned');
  }
  const stage = (name: 'authoring' | 'reviewing') =>
    void send({
      type: 'progress',
      progress: { stage: name, framesDone: 0, framesTotal: 0, percent: 0, etaSeconds: null },
    });
  try {
    const result = await authorSpec({
      request:
        input.kind === 'prompt'
          ? { kind: 'prompt', prompt: input.prompt }
          : { kind: 'edit', base: input.base as VideoSpec, change: input.change },
      provider: job.ai.provider,
      limits: job.ai.limits,
      project: await projectContext(project),
      aspect: job.options.aspect,
      format: job.options.format,
      signal,
      onStage: stage,
      onWarning: (message) => void send({ type: 'warning', message }),
    });
    await send({
      type: 'authoring',
      authoring: result.record as unknown as Record<string, unknown>,
      changes: result.changes ?? null,
    });
    return result.spec;
  } catch (error) {
    const record = error instanceof AuthoringError ? error.details?.authoring : undefined;
    if (record)
      await send({ type: 'authoring', authoring: record as Record<string, unknown>, changes: null });
    throw error;
  }
}
