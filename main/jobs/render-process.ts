// One render in its own child process (render-job-process.ts), supervised: the assignment goes out
// over IPC, progress and the resolved spec come back into the store, and the end is settled in the
// store (stored and succeeded, failed with a reason, canceled, or handed back). Both runners start
// renders this way.
import type { ChildProcess } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { FORMATS } from '../../shared/output/formats.ts';
import { toolchainVersions } from '../engine/toolchain.ts';
import { downloadName } from '../storage/storage.ts';
import type { RenderStorage } from '../storage/storage.ts';
import { fileKind } from '../storage/signed-link.ts';
import type { BaseFileKind } from '../storage/signed-link.ts';
import { fenceOf } from './job-store.ts';
import type {
  AuthoringChoice,
  JobError,
  JobOutcome,
  JobProgress,
  JobStore,
  RenderJob,
  StoredOutput,
} from './job-store.ts';
import type {
  FromRenderJob,
  RenderAssignment,
  RenderMode,
  SplitPlan,
  RenderJobOutput,
} from './render-job-messages.ts';
import { SERVER_SECRET_ENV, forkChild, killChildGroup } from '../processes/child-process.ts';

const RENDER_JOB_ENTRY = fileURLToPath(new URL('./render-job-entry.mjs', import.meta.url));
/** How long a canceled render job process gets to stop ffmpeg and clean up before it is killed. */
const CANCEL_KILL_MS = 5000;

export interface RenderProcessOptions {
  store: JobStore;
  storage: RenderStorage;
  renderProject: string;
  /** A render running longer than this is stopped and failed; 0 = no limit. */
  timeoutMs: number;
  /** RENDER_MAX_ATTEMPTS: a render whose files could not be stored is tried again until its last. */
  maxAttempts: number;
  /**
   * RENDER_CORES for the render process: its share of the machine, which caps the threads it chooses
   * by cost (RENDER_THREADS, when the environment sets it, still forces a count).
   */
  cores: number;
  log: Logger;
  now: () => number;
  /** The provider (key included) and limits a prompt or an edit is authored with; unset: no AI. */
  authoring?: ((choice: AuthoringChoice) => RenderAssignment['ai']) | undefined;
}

/**
 * Why the supervisor is ending a render: a cancel request, a stop that hands it back, the time
 * limit, or a queue lock this worker lost (another worker may be running it: nothing is written).
 */
export type EndReason = 'cancel' | 'requeue' | 'timeout' | 'abandon';

/**
 * How a render process ended. `split`: it planned chunks instead of rendering (the caller queues
 * them); `chunk`: a chunk's file is in the work folder; `requeued`: handed back by a stop;
 * `retrying`: its files could not be stored, and it is queued again (the attempt counted) for
 * another try, here or on another worker.
 */
export type RenderEnd =
  | { kind: 'succeeded' }
  | { kind: 'failed'; error: JobError }
  | { kind: 'canceled' }
  | { kind: 'requeued' }
  | { kind: 'retrying'; error: JobError }
  | { kind: 'abandoned' }
  | { kind: 'split'; plan: SplitPlan }
  | { kind: 'chunk'; path: string; frames: number; posterPath: string | null };

/**
 * The stitch step's progress: every frame is drawn by then, so it reads as encoding, never below
 * where the chunks left the bar.
 */
function stitchProgress(progress: JobProgress): JobProgress {
  return {
    ...progress,
    stage: progress.stage === 'rendering' ? 'encoding' : progress.stage,
    framesDone: progress.framesTotal,
    percent: Math.max(progress.percent, 89),
  };
}

export class RenderProcess {
  readonly job: RenderJob;
  readonly done: Promise<RenderEnd>;
  readonly #child: ChildProcess;
  #ending: EndReason | undefined;

  /**
   * Starts the render of `job` (already claimed, so running in the store) in `workDir`, which is
   * made now and removed when the render ends. `mode` says what to do (the whole render by default).
   */
  constructor(
    job: RenderJob,
    workDir: string,
    options: RenderProcessOptions,
    mode: RenderMode = { kind: 'whole' },
  ) {
    this.job = job;
    // Its own process group: a Ctrl+C at the terminal reaches the server, which decides whether
    // a render finishes or is queued again, rather than killing the render job process and ffmpeg under it.
    this.#child = forkChild(RENDER_JOB_ENTRY, {
      withholdEnv: SERVER_SECRET_ENV,
      envDefaults: { RENDER_CORES: String(options.cores) },
    });
    const log = options.log.child({ jobId: job.id, ...(mode.kind === 'chunk' ? { chunk: mode.index } : {}) });
    let stderrTail = '';
    this.#child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-2000);
    });
    const watchdog =
      options.timeoutMs > 0 ? setTimeout(() => this.end('timeout'), options.timeoutMs) : undefined;
    watchdog?.unref();
    this.done = this.#supervise(workDir, options, mode, log, () => stderrTail)
      .catch(async (error: unknown): Promise<RenderEnd> => {
        // The supervisor itself failed (its scratch folder, the store): the job must still end.
        log.error({ err: error }, 'render could not be supervised');
        killChildGroup(this.#child);
        const code = (error as NodeJS.ErrnoException).code;
        const failure: JobError = {
          code: 'render_failed',
          message: `the server could not run the render (${code ?? 'internal error'})`,
        };
        await options.store
          .fail(job.id, failure, options.now(), undefined, fenceOf(job))
          .catch(() => undefined);
        return { kind: 'failed', error: failure };
      })
      .finally(() => {
        clearTimeout(watchdog);
        // A chunk's file is the caller's to move first; it removes the folder.
        if (mode.kind !== 'chunk') rm(workDir, { recursive: true, force: true }).catch(() => undefined);
      });
    log.info({ attempt: job.attempts, input: job.input.kind, mode: mode.kind }, 'render started');
  }

  /** Stops the render (ffmpeg included): it ends as `why` says once the process is gone. */
  end(why: EndReason): void {
    if (this.#ending) return;
    this.#ending = why;
    if (this.#child.connected) this.#child.send({ type: 'cancel' });
    const kill = setTimeout(() => killChildGroup(this.#child), CANCEL_KILL_MS);
    kill.unref();
    void this.done.finally(() => clearTimeout(kill));
  }

  async #supervise(
    workDir: string,
    options: RenderProcessOptions,
    mode: RenderMode,
    log: Logger,
    stderr: () => string,
  ): Promise<RenderEnd> {
    const { store } = options;
    const { job } = this;
    // Every write is fenced to this attempt: once another worker took the job over (this one froze
    // past its lock), each is refused, and the render stops.
    const fence = fenceOf(job);
    const child = this.#child;
    let resolved: { spec: Record<string, unknown> | null; code: string | null } | undefined;
    let finished:
      | { outputs: RenderJobOutput[] }
      | { error: JobError }
      | { plan: SplitPlan }
      | { chunk: { path: string; frames: number; posterPath: string | null } }
      | undefined;
    // Store writes from messages run in order, and all land before the end is settled.
    let writes: Promise<unknown> = Promise.resolve();
    const write = (step: () => Promise<boolean>) => {
      writes = writes
        .then(async () => {
          // Canceled (or failed) elsewhere, or taken over by another attempt, and the cancel
          // message missed this process: stop now.
          if (!(await step()) && !this.#ending) this.end('cancel');
        })
        .catch((error: unknown) => log.error({ err: error }, 'store update failed'));
    };
    // 'close' comes after the last IPC message, so a result sent just before exiting is never missed.
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('close', (code, signal) => resolve({ code, signal }));
      child.on('error', (error) => {
        log.error({ err: error }, 'render worker error');
        if (child.pid === undefined) resolve({ code: null, signal: null });
      });
    });
    let lastProgress: JobProgress | undefined;
    child.on('message', (message: FromRenderJob) => {
      if (message.type === 'progress') {
        // Only the newest report is written; one behind in the queue is dropped.
        const pending = lastProgress === undefined;
        lastProgress = message.progress;
        if (!pending) return;
        write(async () => {
          const progress = lastProgress!;
          lastProgress = undefined;
          return mode.kind === 'chunk'
            ? store.setChunkProgress(
                job.id,
                {
                  index: mode.index,
                  count: mode.count,
                  framesDone: progress.framesDone,
                  framesTotal: mode.end - mode.start,
                  etaSeconds: progress.etaSeconds,
                },
                fence,
              )
            : store.setProgress(job.id, mode.kind === 'stitch' ? stitchProgress(progress) : progress, fence);
        });
      } else if (message.type === 'resolved') {
        resolved = { spec: message.spec, code: message.code };
        // Shown while the render runs, not only once it is stored.
        if (mode.kind !== 'chunk') write(() => store.setResolved(job.id, message.spec, message.code, fence));
      } else if (message.type === 'authoring')
        write(() => store.setAuthoring(job.id, message.authoring, message.changes, fence));
      else if (message.type === 'warning') log.warn(message.message);
      else if (message.type === 'review') write(() => store.setReview(job.id, message.review, fence));
      else if (message.type === 'done') finished = { outputs: message.outputs };
      else if (message.type === 'split') finished = { plan: message.plan };
      else if (message.type === 'chunk-done')
        finished = {
          chunk: { path: message.path, frames: message.frames, posterPath: message.posterPath },
        };
      else if (message.type === 'failed') finished = { error: message.error };
    });

    await mkdir(workDir, { recursive: true });
    const assignment: RenderAssignment = {
      type: 'render',
      jobId: job.id,
      input: job.input,
      options: job.options,
      renderProject: options.renderProject,
      workDir,
      mode,
      toolchain: await toolchainVersions().catch(() => undefined),
    };
    // Chunks and the stitch step render the spec the job already authored: never author twice.
    if ((job.input.kind === 'prompt' || job.input.kind === 'edit') && job.spec && mode.kind !== 'whole') {
      assignment.authored = job.spec;
    } else if (job.input.kind === 'prompt' || job.input.kind === 'edit') {
      assignment.ai = options.authoring?.({ provider: job.input.provider, model: job.input.model });
    }
    child.send(assignment);
    const exit = await exited;
    await writes;

    if (this.#ending === 'abandon') {
      log.warn('render abandoned: this worker lost its hold on it, and another takes it over');
      return { kind: 'abandoned' };
    }
    const held = await this.#held(store);
    if (held === 'taken') return this.#takenOver(log);
    // A render that finished is kept, even when a shutdown's grace ran out as it was exiting.
    if (finished && !('error' in finished) && this.#ending !== 'cancel' && this.#ending !== 'timeout') {
      if (held === 'ours') {
        if ('plan' in finished) return { kind: 'split', plan: finished.plan };
        if ('chunk' in finished) return { kind: 'chunk', ...finished.chunk };
        return this.#store(finished.outputs, resolved, options, log);
      }
    }
    if (this.#ending === 'timeout') {
      const minutes = Math.round((options.timeoutMs / 60_000) * 10) / 10;
      const error: JobError = {
        code: 'timeout',
        message: `the render ran longer than ${minutes} min (RENDER_TIMEOUT) and was stopped`,
      };
      // A chunk's time limit is its own: the queue retries it alone.
      if (mode.kind !== 'chunk') await store.fail(job.id, error, options.now(), resolved, fence);
      log.warn('render stopped: it ran past RENDER_TIMEOUT');
      return { kind: 'failed', error };
    }
    if (this.#ending === 'requeue') {
      // Only a render not yet split is queued again; a chunk or a stitch goes back to its queue
      // alone, and the render they belong to goes on running.
      if (mode.kind === 'whole' || mode.kind === 'plan') await store.requeue(job.id, 'uncounted', fence);
      log.warn('render stopped by shutdown; queued again');
      return { kind: 'requeued' };
    }
    if (this.#ending === 'cancel' || held !== 'ours') {
      log.info('render canceled');
      return { kind: 'canceled' };
    }
    const reported = finished && 'error' in finished ? finished.error : undefined;
    const error: JobError = reported ?? {
      code: 'worker_crashed',
      message: `the render process exited unexpectedly (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`,
    };
    if (!reported) log.error({ exit, stderr: stderr() }, 'render worker crashed');
    // A chunk's failure is its queue's to retry; the render fails only when the retries run out.
    if (mode.kind !== 'chunk') await store.fail(job.id, error, options.now(), resolved, fence);
    log.warn({ error }, mode.kind === 'chunk' ? 'render chunk failed' : 'render failed');
    return { kind: 'failed', error };
  }

  async #store(
    outputs: RenderJobOutput[],
    resolved: { spec: Record<string, unknown> | null; code: string | null } | undefined,
    options: RenderProcessOptions,
    log: Logger,
  ): Promise<RenderEnd> {
    const { store, storage } = options;
    const { job } = this;
    const fence = fenceOf(job);
    // Not this attempt's any more (canceled, or taken over): nothing is stored.
    if (!(await store.markStoring(job.id, fence))) {
      return (await this.#held(store)) === 'taken' ? this.#takenOver(log) : { kind: 'canceled' };
    }
    try {
      const requests = job.options.outputs ?? [job.options];
      const stored: StoredOutput[] = [];
      for (const [index, output] of outputs.entries()) {
        const request = requests[index] ?? job.options;
        const put = (base: BaseFileKind, extension: string, contentType: string, from: string) => {
          const ref = { id: job.id, kind: fileKind(base, index), extension };
          return storage.put(ref, from, { contentType, filename: downloadName(ref) });
        };
        const format = FORMATS[request.format];
        const extension = path.extname(output.videoPath);
        const video = await put('video', extension, format.contentType, output.videoPath);
        const receipt = await put('receipt', '.json', 'application/json', output.receiptPath);
        const poster = output.posterPath ? await put('poster', '.png', 'image/png', output.posterPath) : null;
        stored.push({
          request: {
            format: request.format,
            quality: request.quality,
            ...(request.aspect ? { aspect: request.aspect } : {}),
            ...(request.poster ? { poster: request.poster } : {}),
          },
          video: {
            extension,
            bytes: video.bytes,
            contentType: format.contentType,
            width: output.width,
            height: output.height,
            durationSeconds: output.durationSeconds,
            sha256: output.sha256,
          },
          poster: poster && { extension: '.png', bytes: poster.bytes, contentType: 'image/png' },
          receipt: {
            extension: '.json',
            bytes: receipt.bytes,
            contentType: 'application/json',
            receipt: output.receipt,
          },
        });
      }
      // The first output is the job's video, poster and receipt; options.outputs lists them all.
      const first = stored[0]!;
      const outcome: JobOutcome = {
        spec: resolved?.spec ?? null,
        code: resolved?.code ?? null,
        video: first.video,
        poster: first.poster,
        receipt: first.receipt,
        outputs: job.options.outputs ? stored : null,
      };
      if (await store.succeed(job.id, outcome, options.now(), fence)) {
        log.info({ bytes: first.video.bytes }, 'render succeeded');
        return { kind: 'succeeded' };
      }
      // Canceled while storing: the files must not outlive the job. (Any other state means another
      // process finished it: its files are the ones stored, and stay.)
      if ((await store.get(job.id))?.status === 'canceled') await storage.removeRender(job.id);
      return { kind: 'canceled' };
    } catch (error) {
      log.error({ err: error }, 'storing the render failed');
      // Taken over while storing: the files under this id are the newer attempt's now, and stay.
      if ((await this.#held(store)) === 'taken') {
        log.warn('storing failed after another worker took this render over: nothing removed');
        return { kind: 'abandoned' };
      }
      // The files stored before the failure must not look like a finished render.
      await storage.removeRender(job.id).catch((cleanup: unknown) => {
        log.error({ err: cleanup }, 'removing the partly stored render failed');
      });
      const failure: JobError = {
        code: 'storage_failed',
        message: `the finished render could not be stored (attempt ${job.attempts} of ${options.maxAttempts}, RENDER_MAX_ATTEMPTS)`,
      };
      // Storage that failed once (a bucket away for a moment, a full disk) may take the files on
      // another try; only the last attempt's failure is the render's.
      if (job.attempts < options.maxAttempts && (await store.requeue(job.id, 'counted', fence))) {
        log.warn({ attempt: job.attempts }, 'render queued again: its files could not be stored');
        return { kind: 'retrying', error: failure };
      }
      await store.fail(job.id, failure, options.now(), resolved, fence);
      return { kind: 'failed', error: failure };
    }
  }

  /**
   * Where the job stands now: `ours` while it runs under this attempt, `taken` when it runs under
   * a later one (another worker took it over), else its status (or undefined once removed).
   */
  async #held(
    store: JobStore,
  ): Promise<'ours' | 'taken' | Exclude<RenderJob['status'], 'running'> | undefined> {
    const current = await store.get(this.job.id);
    if (current?.status !== 'running') return current?.status;
    return current.attempts === this.job.attempts ? 'ours' : 'taken';
  }

  #takenOver(log: Logger): RenderEnd {
    log.warn(
      { attempt: this.job.attempts },
      'render stopped: another worker took the job over (a later attempt); nothing written',
    );
    return { kind: 'abandoned' };
  }
}
