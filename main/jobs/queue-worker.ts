// A worker on the shared render queue (`kino worker`, or the API with RENDER_CONCURRENCY > 0 on
// Redis): takes renders and chunks from BullMQ and runs each in its own render process. A long
// render, when other workers have free slots, is split into chunks that any worker renders; the
// render's job waits for them (a BullMQ parent and its children), then stitches them.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { DelayedError, QueueEvents, Queue, WaitingChildrenError, WaitingError, Worker } from 'bullmq';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { defaultRasterThreads } from '../engine/raster-threads.ts';
import { isAlive } from '../fs/pid-lock.ts';
import { RENDER_ID_PATTERN } from '../storage/storage.ts';
import type { RenderStorage } from '../storage/storage.ts';
import { fenceOf, workerLostError } from './job-store.ts';
import type { JobError, JobStore, RenderJob } from './job-store.ts';
import { RenderProcess } from './render-process.ts';
import type { RenderEnd, RenderProcessOptions } from './render-process.ts';
import {
  CHUNK_ATTEMPTS,
  RENDER_QUEUE,
  cancelChannel,
  chunkJobId,
  closeConnection,
  queueConnection,
  renderIdOf,
} from './render-queue.ts';
import type { ChunkJobData, QueueSettings, RenderJobData } from './render-queue.ts';
import type { RenderMode } from './render-job-messages.ts';
import { WorkerRoster } from './worker-roster.ts';

/** At most this many chunks for one render, however many slots are free. */
const MAX_CHUNKS = 16;
/** A render whose files could not be stored waits this long before another try: time to recover. */
export const STORAGE_RETRY_DELAY_MS = 5_000;

export interface QueueWorkerOptions {
  store: JobStore;
  storage: RenderStorage;
  queue: QueueSettings;
  /** Renders and chunks this process runs at once. */
  concurrency: number;
  maxAttempts: number;
  /** Renders of more frames than this may be split across free workers; 0 = never split. */
  chunkMinFrames: number;
  renderProject: string;
  /** Scratch space: each render or chunk gets a folder, removed when it ends. */
  workRoot: string;
  timeoutMs: number;
  log: Logger;
  authoring?: RenderProcessOptions['authoring'];
}

/**
 * A render or chunk this worker hands back to the queue: a drain that ran out of grace (taken up
 * again at once), or files that could not be stored (taken up again after `delayMs`).
 */
class HandedBack extends Error {
  readonly delayMs: number;
  constructor(delayMs = 0) {
    super('handed back to the queue');
    this.delayMs = delayMs;
  }
}

export class QueueWorker {
  readonly #options: QueueWorkerOptions;
  readonly #id = `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`;
  /** Render processes by BullMQ job id (a render's id, or one of its chunks'). */
  readonly #active = new Map<string, RenderProcess>();
  #worker: Worker | undefined;
  #queue: Queue | undefined;
  #events: QueueEvents | undefined;
  #roster: WorkerRoster | undefined;
  /** Every connection this worker opened: BullMQ closes none it was given. */
  readonly #connections: Redis[] = [];

  constructor(options: QueueWorkerOptions) {
    this.#options = options;
  }

  get busy(): number {
    return this.#active.size;
  }

  get id(): string {
    return this.#id;
  }

  async start(): Promise<void> {
    const { queue: settings, concurrency, log, workRoot } = this.#options;
    await removeDeadWorkersScratch(path.dirname(workRoot));
    await rm(workRoot, { recursive: true, force: true });
    await mkdir(workRoot, { recursive: true });
    const connect = () => {
      const connection = queueConnection(settings.redisUrl, log);
      this.#connections.push(connection);
      return connection;
    };
    this.#roster = new WorkerRoster(connect(), settings.prefix, this.#id);
    await this.#warnOnSharedLocalStorage();
    this.#roster.start(concurrency, () => this.#active.size);

    const subscriber = connect();
    subscriber.on('message', (_channel: string, id: string) => {
      for (const render of this.#active.values()) if (render.job.id === id) render.end('cancel');
    });
    await subscriber.subscribe(cancelChannel(settings.prefix));

    this.#queue = new Queue(RENDER_QUEUE, { connection: connect(), prefix: settings.prefix });
    // A job BullMQ itself fails (stalled too often, a chunk out of retries) still ends its render.
    this.#events = new QueueEvents(RENDER_QUEUE, { connection: connect(), prefix: settings.prefix });
    this.#events.on('failed', ({ jobId, failedReason }) => void this.#settleFailed(jobId, failedReason));

    this.#worker = new Worker(RENDER_QUEUE, (job, token) => this.#process(job, token), {
      connection: connect(),
      prefix: settings.prefix,
      concurrency,
      lockDuration: settings.lockMs,
      stalledInterval: Math.max(1000, Math.floor(settings.lockMs / 2)),
      // Stalls are counted as attempts by the store's claim (RENDER_MAX_ATTEMPTS decides), so
      // BullMQ only steps in past that.
      maxStalledCount: this.#options.maxAttempts + 1,
      autorun: false,
    });
    this.#worker.on('error', (error) => log.error({ err: error }, 'render queue error'));
    // Its lock lapsed (Redis away longer than QUEUE_LOCK): another worker may take the job over, so
    // this one stops it and writes nothing more.
    this.#worker.on('lockRenewalFailed', (jobIds: string[]) => {
      for (const jobId of jobIds) this.#active.get(jobId)?.end('abandon');
    });
    void this.#worker.run();
    log.info({ worker: this.#id, concurrency }, 'taking renders from the queue');
  }

  /**
   * Takes no new work and lets running renders finish for up to `graceMs`; then stops the rest and
   * hands them back to the queue, where another worker takes them up.
   */
  async stop(graceMs: number): Promise<void> {
    const closing = this.#worker?.close();
    const timedOut = await Promise.race([
      Promise.resolve(closing).then(() => false),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), graceMs).unref()),
    ]);
    if (timedOut) for (const render of this.#active.values()) render.end('requeue');
    await closing;
    await this.#roster?.stop();
    await Promise.allSettled([this.#events?.close(), this.#queue?.close()]);
    await Promise.all(this.#connections.map((connection) => closeConnection(connection)));
    await this.#options.store.close();
    await rm(this.#options.workRoot, { recursive: true, force: true }).catch(() => undefined);
  }

  /** A folder of its own for each render, chunk or stitch (a retry never meets an older one). */
  #workDir(name: string): string {
    return path.join(this.#options.workRoot, `${name}-${randomBytes(3).toString('hex')}`);
  }

  async #process(job: Job, token: string | undefined): Promise<void> {
    const { id } = job.data as { id?: unknown };
    // Paths are built from it: anything but a render id made by an API is refused.
    if (typeof id !== 'string' || !RENDER_ID_PATTERN.test(id)) {
      throw new Error(`not a render job: ${JSON.stringify(id)?.slice(0, 80)}`);
    }
    try {
      if (job.name === 'chunk') await this.#chunk(job as Job<ChunkJobData>);
      else await this.#render(job as Job<RenderJobData>, token);
    } catch (error) {
      if (!(error instanceof HandedBack)) throw error;
      // Back to waiting, where this or another worker takes it up again.
      if (error.delayMs > 0) {
        await job.moveToDelayed(Date.now() + error.delayMs, token);
        throw new DelayedError();
      }
      await job.moveToWait(token);
      throw new WaitingError();
    }
  }

  #processOptions(): RenderProcessOptions {
    const { concurrency } = this.#options;
    return {
      ...this.#options,
      cores: Math.max(1, Math.floor(defaultRasterThreads() / concurrency)),
      now: Date.now,
    };
  }

  async #run(jobId: string, record: RenderJob, mode: RenderMode, workDir: string): Promise<RenderEnd> {
    const render = new RenderProcess(record, workDir, this.#processOptions(), mode);
    this.#active.set(jobId, render);
    await this.#roster?.update(this.#options.concurrency, this.#active.size).catch(() => undefined);
    try {
      const end = await render.done;
      if (end.kind === 'requeued') throw new HandedBack();
      if (end.kind === 'retrying') throw new HandedBack(STORAGE_RETRY_DELAY_MS);
      return end;
    } finally {
      this.#active.delete(jobId);
      await this.#roster?.update(this.#options.concurrency, this.#active.size).catch(() => undefined);
    }
  }

  async #render(job: Job<RenderJobData>, token: string | undefined): Promise<void> {
    const { store, log, maxAttempts } = this.#options;
    const { id } = job.data;
    if (job.data.stitch) return this.#stitch(job, token, job.data.stitch.chunks);
    const claim = await store.claim(id, Date.now(), maxAttempts);
    if ('skipped' in claim) {
      log.info({ jobId: id, status: claim.skipped }, 'render not run: it is no longer queued');
      return;
    }
    if ('lost' in claim) {
      log.error({ jobId: id }, 'render lost its worker too often; failed');
      return;
    }
    const record = claim.claimed;
    const end = await this.#run(job.id!, record, await this.#mode(record), this.#workDir(id));
    if (end.kind !== 'split') return;

    const { chunks, framesTotal } = end.plan;
    // Marked first: a retry of this job after a crash goes on to its chunks (added below, or
    // then) and stitches them, never splitting twice.
    await job.updateData({ ...job.data, stitch: { chunks } });
    // Every chunk's frames known from the start, so the bar only ever moves forward. Refused: the
    // render was canceled, or another worker took it over meanwhile; its chunks are not this one's.
    const held = await store.setProgress(
      id,
      {
        stage: 'rendering',
        framesDone: 0,
        framesTotal,
        percent: 2,
        etaSeconds: null,
        chunks: chunks.map((range) => ({ framesDone: 0, framesTotal: range.end - range.start })),
      },
      fenceOf(record),
    );
    if (!held) {
      log.info({ jobId: id }, 'render not split: it no longer runs under this attempt');
      return;
    }
    await this.#addChunks(job, chunks);
    log.info({ jobId: id, chunks, frames: framesTotal }, 'render split into chunks');
    return this.#stitch(job, token, chunks);
  }

  /** The chunks as BullMQ children of the render's job, all at once (one MULTI). */
  async #addChunks(job: Job<RenderJobData>, chunks: { start: number; end: number }[]): Promise<void> {
    const { id } = job.data;
    await this.#queue!.addBulk(
      chunks.map((range, index) => ({
        name: 'chunk',
        data: { id, index, count: chunks.length, ...range } satisfies ChunkJobData,
        opts: {
          jobId: chunkJobId(id, index),
          parent: { id: job.id!, queue: job.queueQualifiedName },
          attempts: CHUNK_ATTEMPTS,
          backoff: { type: 'exponential', delay: 2000 },
          failParentOnFailure: true,
          removeOnComplete: true,
          removeOnFail: { age: 7 * 86_400 },
        },
      })),
    );
  }

  /** Split when the format joins by stream copy, there is one output, and another worker is free. */
  async #mode(record: RenderJob): Promise<RenderMode> {
    const { chunkMinFrames } = this.#options;
    const { options } = record;
    if (chunkMinFrames <= 0 || options.format !== 'mp4' || options.outputs) return { kind: 'whole' };
    const free = (await this.#roster?.freeSlotsElsewhere().catch(() => 0)) ?? 0;
    // This worker's own slot frees up while the chunks render, so it takes one too.
    const slots = Math.min(MAX_CHUNKS, free + 1);
    return slots < 2 ? { kind: 'whole' } : { kind: 'plan', minFrames: chunkMinFrames, maxChunks: slots };
  }

  async #stitch(
    job: Job<RenderJobData>,
    token: string | undefined,
    chunks: { start: number; end: number }[],
  ): Promise<void> {
    const { store, storage, log, maxAttempts } = this.#options;
    const { id } = job.data;
    const count = chunks.length;
    // A worker that died between marking the split and adding the chunks left none: add them now.
    const dependencies = await job.getDependenciesCount();
    if (Object.values(dependencies).every((n) => !n)) await this.#addChunks(job, chunks);
    // Waits (holding no slot) until every chunk is rendered; BullMQ brings the job back then.
    if (token && (await job.moveToWaitingChildren(token))) throw new WaitingChildrenError();
    let record = await store.get(id);
    // Queued again because the stitched render could not be stored: this is its next attempt.
    if (record?.status === 'queued') {
      const claim = await store.claim(id, Date.now(), maxAttempts);
      record = 'claimed' in claim ? claim.claimed : undefined;
    }
    if (record?.status !== 'running') {
      log.info({ jobId: id }, 'render no longer running: its chunks are dropped');
      await storage.removeChunks(id, count).catch(() => undefined);
      return;
    }
    const workDir = this.#workDir(id);
    await mkdir(workDir, { recursive: true });
    const chunkPaths: string[] = [];
    let posterPath: string | undefined;
    for (let index = 0; index < count; index++) {
      const target = path.join(workDir, `chunk-${index}.mp4`);
      if (!(await storage.fetchChunk(id, index, target))) {
        throw new Error(`chunk ${index} of render ${id} is missing from storage`);
      }
      chunkPaths.push(target);
      const poster = path.join(workDir, `chunk-${index}.png`);
      if (record.options.poster && (await storage.fetchChunk(id, index, poster, 'poster')))
        posterPath = poster;
    }
    const mode: RenderMode = { kind: 'stitch', chunkPaths, ...(posterPath ? { posterPath } : {}) };
    const end = await this.#run(job.id!, record, mode, workDir);
    if (end.kind === 'succeeded' || end.kind === 'failed' || end.kind === 'canceled') {
      await storage.removeChunks(id, count).catch(() => undefined);
    }
  }

  async #chunk(job: Job<ChunkJobData>): Promise<void> {
    const { store, storage, log } = this.#options;
    const { id, index, count, start, end: last } = job.data;
    const record = await store.get(id);
    if (record?.status !== 'running') {
      log.info({ jobId: id, chunk: index }, 'chunk not rendered: its render is no longer running');
      return;
    }
    const workDir = this.#workDir(chunkJobId(id, index));
    try {
      const end = await this.#run(
        job.id!,
        record,
        { kind: 'chunk', index, count, start, end: last },
        workDir,
      );
      if (end.kind === 'chunk') {
        await storage.putChunk(id, index, end.path);
        if (end.posterPath) await storage.putChunk(id, index, end.posterPath, 'poster');
        return;
      }
      if (end.kind === 'failed') {
        // Retried alone while attempts remain; the last failure fails the render.
        if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) {
          await store.fail(id, chunkError(end.error, index, count), Date.now(), undefined, fenceOf(record));
        }
        throw new Error(end.error.message);
      }
    } finally {
      await rm(workDir, { recursive: true, force: true }).catch(() => undefined);
    }
  }

  /** BullMQ failed a job on its own (stalled past its limit): the render ends failed too. */
  async #settleFailed(jobId: string, failedReason: string): Promise<void> {
    const { store, log, maxAttempts } = this.#options;
    const id = renderIdOf(jobId);
    const record = await store.get(id).catch(() => undefined);
    if (record?.status !== 'running' && record?.status !== 'queued') return;
    // The reason can name storage, paths or Redis: it goes to the log, not to the client.
    const error: JobError = /stalled/i.test(failedReason)
      ? workerLostError(record.attempts, maxAttempts, 'worker')
      : { code: 'render_failed', message: 'the render failed on a worker; its log has the details' };
    if (await store.fail(id, error, Date.now()).catch(() => false)) {
      log.error({ jobId: id, queueJob: jobId, reason: failedReason }, 'render failed in the queue');
    }
  }

  async #warnOnSharedLocalStorage(): Promise<void> {
    if (this.#options.storage.backend !== 'local') return;
    const hosts = new Set((await this.#roster!.entries().catch(() => [])).map((entry) => entry.host));
    hosts.add(hostname());
    if (hosts.size > 1) {
      this.#options.log.warn(
        { hosts: [...hosts] },
        'workers on several hosts share this queue with STORAGE_BACKEND=local: a render stored on one host cannot be downloaded from another, and split renders fail; use STORAGE_BACKEND=s3',
      );
    }
  }
}

/**
 * Scratch folders of workers that died without stopping (kill -9, the OOM killer) on this host:
 * each is named worker-<pid>-…, and a pid that no longer runs owns nothing.
 */
async function removeDeadWorkersScratch(root: string): Promise<void> {
  const names = await readdir(root).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(/^worker-(\d+)-/.exec(name)?.[1]);
    if (!pid || pid === process.pid || isAlive(pid)) continue;
    await rm(path.join(root, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

function chunkError(error: JobError, index: number, count: number): JobError {
  return {
    ...error,
    message: `chunk ${index + 1} of ${count} failed after ${CHUNK_ATTEMPTS} tries: ${error.message}`,
  };
}
