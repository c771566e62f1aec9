// Removes expired renders: their files from storage, then their jobs (remembered as removed so
// their ids answer 410). A job still queued or running is never touched, even past its expiry.
import type { Logger } from 'pino';
import type { RenderStorage } from '../storage/storage.ts';
import type { ExpiredJobs } from './expired-jobs.ts';

export interface CleanupReport {
  /** Expired jobs looked at, including any skipped because they are still running. */
  scanned: number;
  deletedFiles: number;
  deletedJobs: number;
  freedBytes: number;
  dryRun: boolean;
}

/** Removed ids are remembered this long so late clients hear "gone" rather than "unknown". */
const TOMBSTONE_MS = 30 * 86_400_000;

export class Cleanup {
  readonly #store: ExpiredJobs;
  readonly #storage: RenderStorage;
  readonly #log: Logger;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | undefined;
  /** Runs one at a time: a timer tick and an endpoint call never delete the same files twice. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(options: { store: ExpiredJobs; storage: RenderStorage; log: Logger; now?: () => number }) {
    this.#store = options.store;
    this.#storage = options.storage;
    this.#log = options.log;
    this.#now = options.now ?? Date.now;
  }

  run(options: { dryRun: boolean }): Promise<CleanupReport> {
    const next = this.#queue.then(() => this.#sweep(options.dryRun));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #sweep(dryRun: boolean): Promise<CleanupReport> {
    const now = this.#now();
    const report: CleanupReport = { scanned: 0, deletedFiles: 0, deletedJobs: 0, freedBytes: 0, dryRun };
    for (const job of await this.#store.expired(now, Number.MAX_SAFE_INTEGER)) {
      report.scanned++;
      if (job.status === 'queued' || job.status === 'running') continue;
      let freed: { files: number; bytes: number };
      try {
        freed = dryRun ? await this.#storage.measureRender(job.id) : await this.#storage.removeRender(job.id);
        if (!dryRun) await this.#store.remove(job.id, now);
      } catch (error) {
        // One render that cannot be removed (permissions, a flaky disk) must not stop the rest.
        this.#log.error(
          { err: error, jobId: job.id },
          'cleanup could not remove an expired render; will retry',
        );
        continue;
      }
      report.deletedFiles += freed.files;
      report.freedBytes += freed.bytes;
      report.deletedJobs++;
    }
    if (!dryRun) await this.#store.forgetRemoved(now - TOMBSTONE_MS);
    if (report.deletedJobs > 0)
      this.#log.info({ cleanup: report }, dryRun ? 'cleanup dry run' : 'cleanup removed expired renders');
    return report;
  }

  /** Runs every `intervalMs` (0 = never) until stopped. */
  startTimer(intervalMs: number): void {
    if (intervalMs <= 0) return;
    this.#timer = setInterval(() => {
      this.run({ dryRun: false }).catch((error: unknown) =>
        this.#log.error({ err: error }, 'cleanup failed'),
      );
    }, intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#queue;
  }
}
