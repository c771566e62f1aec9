// The shared render queue on Redis (BullMQ): its name, its job data, and the connections and
// channels every process on it uses. The job store keeps what a render is; the queue only says
// which worker runs what, with BullMQ's locks, stalled-job checks and retries.
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

/** One queue holds both kinds of job: `render` (a whole render, or the parent of its chunks) and `chunk`. */
export const RENDER_QUEUE = 'renders';

export interface RenderJobData {
  id: string;
  /** Set once the render was split: the job comes back to stitch these chunks. */
  stitch?: { chunks: { start: number; end: number }[] };
}

export interface ChunkJobData {
  id: string;
  index: number;
  count: number;
  start: number;
  end: number;
}

/** A chunk is retried alone this many times (with backoff) before the render fails. */
export const CHUNK_ATTEMPTS = 3;

export interface QueueSettings {
  redisUrl: string;
  /** Prefix of every key (store and queue), so deployments can share one Redis. */
  prefix: string;
  /**
   * How long a worker's lock on a job lasts without renewal (BullMQ renews it at half): a worker
   * killed outright is noticed, and its job handed to another, about this long after.
   */
  lockMs: number;
}

/** Connection errors are logged at most this often: ioredis reports every reconnect attempt. */
const ERROR_LOG_INTERVAL_MS = 30_000;

/**
 * A connection for BullMQ (which needs requests that wait out a reconnect rather than fail). Its
 * owner closes it with closeConnection: BullMQ leaves connections it was given open.
 */
export function queueConnection(url: string, log?: Logger, options: { failFast?: boolean } = {}): Redis {
  // failFast: a request (an API call reading the store) fails after a few retries, not never.
  const redis = new Redis(url, { maxRetriesPerRequest: options.failFast ? 3 : null });
  let loggedAt = 0;
  redis.on('error', (error: Error) => {
    if (Date.now() - loggedAt < ERROR_LOG_INTERVAL_MS) return;
    loggedAt = Date.now();
    log?.warn({ err: { message: error.message } }, 'Redis connection failed; retrying');
  });
  return redis;
}

/** Closes a connection: politely while Redis answers, else at once (a stop never waits on a dead Redis). */
export async function closeConnection(redis: Redis | undefined): Promise<void> {
  if (!redis || redis.status === 'end') return;
  if (redis.status !== 'ready') {
    redis.disconnect();
    return;
  }
  const timer = setTimeout(() => redis.disconnect(), 2000);
  await redis.quit().catch(() => redis.disconnect());
  clearTimeout(timer);
}

/** The channel a cancel is published on: every worker hears it and stops the render if it has it. */
export const cancelChannel = (prefix: string) => `${prefix}:cancel`;

/** The BullMQ id of a render's chunk (ids with ':' are refused by BullMQ). */
export const chunkJobId = (renderId: string, index: number) => `${renderId}-chunk-${index}`;

/** The render a BullMQ job id belongs to (a render's own id, or one of its chunks'). */
export const renderIdOf = (jobId: string) => jobId.replace(/-chunk-\d+$/, '');

/** The Redis address without its password, for messages and logs. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'REDIS_URL';
  }
}
