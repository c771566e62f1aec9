// Expired jobs, as the cleanup removes them: found once their expiry passed, deleted (their ids kept
// as removed, so they answer "gone"), and those ids forgotten after a while. Kept beside the job
// store, over the same connection (job-stores.ts).
import type { RenderJob } from './job-store.ts';

export interface ExpiredJobs {
  /**
   * Jobs whose expiry has passed, oldest first (a job still queued or running keeps its files
   * regardless); a job whose webhook is still to be delivered stays until it is.
   */
  expired(now: number, limit?: number): Promise<RenderJob[]>;
  /** Deletes a job, remembering its id as removed. */
  remove(id: string, now: number): Promise<void>;
  /** Forgets removed ids older than `before`, so the list of tombstones stays bounded. */
  forgetRemoved(before: number): Promise<void>;
}
