// What a `kino worker` needs to do its work: Redis that answers, and storage that takes a file (a
// real write and delete). Checked before the worker takes anything, so a worker that could not store
// a render never renders one to throw away, and again while it runs, for its readiness. Each check
// is bounded in time, and says in one line what failed and what to check, naming no password or key.
import { Redis } from 'ioredis';
import { S3StorageError } from '../storage/s3-storage.ts';
import type { RenderStorage } from '../storage/storage.ts';
import { redactRedisUrl } from './render-queue.ts';

/** Redis gets this long to connect and answer a PING. */
export const REDIS_CHECK_TIMEOUT_MS = 5_000;
/**
 * Storage gets this long to take and delete a file. S3 bounds its own check more tightly (its
 * retries included); this also bounds a local folder on a mount that stopped answering.
 */
export const STORAGE_CHECK_TIMEOUT_MS = 15_000;

/** What failed, by dependency; a dependency that answered is absent. */
export interface WorkerProblems {
  redis?: string;
  storage?: string;
}

class CheckTimeout extends Error {
  override name = 'CheckTimeout';
}

async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${ms / 1000}s`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** An error's message on one line: the CLI's refusal and a readiness answer are one line each. */
const oneLine = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim() || 'no reason given';

/** Undefined when Redis answers a PING on a connection of its own; else why not. */
export async function checkRedis(
  url: string,
  timeoutMs = REDIS_CHECK_TIMEOUT_MS,
): Promise<string | undefined> {
  // One try, no queueing while away: the check is whether Redis answers now.
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  // ioredis rejects a failed connect with "Connection is closed."; the event says why it closed.
  let cause: unknown;
  redis.on('error', (error: unknown) => (cause ??= error));
  try {
    await within(
      timeoutMs,
      redis.connect().then(() => redis.ping()),
    );
    return undefined;
  } catch (error) {
    return `cannot reach Redis at ${redactRedisUrl(url)} (REDIS_URL): ${oneLine(cause ?? error)}`;
  } finally {
    redis.disconnect();
  }
}

/** Undefined when storage took a file and deleted it; else why not. */
export async function checkStorage(
  storage: RenderStorage,
  timeoutMs = STORAGE_CHECK_TIMEOUT_MS,
): Promise<string | undefined> {
  try {
    await within(timeoutMs, storage.checkWritable());
    return undefined;
  } catch (error) {
    // S3's reasons already name the bucket and what to check (and never the keys).
    if (error instanceof S3StorageError) return `${oneLine(error)} (STORAGE_BACKEND=s3)`;
    const { code, path } = error as NodeJS.ErrnoException;
    const where = path ? ` at ${path}` : '';
    const why = error instanceof CheckTimeout ? error.message : (code ?? oneLine(error));
    return `storage is not writable${where} (${why}): check that LOCAL_STORAGE_DIR (default DATA_DIR/files) is a folder this user may write to`;
  }
}

/** Both checks at once. */
export async function checkWorkerDependencies(
  redisUrl: string,
  storage: RenderStorage,
): Promise<WorkerProblems> {
  const [redis, stored] = await Promise.all([checkRedis(redisUrl), checkStorage(storage)]);
  return { ...(redis ? { redis } : {}), ...(stored ? { storage: stored } : {}) };
}

/** The problems as one line, storage first (each names its own dependency). */
export function describeProblems(problems: WorkerProblems): string | undefined {
  const parts = [problems.storage, problems.redis].filter((part): part is string => part !== undefined);
  return parts.length > 0 ? parts.join('; ') : undefined;
}
