// A child process that authors one spec for the studio, so that the provider calls and the review's
// frames (drawn with Skia, on this process's thread) never stall the studio's server. The parent
// sends the request and the provider's settings (its key over IPC: the child's environment has none
// of the server's secrets); the child reports the briefing, each stage, then the result, and exits.
// Started through authoring-process-entry.mjs, which turns on the compile cache first.
import type { VideoSpec } from '../../shared/spec/schema.ts';
import type { AuthoringRecord } from '../../shared/protocol/authoring-record.ts';
import { answerFormat } from '../authoring/answer-format.ts';
import { listAssets } from '../authoring/assets.ts';
import { authorSpec } from '../authoring/author-spec.ts';
import type { AuthoringRequest } from '../authoring/author-spec.ts';
import { editMessage, promptMessage, systemInstructions } from '../authoring/instructions.ts';
import { AuthoringError } from '../authoring/provider-errors.ts';
import type { ProviderSettings } from '../authoring/providers.ts';
import { callTokens } from '../authoring/token-count.ts';
import { projectContext } from '../engine/project-context.ts';
import { projectForFile } from '../project/load.ts';

export interface AuthoringAssignment {
  request: AuthoringRequest;
  provider: ProviderSettings;
  /** A file in the project the spec is for: its assets are what the model may name. */
  projectFile: string;
  format: string;
}

export type AuthoringProcessMessage =
  | { type: 'briefing'; system: string; user: string; tokens: number }
  | { type: 'stage'; stage: 'authoring' | 'reviewing'; attempt: number }
  | { type: 'warning'; message: string }
  | { type: 'done'; spec: VideoSpec; changes: string[] | null; record: AuthoringRecord }
  | { type: 'failed'; message: string; record: AuthoringRecord | null };

function send(message: AuthoringProcessMessage): Promise<void> {
  return new Promise((resolve) => process.send!(message, () => resolve()));
}

/** What the first call carries, built as authorSpec builds it (the repairs add to it). */
async function sendBriefing(job: AuthoringAssignment, assetsDir: string): Promise<void> {
  const { request, provider } = job;
  const format = answerFormat(provider.name, request.kind);
  const system = systemInstructions(
    { assets: await listAssets(assetsDir), aspect: undefined, format: job.format },
    request.kind,
    format.specSchemaInInstructions,
  );
  const user =
    request.kind === 'prompt' ? promptMessage(request.prompt) : editMessage(request.base, request.change);
  await send({
    type: 'briefing',
    system,
    user,
    tokens: callTokens(system, [{ role: 'user', content: user }], format.schema),
  });
}

async function run(job: AuthoringAssignment): Promise<void> {
  const project = await projectForFile(job.projectFile);
  const context = await projectContext(project);
  const { request, provider } = job;
  try {
    const authoring = authorSpec({
      request,
      provider,
      project: context,
      format: job.format,
      onStage: (stage, attempt) => void send({ type: 'stage', stage, attempt }),
      onWarning: (message) => void send({ type: 'warning', message }),
    });
    authoring.catch(() => undefined); // awaited below; a failure meanwhile is not unhandled
    // Built while the first call is on its way (counting its tokens takes a moment). Only shown to
    // the user, so a briefing that cannot be built costs the authoring nothing.
    await sendBriefing(job, context.assetsDir).catch(() => undefined);
    const result = await authoring;
    await send({ type: 'done', spec: result.spec, changes: result.changes ?? null, record: result.record });
  } catch (error) {
    const record =
      error instanceof AuthoringError ? (error.details?.authoring as AuthoringRecord | undefined) : undefined;
    const message = error instanceof Error ? error.message : String(error);
    await send({ type: 'failed', message: message.split('\n', 1)[0] ?? message, record: record ?? null });
  }
}

/** Authors the assignment, reports it to the parent, then lets go of the channel (and so exits). */
export function serveAssignment(job: AuthoringAssignment): Promise<void> {
  return run(job)
    .catch(async (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      await send({ type: 'failed', message: message.split('\n', 1)[0] ?? message, record: null });
    })
    .finally(() => process.disconnect());
}
