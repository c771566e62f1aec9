// The in-process queue runner: claims queued jobs from the store, up to RENDER_CONCURRENCY at a
// time, and runs each in its own worker process, so the HTTP event loop stays free while
// frames are drawn and encoded.
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
import type {
  AuthoringChoice,
  JobError,
  JobOutcome,
  JobStore,
  RenderJob,
  StoredOutput,
} from './job-store.ts';
import type { FromWorker, RenderAssignment, WorkerOutput } from './worker-messages.ts';
import { defaultRasterThreads } from '../engine/raster-threads.ts';
import { SERVER_SECRET_ENV, forkWorker, killWorkerGroup } from '../workers/worker-process.ts';

const WORKER_ENTRY = fileURLToPath(new URL('./render-worker.ts', import.meta.url));
/** How long a canceled worker gets to stop ffmpeg and clean up before it is killed. */
const CANCEL_KILL_MS = 5000;
export interface JobRunnerOptions {
  store: JobStore;
  storage: RenderStorage;
  concurrency: number;
  maxAttempts: number;
  renderProject: string;
  /** Scratch space for workers; each job gets a folder that is removed when it ends. */
  workRoot: string;
  /** A render running longer than this is stopped and failed; 0 = no limit. */
  timeoutMs: number;
  log: Logger;
  now?: () => number;
  /** The provider (key included) and limits a prompt or an edit is authored with; unset: no AI. */
  authoring?: (choice: AuthoringChoice) => RenderAssignment['ai'];
}

interface ActiveRender {
  job: RenderJob;
  child: ChildProcess;
  /** Why the parent is ending it, if it is: a cancel request, a shutdown that requeues it, the time limit. */
  ending?: 'cancel' | 'requeue' | 'timeout';
  done: Promise<void>;
}

export class JobRunner {
  readonly #options: JobRunnerOptions;
  readonly #active = new Map<string, ActiveRender>();
  readonly #now: () => number;
  #accepting = false;

  constructor(options: JobRunnerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  get accepting(): boolean {
    return this.#accepting;
  }

  get runningCount(): number {
    return this.#active.size;
  }

  /** Settles jobs a dead process left running, clears stale scratch space, then starts taking work. */
  async start(): Promise<void> {
    const { store, log, maxAttempts, workRoot } = this.#options;
    const recovered = store.recoverInterrupted(maxAttempts, this.#now());
    for (const id of recovered.requeued)
      log.warn({ jobId: id }, 'render was interrupted by a stop; queued again');
    for (const id of recovered.failed) log.error({ jobId: id }, 'render was interrupted too often; failed');
    await rm(workRoot, { recursive: true, force: true });
    await mkdir(workRoot, { recursive: true });
    this.#accepting = true;
    this.wake();
  }

  /** Fills free slots with queued jobs. Cheap to call after every enqueue. */
  wake(): void {
    while (this.#accepting && this.#active.size < this.#options.concurrency) {
      const job = this.#options.store.claimNext(this.#now());
      if (!job) return;
      this.#launch(job);
    }
  }

  /** Stops a running render (the store already says canceled); true if one was running. */
  cancel(id: string): boolean {
    const active = this.#active.get(id);
    if (!active) return false;
    this.#end(active, 'cancel');
    return true;
  }

  /**
   * Takes no new work, lets running renders finish for up to `graceMs`, then stops the rest and
   * puts them back in the queue for the next start.
   */
  async stop(graceMs: number): Promise<void> {
    this.#accepting = false;
    const all = () => Promise.all([...this.#active.values()].map((active) => active.done));
    const timedOut = await Promise.race([
      all().then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
    ]);
    if (timedOut) {
      for (const active of this.#active.values()) this.#end(active, 'requeue');
      await all();
    }
  }

  #end(active: ActiveRender, why: NonNullable<ActiveRender['ending']>): void {
    if (active.ending) return;
    active.ending = why;
    if (active.child.connected) active.child.send({ type: 'cancel' });
    const kill = setTimeout(() => killWorkerGroup(active.child), CANCEL_KILL_MS);
    kill.unref();
    void active.done.finally(() => clearTimeout(kill));
  }

  #launch(job: RenderJob): void {
    const { log, workRoot } = this.#options;
    const jobLog = log.child({ jobId: job.id });
    const workDir = path.join(workRoot, job.id);
    // Its own process group: a Ctrl+C at the terminal reaches the server, which decides whether
    // a render finishes or is queued again, rather than killing the worker and ffmpeg under it.
    // Renders running side by side share the cores: each draws on its share unless RENDER_THREADS says.
    const threads = Math.max(1, Math.floor(defaultRasterThreads() / this.#options.concurrency));
    const child = forkWorker(WORKER_ENTRY, {
      withholdEnv: SERVER_SECRET_ENV,
      envDefaults: { RENDER_THREADS: String(threads) },
    });
    let stderrTail = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderrTail = (stderrTail + chunk).slice(-2000);
    });
    const active: ActiveRender = { job, child, done: Promise.resolve() };
    const { timeoutMs, store } = this.#options;
    const watchdog = timeoutMs > 0 ? setTimeout(() => this.#end(active, 'timeout'), timeoutMs) : undefined;
    watchdog?.unref();
    active.done = this.#supervise(active, workDir, jobLog, () => stderrTail)
      .catch((error: unknown) => {
        // The runner itself failed (its scratch folder, the store): the job must still end.
        jobLog.error({ err: error }, 'render could not be supervised');
        killWorkerGroup(child);
        const code = (error as NodeJS.ErrnoException).code;
        store.fail(
          job.id,
          {
            code: 'render_failed',
            message: `the server could not run the render (${code ?? 'internal error'})`,
          },
          this.#now(),
        );
      })
      .finally(() => {
        clearTimeout(watchdog);
        this.#active.delete(job.id);
        rm(workDir, { recursive: true, force: true }).catch(() => undefined);
        this.wake();
      });
    this.#active.set(job.id, active);
    jobLog.info({ attempt: job.attempts, input: job.input.kind, options: job.options }, 'render started');
  }

  async #supervise(active: ActiveRender, workDir: string, log: Logger, stderr: () => string): Promise<void> {
    const { store } = this.#options;
    const { job, child } = active;
    let resolved: { spec: Record<string, unknown> | null; code: string | null } | undefined;
    let finished: { outputs: WorkerOutput[] } | { error: JobError } | undefined;
    // 'close' comes after the last IPC message, so a result sent just before exiting is never missed.
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
      child.once('close', (code, signal) => resolve({ code, signal }));
      child.on('error', (error) => {
        log.error({ err: error }, 'render worker error');
        if (child.pid === undefined) resolve({ code: null, signal: null });
      });
    });
    child.on('message', (message: FromWorker) => {
      if (message.type === 'progress') store.setProgress(job.id, message.progress);
      else if (message.type === 'resolved') {
        resolved = { spec: message.spec, code: message.code };
        // Shown while the render runs, not only once it is stored.
        store.setResolved(job.id, message.spec, message.code);
      } else if (message.type === 'authoring') store.setAuthoring(job.id, message.authoring, message.changes);
      else if (message.type === 'review') store.setReview(job.id, message.review);
      else if (message.type === 'done') finished = { outputs: message.outputs };
      else if (message.type === 'failed') finished = { error: message.error };
    });

    await mkdir(workDir, { recursive: true });
    const assignment: RenderAssignment = {
      type: 'render',
      jobId: job.id,
      input: job.input,
      options: job.options,
      renderProject: this.#options.renderProject,
      workDir,
      toolchain: await toolchainVersions().catch(() => undefined),
    };
    if (job.input.kind === 'prompt' || job.input.kind === 'edit') {
      assignment.ai = this.#options.authoring?.({ provider: job.input.provider, model: job.input.model });
    }
    child.send(assignment);
    const exit = await exited;

    // A render that finished is kept, even when a shutdown's grace ran out as it was exiting.
    const outputs = finished && 'outputs' in finished ? finished.outputs : undefined;
    if (
      outputs &&
      active.ending !== 'cancel' &&
      active.ending !== 'timeout' &&
      store.get(job.id)?.status === 'running'
    ) {
      await this.#store(job, outputs, resolved, log);
      return;
    }
    if (active.ending === 'timeout') {
      const minutes = Math.round((this.#options.timeoutMs / 60_000) * 10) / 10;
      store.fail(
        job.id,
        {
          code: 'timeout',
          message: `the render ran longer than ${minutes} min (RENDER_TIMEOUT) and was stopped`,
        },
        this.#now(),
        resolved,
      );
      log.warn('render stopped: it ran past RENDER_TIMEOUT');
      return;
    }
    if (active.ending === 'requeue') {
      store.requeue(job.id);
      log.warn('render stopped by shutdown; queued again');
      return;
    }
    if (active.ending === 'cancel' || store.get(job.id)?.status !== 'running') {
      log.info('render canceled');
      return;
    }
    const reported = finished && 'error' in finished ? finished.error : undefined;
    const error: JobError = reported ?? {
      code: 'worker_crashed',
      message: `the render process exited unexpectedly (${exit.signal ? `signal ${exit.signal}` : `exit code ${exit.code}`})`,
    };
    if (!reported) log.error({ exit, stderr: stderr() }, 'render worker crashed');
    store.fail(job.id, error, this.#now(), resolved);
    log.warn({ error }, 'render failed');
  }

  async #store(
    job: RenderJob,
    outputs: WorkerOutput[],
    resolved: { spec: Record<string, unknown> | null; code: string | null } | undefined,
    log: Logger,
  ): Promise<void> {
    const { store, storage } = this.#options;
    store.markStoring(job.id);
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
      const video = first.video;
      if (store.succeed(job.id, outcome, this.#now())) {
        log.info({ bytes: video.bytes }, 'render succeeded');
      } else {
        // Canceled while storing: the files must not outlive the job.
        await storage.removeRender(job.id);
      }
    } catch (error) {
      log.error({ err: error }, 'storing the render failed');
      // The files stored before the failure must not look like a finished render.
      await storage.removeRender(job.id).catch((cleanup: unknown) => {
        log.error({ err: cleanup }, 'removing the partly stored render failed');
      });
      store.fail(
        job.id,
        { code: 'storage_failed', message: 'the finished render could not be stored' },
        this.#now(),
        resolved,
      );
    }
  }
}
