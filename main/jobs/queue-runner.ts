// The API's runner on the shared queue (QUEUE_BACKEND=redis): a render it accepts becomes a BullMQ
// job that any `kino worker` takes; a cancel is published to every worker. It runs renders itself
// only with RENDER_CONCURRENCY > 0, through a QueueWorker of its own.
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { JobStore, RenderJob } from './job-store.ts';
import type { QueueWorker } from './queue-worker.ts';
import { RENDER_QUEUE, cancelChannel, closeConnection, queueConnection } from './render-queue.ts';
import type { QueueSettings, RenderJobData } from './render-queue.ts';
import type { RenderRunner } from './render-runner.ts';

/** Finished queue entries are kept a while for diagnosis; the job store keeps the render itself. */
const RENDER_JOB_OPTIONS = {
  removeOnComplete: { age: 3600 },
  removeOnFail: { age: 7 * 86_400 },
} as const;

export interface QueueRunnerOptions {
  store: JobStore;
  queue: QueueSettings;
  log: Logger;
  /** Set when this process also renders (RENDER_CONCURRENCY > 0). */
  worker?: QueueWorker | undefined;
}

export class QueueRunner implements RenderRunner {
  readonly #options: QueueRunnerOptions;
  #queue: Queue | undefined;
  #queueConnection: Redis | undefined;
  #publisher: Redis | undefined;
  #accepting = false;

  constructor(options: QueueRunnerOptions) {
    this.#options = options;
  }

  get accepting(): boolean {
    return this.#accepting;
  }

  get runningCount(): number {
    return this.#options.worker?.busy ?? 0;
  }

  /**
   * Connects, and puts every queued render that has no queue entry back on the queue: an API that
   * stopped between accepting a render and queueing it loses nothing.
   */
  async start(): Promise<void> {
    const { queue: settings, store, log } = this.#options;
    this.#queueConnection = queueConnection(settings.redisUrl, log);
    this.#queue = new Queue(RENDER_QUEUE, { connection: this.#queueConnection, prefix: settings.prefix });
    this.#publisher = queueConnection(settings.redisUrl, log);
    await this.#queue.waitUntilReady();
    let requeued = 0;
    for (const id of await store.idsByStatus('queued', 100_000)) {
      if (!(await this.#queue.getJob(id))) {
        await this.#add(id);
        requeued++;
      }
    }
    if (requeued > 0)
      log.warn({ renders: requeued }, 'queued renders without a queue entry were queued again');
    await this.#options.worker?.start();
    this.#accepting = true;
  }

  async submitted(job: RenderJob): Promise<void> {
    await this.#add(job.id);
  }

  async #add(id: string): Promise<void> {
    const data: RenderJobData = { id };
    // The render's id is the queue entry's: adding it twice adds it once.
    await this.#queue!.add('render', data, { jobId: id, ...RENDER_JOB_OPTIONS });
  }

  async cancel(id: string): Promise<void> {
    // A render still waiting leaves the queue (a worker taking it meanwhile finds it canceled).
    await this.#queue?.remove(id).catch(() => 0);
    await this.#publisher?.publish(cancelChannel(this.#options.queue.prefix), id);
  }

  async stop(graceMs: number): Promise<void> {
    this.#accepting = false;
    await this.#options.worker?.stop(graceMs);
    await this.#queue?.close().catch(() => undefined);
    await Promise.all([closeConnection(this.#queueConnection), closeConnection(this.#publisher)]);
  }
}
