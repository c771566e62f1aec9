// The server's side of the composition process (the wire calls it the worker): starts it on the first request, reuses it while the
// source stays the same, kills it on a time-out, a change or a shutdown, and reports a crash to the
// request it broke (and in /status) rather than hiding it.
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { SERVER_SECRET_ENV, forkChild, killChildGroup } from '../processes/child-process.ts';
import { WorkspaceError } from './workspace-error.ts';
import type { FromCompositionProcess, ToCompositionProcess } from './composition-process-messages.ts';
import type { OperationProgress, WorkspaceJob } from '../../shared/protocol/workspace.ts';
import type { WorkerExit, WorkerState } from '../../shared/protocol/workspace.ts';

/** composition-process.ts, with Node's compile cache turned on first. */
const PROCESS_ENTRY = fileURLToPath(new URL('./composition-process-entry.mjs', import.meta.url));

/** How long a canceled operation may take to stop before its worker is killed instead. */
export const CANCEL_GRACE_MS = 2000;

export interface CompositionProcessHostOptions {
  source: string;
  stagingDir: string;
  startupTimeoutMs: number;
}

export interface OperationRun {
  result: Record<string, unknown>;
  captureMilliseconds: number;
  workerPid: number;
}

export interface RunHooks {
  /** Aborted when the job's client goes away. */
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: OperationProgress) => void) | undefined;
}

interface Pending {
  id: number;
  resolve: (run: OperationRun) => void;
  reject: (error: WorkspaceError) => void;
  operation: string;
}

export class CompositionProcessHost {
  readonly #options: CompositionProcessHostOptions;
  #child: ChildProcess | undefined;
  #state: WorkerState = 'none';
  #revision: string | undefined;
  #pending: Pending | undefined;
  #nextId = 1;
  #stderr = '';
  #lastCrash: WorkerExit | undefined;
  #unreportedCrash: WorkerExit | undefined;
  #retireWhenIdle = false;

  constructor(options: CompositionProcessHostOptions) {
    this.#options = options;
  }

  get state(): WorkerState {
    return this.#state;
  }

  get pid(): number | undefined {
    return this.#state === 'none' || this.#state === 'retired' ? undefined : this.#child?.pid;
  }

  /** The source revision the running worker compiled. */
  get revision(): string | undefined {
    return this.#revision;
  }

  get lastCrash(): WorkerExit | undefined {
    return this.#lastCrash;
  }

  /** The last crash, once: the first result after it says the worker was restarted. */
  takeUnreportedCrash(): WorkerExit | undefined {
    const crash = this.#unreportedCrash;
    this.#unreportedCrash = undefined;
    return crash;
  }

  /**
   * A worker compiled from `revision`, started if there is none (or it belongs to an older
   * revision). Resolves to the startup time when this call started it, else 0.
   */
  async ensureReady(revision: string): Promise<{ startupMilliseconds: number }> {
    if (this.#state === 'ready' && this.#revision === revision) return { startupMilliseconds: 0 };
    if (this.#child) this.retire();
    const started = performance.now();
    const child = forkChild(PROCESS_ENTRY, {
      withholdEnv: SERVER_SECRET_ENV,
      lowPriority: false,
    });
    this.#child = child;
    this.#state = 'starting';
    this.#revision = revision;
    this.#stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stderr = (this.#stderr + chunk).slice(-4000);
    });
    child.on('exit', (code, signal) => this.#exited(child, code, signal));
    // A send on a channel that just closed (the worker died) emits 'error'; the exit handler reports it.
    child.on('error', () => undefined);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        this.retire();
        reject(
          new WorkspaceError(
            504,
            'startup_timeout',
            `the worker was not ready within the startup time-out of ${this.#options.startupTimeoutMs / 1000} s (compiling and loading ${this.#options.source}); make the composition's top level faster or raise --startup-timeout`,
          ),
        );
      }, this.#options.startupTimeoutMs);
      const onMessage = (message: FromCompositionProcess) => {
        if (message.type === 'ready') {
          cleanup();
          this.#state = 'ready';
          resolve();
        } else if (message.type === 'load-failed') {
          cleanup();
          this.retire();
          reject(WorkspaceError.fromBody(message.error));
        }
      };
      const onExit = (code: number | null, signal: string | null) => {
        cleanup();
        reject(
          new WorkspaceError(
            500,
            'worker_crashed',
            `the worker (pid ${child.pid}) exited while loading the composition (${signal ?? `code ${code}`})${this.#stderrTail()}`,
          ),
        );
      };
      const cleanup = () => {
        clearTimeout(timer);
        child.off('message', onMessage);
        child.off('exit', onExit);
      };
      child.on('message', onMessage);
      child.on('exit', onExit);
      const load: ToCompositionProcess = {
        type: 'load',
        source: this.#options.source,
        stagingDir: this.#options.stagingDir,
      };
      child.send(load);
    });
    return { startupMilliseconds: performance.now() - started };
  }

  /** Whether a job for `revision` would run at once, without starting a worker first. */
  readyFor(revision: string): boolean {
    return this.#state === 'ready' && this.#revision === revision;
  }

  /**
   * Runs one job on the ready worker; past `timeoutMs` the worker is killed and the job fails.
   * `signal` cancels it: the worker aborts the operation and stays, unless it has not stopped
   * within CANCEL_GRACE_MS (a draw that never yields), when it is killed.
   */
  run(
    job: WorkspaceJob,
    sourceRevision: string,
    resultsDir: string,
    timeoutMs: number,
    hooks: RunHooks = {},
  ): Promise<OperationRun> {
    const child = this.#child;
    if (!child || this.#state !== 'ready') {
      return Promise.reject(new WorkspaceError(500, 'worker_not_ready', 'the worker is not ready'));
    }
    const { signal, onProgress } = hooks;
    if (signal?.aborted) return Promise.reject(WorkspaceError.canceled(job.operation, 'it never started'));
    const id = this.#nextId++;
    this.#state = 'busy';
    return new Promise<OperationRun>((resolve, reject) => {
      let cancelTimer: NodeJS.Timeout | undefined;
      const detach = () => {
        clearTimeout(timer);
        clearTimeout(cancelTimer);
        child.off('message', onMessage);
        signal?.removeEventListener('abort', onAbort);
      };
      // The worker is killed mid-job: the job fails with `error` and the next request starts a new one.
      const abandon = (error: WorkspaceError) => {
        detach();
        this.#pending = undefined;
        this.retire();
        reject(error);
      };
      const timer = setTimeout(
        () =>
          abandon(
            new WorkspaceError(
              504,
              'request_timeout',
              `the ${job.operation} ran past the request time-out of ${timeoutMs / 1000} s, so the worker (pid ${child.pid}) was stopped; ask for less (fewer frames) or start the workspace with a larger --request-timeout`,
            ),
          ),
        timeoutMs,
      );
      const onAbort = () => {
        const cancel: ToCompositionProcess = { type: 'cancel', id };
        // A channel that just closed is the exit handler's to report.
        if (child.connected) child.send(cancel, () => undefined);
        cancelTimer = setTimeout(
          () =>
            abandon(
              WorkspaceError.canceled(
                job.operation,
                `the worker (pid ${child.pid}) was stopped: it did not stop the ${job.operation} within ${CANCEL_GRACE_MS / 1000} s`,
              ),
            ),
          CANCEL_GRACE_MS,
        );
      };
      const settle = () => {
        detach();
        this.#pending = undefined;
        if (this.#state === 'busy') this.#state = 'ready';
        if (this.#retireWhenIdle) this.retire();
      };
      const onMessage = (message: FromCompositionProcess) => {
        if (message.type === 'progress' && message.id === id) {
          onProgress?.(message.progress);
        } else if (message.type === 'result' && message.id === id) {
          settle();
          resolve({
            result: message.result,
            captureMilliseconds: message.captureMilliseconds,
            workerPid: child.pid!,
          });
        } else if (message.type === 'failed' && message.id === id) {
          settle();
          reject(WorkspaceError.fromBody(message.error));
        }
      };
      this.#pending = {
        id,
        operation: job.operation,
        resolve,
        reject: (error) => {
          detach();
          reject(error);
        },
      };
      child.on('message', onMessage);
      signal?.addEventListener('abort', onAbort, { once: true });
      const run: ToCompositionProcess = { type: 'run', id, job, sourceRevision, resultsDir };
      child.send(run);
    });
  }

  /** The source changed: stop the worker now if idle, else as soon as its request ends. */
  retireSoon(): void {
    if (this.#state === 'busy' || this.#state === 'starting') this.#retireWhenIdle = true;
    else if (this.#state === 'ready') this.retire();
  }

  /** The workspace is stopping: the running request fails now (503) and the worker is stopped. */
  stop(): void {
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.reject(
      new WorkspaceError(503, 'workspace_stopping', `the workspace stopped during the ${pending.operation}`),
    );
    this.retire();
  }

  /** Stops the worker (and anything it started, ffmpeg included). */
  retire(): void {
    const child = this.#child;
    this.#retireWhenIdle = false;
    if (!child) return;
    this.#child = undefined;
    this.#revision = undefined;
    this.#state = 'retired';
    child.removeAllListeners('message');
    if (child.connected) child.disconnect();
    killChildGroup(child);
  }

  #exited(child: ChildProcess, code: number | null, signal: string | null): void {
    if (this.#child !== child) return; // retired on purpose
    const pending = this.#pending;
    const loading = this.#state === 'starting';
    this.#retireWhenIdle = false;
    this.#child = undefined;
    this.#revision = undefined;
    this.#state = 'none';
    this.#pending = undefined;
    this.#lastCrash = {
      pid: child.pid ?? 0,
      code,
      signal,
      during: pending?.operation ?? (loading ? 'load' : 'idle'),
      stderr: this.#stderr.trim().split('\n').slice(-5).join('\n'),
    };
    // A crash while loading fails the request that started it, with its own message: once is enough.
    if (!loading) this.#unreportedCrash = this.#lastCrash;
    pending?.reject(
      new WorkspaceError(
        500,
        'worker_crashed',
        `the worker (pid ${child.pid}) exited during the ${pending.operation} (${signal ?? `code ${code}`})${this.#stderrTail()}; the next request starts a new worker`,
      ),
    );
  }

  #stderrTail(): string {
    const tail = this.#stderr.trim().split('\n').slice(-3).join(' | ');
    return tail ? `: ${tail}` : '';
  }
}
