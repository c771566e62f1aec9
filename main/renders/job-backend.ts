// Where jobs live and who runs them, by QUEUE_BACKEND: SQLite and the in-process runner on one
// machine, or Redis with the shared BullMQ queue that `kino worker`s take renders from. The API and
// the worker command build their parts here, so both read the same settings the same way.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Logger } from 'pino';
import type { AuthoringChoice, JobStore } from '../jobs/job-store.ts';
import type { JobStores } from '../jobs/job-stores.ts';
import { LocalRunner } from '../jobs/local-runner.ts';
import { QueueRunner } from '../jobs/queue-runner.ts';
import { QueueWorker } from '../jobs/queue-worker.ts';
import { RedisJobStore } from '../jobs/redis-job-store.ts';
import { queueConnection } from '../jobs/render-queue.ts';
import type { RenderRunner } from '../jobs/render-runner.ts';
import { SqliteJobStore } from '../jobs/sqlite-job-store.ts';
import type { RenderAssignment } from '../jobs/render-job-messages.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { S3Storage } from '../storage/s3-storage.ts';
import type { RenderStorage } from '../storage/storage.ts';
import type { ServerConfig } from './config.ts';

export function openStorage(config: ServerConfig): RenderStorage {
  return config.storageBackend === 's3'
    ? new S3Storage(config.s3!)
    : new LocalStorage(config.localStorageDir);
}

/** The provider (key included) and limits a prompt or an edit is authored with, by its choice. */
export function authoringFor(config: ServerConfig) {
  return ({ provider, model }: AuthoringChoice): RenderAssignment['ai'] => {
    const settings = config.ai.providers.find((candidate) => candidate.name === provider);
    return settings && { provider: { ...settings, model }, limits: config.aiLimits };
  };
}

/**
 * The job store and the stores beside it (idempotency keys, the webhook outbox, expired jobs), over
 * one connection: closing the job store closes them all. On Redis, the API's requests fail fast
 * while Redis is away (a 5xx the client can retry); a worker's store waits Redis out instead, so a
 * render that ends during an outage is still recorded when it comes back.
 */
export function openJobStores(config: ServerConfig, log: Logger, role: 'api' | 'worker' = 'api'): JobStores {
  if (config.queue) {
    return new RedisJobStore(queueConnection(config.queue.redisUrl, log, { failFast: role === 'api' }), {
      prefix: config.queue.prefix,
    });
  }
  return new SqliteJobStore(path.join(config.dataDir, 'jobs.sqlite'));
}

/**
 * A worker on the shared queue, with a store of its own (closed when it stops). Its scratch folder
 * is its own too (several workers may share a data dir on one machine), removed when it stops.
 */
export function openQueueWorker(
  config: ServerConfig,
  parts: { storage: RenderStorage; log: Logger; concurrency: number },
): QueueWorker {
  return new QueueWorker({
    ...parts,
    store: openJobStores(config, parts.log, 'worker'),
    queue: config.queue!,
    maxAttempts: config.renderMaxAttempts,
    chunkMinFrames: config.chunkMinFrames,
    renderProject: config.renderProject,
    workRoot: path.join(config.dataDir, 'work', `worker-${process.pid}-${randomBytes(3).toString('hex')}`),
    timeoutMs: config.renderTimeoutMs,
    authoring: authoringFor(config),
  });
}

export function openRunner(
  config: ServerConfig,
  parts: { store: JobStore; storage: RenderStorage; log: Logger; now: () => number },
): RenderRunner {
  const { store, storage, log, now } = parts;
  if (config.queue) {
    const worker =
      config.renderConcurrency > 0
        ? openQueueWorker(config, { storage, log, concurrency: config.renderConcurrency })
        : undefined;
    return new QueueRunner({ store, queue: config.queue, log, worker });
  }
  return new LocalRunner({
    store,
    storage,
    concurrency: config.renderConcurrency,
    maxAttempts: config.renderMaxAttempts,
    renderProject: config.renderProject,
    workRoot: path.join(config.dataDir, 'work'),
    timeoutMs: config.renderTimeoutMs,
    log,
    now,
    authoring: authoringFor(config),
  });
}
