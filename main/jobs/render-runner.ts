// What the API asks of whatever runs its renders: the in-process runner on one machine (SQLite), or
// the shared queue that `kino worker` processes take renders from (Redis).
import type { RenderJob } from './job-store.ts';

export interface RenderRunner {
  /** False while starting or stopping: readiness says the queue is not taking work. */
  readonly accepting: boolean;
  /** Renders running in this process. */
  readonly runningCount: number;
  /** Settles what a dead process left, then starts taking work. */
  start(): Promise<void>;
  /** A job was just inserted (queued): run it here when a slot frees, or put it on the shared queue. */
  submitted(job: RenderJob): Promise<void>;
  /** The store already says canceled: stop the render wherever it runs. */
  cancel(id: string): Promise<void>;
  /**
   * Takes no new work, lets running renders finish for up to `graceMs`, then stops the rest and
   * hands them back to the queue.
   */
  stop(graceMs: number): Promise<void>;
}
