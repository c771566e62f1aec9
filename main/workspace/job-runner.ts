// Runs workspace jobs one at a time on the worker, with at most MAX_ADMITTED requests admitted
// (running + waiting). Each job is pinned to a source revision: a request for another revision is
// refused before anything runs; a job whose source changes while it runs is stopped there (the
// server's watcher and saves call sourceChanged) and answered stale_result, and a result finished
// as the change landed is discarded.
import { COMPILE_FAILED } from '../engine/failures.ts';
import { Problem } from '../http/problem.ts';
import type { JobAnswer, OperationProgress, WorkspaceJob } from '../../shared/protocol/workspace.ts';
import { WorkspaceError } from './workspace-error.ts';
import { CANCELED_STATUS } from '../../shared/protocol/workspace.ts';
import { removeResultFiles } from './result-files.ts';
import type { SourceRevisionTracker } from './source-revision.ts';
import type { CompositionProcessHost } from './composition-process-host.ts';

export const MAX_ADMITTED = 4;
export const BACKEND = 'skia';

export interface JobTimings {
  startupMilliseconds: number;
  captureMilliseconds: number;
  elapsedMilliseconds: number;
}

export interface JobRunnerOptions {
  tracker: SourceRevisionTracker;
  worker: CompositionProcessHost;
  resultsDir: string;
  requestTimeoutMs: number;
}

function stageOnly(stage: OperationProgress['stage']): OperationProgress {
  return { stage, framesDone: 0, framesTotal: 0, fps: 0, etaSeconds: null };
}

export function toProblem(error: WorkspaceError): Problem {
  const extensions = { ...error.details, ...(error.problems ? { problems: error.problems } : {}) };
  return new Problem(error.status, error.code, error.message, {
    extensions: Object.keys(extensions).length > 0 ? extensions : undefined,
  });
}

type ProgressListener = (progress: OperationProgress) => void;

/** The job running now: the revision it captures, and what stops it when the source moves on. */
interface RunningJob {
  revision: string;
  stale: AbortController;
}

interface WaitingJob {
  job: WorkspaceJob;
  received: number;
  gone: AbortSignal | undefined;
  onProgress: ProgressListener | undefined;
  resolve: (result: JobAnswer) => void;
  reject: (error: unknown) => void;
}

export class WorkspaceJobRunner {
  readonly #options: JobRunnerOptions;
  readonly #waiting: WaitingJob[] = [];
  #running = false;
  #current: RunningJob | undefined;
  #closed = false;

  constructor(options: JobRunnerOptions) {
    this.#options = options;
  }

  /** Requests admitted and not yet answered: the one running plus those waiting. */
  get depth(): { running: number; waiting: number; limit: number } {
    return { running: this.#running ? 1 : 0, waiting: this.#waiting.length, limit: MAX_ADMITTED };
  }

  /**
   * Runs `job` when its turn comes. Refuses at once, by throwing (not by rejecting), when the
   * workspace is stopping or the queue is full, so a caller knows the job was admitted before it
   * commits to an answer. A client that goes away (`gone` aborts) gives its place up while its job
   * waits, and cancels it while it runs. `onProgress` hears the job's progress.
   */
  submit(job: WorkspaceJob, gone?: AbortSignal, onProgress?: ProgressListener): Promise<JobAnswer> {
    if (this.#closed) throw new Problem(503, 'workspace_stopping', 'the workspace is stopping');
    if (this.#waiting.length + (this.#running ? 1 : 0) >= MAX_ADMITTED) {
      throw new Problem(
        429,
        'queue_full',
        `queue full: the workspace already has ${MAX_ADMITTED} requests (1 running, ${MAX_ADMITTED - 1} waiting); retry when one finishes`,
        { headers: { 'retry-after': '1' } },
      );
    }
    const behindAnother = this.#running || this.#waiting.length > 0;
    return new Promise((resolve, reject) => {
      const entry: WaitingJob = { job, received: performance.now(), gone, onProgress, resolve, reject };
      this.#waiting.push(entry);
      gone?.addEventListener(
        'abort',
        () => {
          const at = this.#waiting.indexOf(entry);
          if (at < 0) return; // running: the worker host cancels it
          this.#waiting.splice(at, 1);
          reject(
            new Problem(
              CANCELED_STATUS,
              'canceled',
              `the client went away before the ${job.operation} started`,
            ),
          );
        },
        { once: true },
      );
      if (behindAnother) onProgress?.(stageOnly('queued'));
      this.#next();
    });
  }

  #next(): void {
    if (this.#running) return;
    const entry = this.#waiting.shift();
    if (!entry) return;
    this.#running = true;
    this.#execute(entry)
      .then(entry.resolve, (error: unknown) =>
        entry.reject(error instanceof WorkspaceError ? toProblem(error) : error),
      )
      .finally(() => {
        this.#running = false;
        this.#next();
      });
  }

  /**
   * The source is now at `revision`: a job running on another one is stopped now rather than
   * finished for nothing, and answers 409 stale_result.
   */
  sourceChanged(revision: string): void {
    const current = this.#current;
    if (current && current.revision !== revision) current.stale.abort();
  }

  /** Stops taking work: requests still waiting are answered 503 now. */
  close(): void {
    this.#closed = true;
    for (const entry of this.#waiting.splice(0)) {
      entry.reject(new Problem(503, 'workspace_stopping', 'the workspace is stopping'));
    }
  }

  async #execute(entry: WaitingJob): Promise<JobAnswer> {
    const { job, gone } = entry;
    const { tracker } = this.#options;
    if (this.#closed) throw new WorkspaceError(503, 'workspace_stopping', 'the workspace is stopping');
    const before = await tracker.current();
    if (job.sourceRevision !== undefined && job.sourceRevision !== before.id) {
      throw new WorkspaceError(
        409,
        'revision_mismatch',
        `the request is for source revision ${job.sourceRevision}, but the source is now at ${before.id}; capture again at ${before.id} (or leave out the revision)`,
        { details: { requestedRevision: job.sourceRevision, currentRevision: before.id } },
      );
    }
    if (before.compileProblems) {
      const where = before.compileProblems
        .map((p) => `${p.file}${p.line === undefined ? '' : `:${p.line}:${p.column ?? 1}`}: ${p.message}`)
        .join('; ');
      throw new WorkspaceError(422, COMPILE_FAILED, `the composition does not compile: ${where}`, {
        problems: before.compileProblems,
        details: { sourceRevision: before.id },
      });
    }
    if (gone?.aborted) throw WorkspaceError.canceled(job.operation, 'it never started');
    const stale = new AbortController();
    this.#current = { revision: before.id, stale };
    try {
      return await this.#capture(entry, before.id, stale.signal);
    } catch (error) {
      // Stopped because the source moved on (not because its client left): say so.
      const said = error instanceof WorkspaceError && error.code === 'stale_result';
      if (stale.signal.aborted && !gone?.aborted && !said) {
        throw await this.#staleError(job, before.id, 'stopped');
      }
      throw error;
    } finally {
      this.#current = undefined;
    }
  }

  async #capture(entry: WaitingJob, revision: string, stale: AbortSignal): Promise<JobAnswer> {
    const { job, received, gone, onProgress } = entry;
    const { tracker, worker, resultsDir, requestTimeoutMs } = this.#options;
    if (!worker.readyFor(revision)) onProgress?.(stageOnly('starting'));
    // A worker that is starting finishes starting even when its client goes away: the next job uses it.
    const { startupMilliseconds } = await worker.ensureReady(revision);
    const previousCrash = startupMilliseconds > 0 ? worker.takeUnreportedCrash() : undefined;
    if (gone?.aborted) throw WorkspaceError.canceled(job.operation, 'it never started');
    stale.throwIfAborted();
    const signal = gone ? AbortSignal.any([gone, stale]) : stale;
    const run = await worker.run(job, revision, resultsDir, requestTimeoutMs, { signal, onProgress });
    if (gone?.aborted) {
      // It finished as its client left: nobody will claim these files.
      await removeResultFiles(run.result, resultsDir);
      throw WorkspaceError.canceled(job.operation, 'its result was discarded');
    }
    const after = await tracker.current();
    if (after.id !== revision) {
      await removeResultFiles(run.result, resultsDir);
      throw await this.#staleError(job, revision, 'discarded', after.id);
    }
    const restarted = previousCrash ? { workerRestartedAfterCrash: previousCrash } : {};
    return {
      operation: job.operation,
      sourceRevision: revision,
      backend: BACKEND,
      workerPid: run.workerPid,
      startupMilliseconds: Math.round(startupMilliseconds),
      captureMilliseconds: Math.round(run.captureMilliseconds),
      elapsedMilliseconds: Math.round(performance.now() - received),
      ...restarted,
      // The worker's answer crosses IPC untyped; it is the operation's result (worker.ts).
      ...run.result,
    } as JobAnswer;
  }

  /** A job whose source changed while it ran: `stopped` there, or its result `discarded`. */
  async #staleError(
    job: WorkspaceJob,
    captured: string,
    what: 'stopped' | 'discarded',
    current?: string,
  ): Promise<WorkspaceError> {
    const now = current ?? (await this.#options.tracker.current()).id;
    const done = what === 'stopped' ? `the ${job.operation} was stopped` : 'the result was discarded';
    return new WorkspaceError(
      409,
      'stale_result',
      `the source changed during the ${job.operation} (revision ${captured} → ${now}); ${done}, run it again`,
      { details: { capturedRevision: captured, currentRevision: now } },
    );
  }
}
