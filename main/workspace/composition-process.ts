// The workspace worker process: compiles and imports the composition once, then runs one operation
// at a time, each on a freshly mounted model (frame and inspect draw on a session kept warm between
// requests: warm-sessions.ts), reporting its progress and stopping it when the server cancels it.
// The server kills it on a time-out, a source change or a cancel it does not honour.
import { projectContext } from '../engine/project-context.ts';
import { VariableBindingError, VariableText } from '../../shared/spec/variables.ts';
import { failureOf } from '../engine/failures.ts';
import { CompositionCompileError } from '../composition/compile.ts';
import { LoadedComposition } from '../composition/load.ts';
import { projectForFile } from '../project/load.ts';
import { SpecValidationError } from '../../shared/spec/validate.ts';
import { WorkspaceError } from './workspace-error.ts';
import type { WorkspaceErrorBody } from './workspace-error.ts';
import type { FromCompositionProcess, ToCompositionProcess } from './composition-process-messages.ts';
import type { OperationProgress, WorkspaceJob } from '../../shared/protocol/workspace.ts';
import { throttleProgress } from './progress.ts';
import { removeResultFiles } from './result-files.ts';
import type { OperationContext } from './operations/context.ts';
import { frameOperation } from './operations/frame.ts';
import { inspectOperation } from './operations/inspect.ts';
import { renderOperation } from './operations/render.ts';
import { reviewOperation } from './operations/review.ts';
import type { WarmDrawing } from './operations/warm-drawing.ts';
import { WarmSessions } from './warm-sessions.ts';
import { FrameOutOfRangeError } from '../engine/drawing-session.ts';

let loaded: LoadedComposition | undefined;
let stagingDir = '';
/** Frame and inspect requests draw on sessions kept between them (a refused frame changes nothing). */
const sessions = new WarmSessions<WarmDrawing>({
  keepAfter: (error) => error instanceof FrameOutOfRangeError,
});

function send(message: FromCompositionProcess): void {
  process.send?.(message);
}

/** Every failure as the status and code the workspace answers with, never a stack trace. */
function errorBody(error: unknown): WorkspaceErrorBody {
  if (error instanceof WorkspaceError) return error.toBody();
  const failure = failureOf(error);
  const message = error instanceof Error ? error.message : String(error);
  if (!failure) return { status: 500, code: 'operation_failed', message };
  const { code, status } = failure;
  if (error instanceof CompositionCompileError) return { status, code, message, problems: error.problems };
  if (error instanceof SpecValidationError) {
    const lines = error.issues.map((issue) => `${issue.pointer || '/'}: ${issue.message}`);
    // The pointers too, so the studio can mark each issue at its line in a JSON spec.
    return { status, code, message: `invalid video: ${lines.join('; ')}`, details: { issues: error.issues } };
  }
  if (error instanceof VariableBindingError) {
    return { status, code, message, details: { issues: error.issues } };
  }
  return { status, code, message };
}

async function run(
  job: WorkspaceJob,
  sourceRevision: string,
  resultsDir: string,
  signal: AbortSignal,
  progress: (progress: OperationProgress) => void,
): Promise<Record<string, unknown>> {
  if (!loaded) throw new WorkspaceError(500, 'worker_not_ready', 'the worker has no composition loaded');
  const composition = loaded;
  const project = await projectForFile(composition.source);
  // Text values are read as their variables' declared types, as on the command line.
  const values = Object.fromEntries(
    Object.entries(job.variables ?? {}).map(([name, value]) => [
      name,
      typeof value === 'string' ? new VariableText(value) : value,
    ]),
  );
  const ctx: OperationContext = {
    job,
    source: composition.source,
    modules: composition.modules,
    sourceRevision,
    model: await composition.mount(values),
    remount: async () =>
      (await LoadedComposition.load(composition.source, { outDir: stagingDir })).mount(values),
    project,
    renderProject: await projectContext(project),
    resultsDir,
    signal,
    progress,
    sessions,
  };
  switch (job.operation) {
    case 'frame':
      return { ...(await frameOperation(ctx)) };
    case 'inspect':
      return { ...(await inspectOperation(ctx)) };
    case 'review':
      return { ...(await reviewOperation(ctx)) };
    case 'render':
      return { ...(await renderOperation(ctx)) };
  }
}

/** Controllers of the jobs running, by id: a cancel aborts the operation's `ctx.signal`. */
const running = new Map<number, AbortController>();

function runJob(message: Extract<ToCompositionProcess, { type: 'run' }>): void {
  const { id, job, resultsDir } = message;
  const controller = new AbortController();
  running.set(id, controller);
  const started = performance.now();
  const progress = throttleProgress((report) => send({ type: 'progress', id, progress: report }));
  // Whatever the operation did once its job was canceled is not kept: it answers `canceled`, and a
  // result that was finished anyway takes its files with it.
  const canceled = () => send({ type: 'failed', id, error: WorkspaceError.canceled(job.operation).toBody() });
  run(job, message.sourceRevision, resultsDir, controller.signal, progress)
    .then(
      async (result) => {
        if (!controller.signal.aborted) {
          send({ type: 'result', id, result, captureMilliseconds: performance.now() - started });
          return;
        }
        await removeResultFiles(result, resultsDir);
        canceled();
      },
      (error: unknown) => {
        if (controller.signal.aborted) canceled();
        else send({ type: 'failed', id, error: errorBody(error) });
      },
    )
    .finally(() => running.delete(id));
}

process.on('message', (message: ToCompositionProcess) => {
  switch (message.type) {
    case 'load':
      stagingDir = message.stagingDir;
      LoadedComposition.load(message.source, { outDir: message.stagingDir }).then(
        (composition) => {
          loaded = composition;
          send({ type: 'ready' });
        },
        (error: unknown) => send({ type: 'load-failed', error: errorBody(error) }),
      );
      return;
    case 'cancel':
      running.get(message.id)?.abort();
      return;
    case 'run':
      runJob(message);
  }
});

// The server going away (IPC closed) ends the worker: it must never outlive its workspace.
process.on('disconnect', () => process.exit(0));
