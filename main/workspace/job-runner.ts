// Runs workspace jobs one at a time on the worker, with at most MAX_ADMITTED requests admitted
// (running + waiting). Each job is pinned to a source revision: a request for another revision is
// refused before anything runs, and a result whose source changed while it ran is discarded.
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Problem } from '../api/problem.ts';
import type { WorkspaceJob } from './protocol.ts';
import { WorkspaceError } from './protocol.ts';
import type { SourceRevisionTracker } from './source-revision.ts';
import type { WorkerHost } from './worker-host.ts';

export const MAX_ADMITTED = 4;
export const BACKEND = 'skia';

export interface JobTimings {
  startupMilliseconds: number;
  captureMilliseconds: number;
  elapsedMilliseconds: number;
}

export interface JobRunnerOptions {
  tracker: SourceRevisionTracker;
  worker: WorkerHost;
  resultsDir: string;
  requestTimeoutMs: number;
}

/** Strings in a result that name files inside the results folder (to remove a stale result's files). */
function resultFiles(value: unknown, resultsDir: string, found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.startsWith(resultsDir + path.sep)) found.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) resultFiles(item, resultsDir, found);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) resultFiles(item, resultsDir, found);
  }
  return found;
}

export function toProblem(error: WorkspaceError): Problem {
  const extensions = { ...error.details, ...(error.problems ? { problems: error.problems } : {}) };
  return new Problem(error.status, error.code, error.message, {
    extensions: Object.keys(extensions).length > 0 ? extensions : undefined,
  });
}

interface WaitingJob {
  job: WorkspaceJob;
  received: number;
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: unknown) => void;
}

export class WorkspaceJobRunner {
  readonly #options: JobRunnerOptions;
  readonly #waiting: WaitingJob[] = [];
  #running = false;
  #closed = false;

  constructor(options: JobRunnerOptions) {
    this.#options = options;
  }

  /** Requests admitted and not yet answered: the one running plus those waiting. */
  get depth(): { running: number; waiting: number; limit: number } {
    return { running: this.#running ? 1 : 0, waiting: this.#waiting.length, limit: MAX_ADMITTED };
  }

  /**
   * Runs `job` when its turn comes. A client that goes away (`gone` aborts) while its job waits
   * gives its place up; a running job finishes (its time-out bounds it).
   */
  submit(job: WorkspaceJob, gone?: AbortSignal): Promise<Record<string, unknown>> {
    if (this.#closed) {
      return Promise.reject(new Problem(503, 'workspace_stopping', 'the workspace is stopping'));
    }
    if (this.#waiting.length + (this.#running ? 1 : 0) >= MAX_ADMITTED) {
      return Promise.reject(
        new Problem(
          429,
          'queue_full',
          `queue full: the workspace already has ${MAX_ADMITTED} requests (1 running, ${MAX_ADMITTED - 1} waiting); retry when one finishes`,
          { headers: { 'retry-after': '1' } },
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const entry: WaitingJob = { job, received: performance.now(), resolve, reject };
      this.#waiting.push(entry);
      gone?.addEventListener(
        'abort',
        () => {
          const at = this.#waiting.indexOf(entry);
          if (at < 0) return;
          this.#waiting.splice(at, 1);
          reject(new Problem(499, 'client_gone', 'the client went away before its turn'));
        },
        { once: true },
      );
      this.#next();
    });
  }

  #next(): void {
    if (this.#running) return;
    const entry = this.#waiting.shift();
    if (!entry) return;
    this.#running = true;
    this.#execute(entry.job, entry.received)
      .then(entry.resolve, (error: unknown) =>
        entry.reject(error instanceof WorkspaceError ? toProblem(error) : error),
      )
      .finally(() => {
        this.#running = false;
        this.#next();
      });
  }

  /** Stops taking work: requests still waiting are answered 503 now. */
  close(): void {
    this.#closed = true;
    for (const entry of this.#waiting.splice(0)) {
      entry.reject(new Problem(503, 'workspace_stopping', 'the workspace is stopping'));
    }
  }

  async #execute(job: WorkspaceJob, received: number): Promise<Record<string, unknown>> {
    const { tracker, worker, resultsDir, requestTimeoutMs } = this.#options;
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
      throw new WorkspaceError(422, 'compile_failed', `the composition does not compile: ${where}`, {
        problems: before.compileProblems,
        details: { sourceRevision: before.id },
      });
    }
    const { startupMilliseconds } = await worker.ensureReady(before.id);
    const previousCrash = startupMilliseconds > 0 ? worker.takeUnreportedCrash() : undefined;
    const run = await worker.run(job, before.id, resultsDir, requestTimeoutMs);
    const after = await tracker.current();
    if (after.id !== before.id) {
      // Files and folders (a review's samples) alike; a removal that fails must not hide the answer.
      await Promise.all(
        resultFiles(run.result, resultsDir).map((file) =>
          rm(file, { recursive: true, force: true }).catch(() => undefined),
        ),
      );
      throw new WorkspaceError(
        409,
        'stale_result',
        `the source changed during the ${job.operation} (revision ${before.id} → ${after.id}); the result was discarded, run it again`,
        { details: { capturedRevision: before.id, currentRevision: after.id } },
      );
    }
    const restarted = previousCrash ? { workerRestartedAfterCrash: previousCrash } : {};
    return {
      operation: job.operation,
      sourceRevision: before.id,
      backend: BACKEND,
      workerPid: run.workerPid,
      startupMilliseconds: Math.round(startupMilliseconds),
      captureMilliseconds: Math.round(run.captureMilliseconds),
      elapsedMilliseconds: Math.round(performance.now() - received),
      ...restarted,
      ...run.result,
    };
  }
}
