// The shared job store: render jobs in Redis, so any number of API processes and `kino worker`s on
// any number of machines see one set of jobs. A job is a hash with the same fields as the SQLite
// row; sorted sets index it by status, expiry and webhook due time. Every change that reads before
// it writes is one Lua script (in redis-scripts/), so it is atomic across processes.
import type { Redis } from 'ioredis';
import { workerLostError } from './job-store.ts';
import { sumChunkProgress } from './chunk-progress.ts';
import type {
  ChunkProgress,
  Fence,
  JobClaim,
  JobError,
  JobLookup,
  JobOutcome,
  JobProgress,
  JobReview,
  JobStatus,
  NewRenderJob,
  RenderJob,
  RequeuedAttempt,
  WebhookAttempt,
} from './job-store.ts';
import { CANCELED_ERROR, STARTING_PROGRESS, TERMINAL_STATUSES } from './job-store.ts';
import { STALE_CLAIM_MS } from './idempotency-store.ts';
import type { IdempotencyClaim } from './idempotency-store.ts';
import type { JobStores } from './job-stores.ts';
import type { DueWebhook } from './webhook-outbox.ts';
import { json, toJob, webhookOf } from './job-row.ts';
import { closeConnection } from './render-queue.ts';
import type { DeliveryRow, JobRow } from './job-row.ts';
import { END, SUCCEED } from './redis-scripts/end.ts';
import { CLAIM_IDEMPOTENCY } from './redis-scripts/idempotency.ts';
import { CLAIM, INSERT, REQUEUE } from './redis-scripts/queue.ts';
import { REMOVE } from './redis-scripts/remove.ts';
import { SET_IF_EXISTS, SET_IF_RUNNING, SET_PROGRESS_IF_UNCHANGED } from './redis-scripts/running.ts';
import { DUE_WEBHOOKS, ENQUEUE_WEBHOOKS, RECORD_WEBHOOK } from './redis-scripts/webhooks.ts';

const NUMERIC_FIELDS = ['created_at', 'started_at', 'finished_at', 'expires_at', 'attempts'] as const;
/** A due webhook handed to one API process is not handed to another for this long. */
const WEBHOOK_LEASE_MS = 60_000;

/** Every script, registered on the connection as a command of this name. */
const SCRIPTS = {
  kinoInsert: INSERT,
  kinoClaim: CLAIM,
  kinoSetIfRunning: SET_IF_RUNNING,
  kinoSetIfExists: SET_IF_EXISTS,
  kinoSucceed: SUCCEED,
  kinoEnd: END,
  kinoRequeue: REQUEUE,
  kinoSetProgressIfUnchanged: SET_PROGRESS_IF_UNCHANGED,
  kinoRemove: REMOVE,
  kinoClaimIdempotency: CLAIM_IDEMPOTENCY,
  kinoEnqueueWebhooks: ENQUEUE_WEBHOOKS,
  kinoDueWebhooks: DUE_WEBHOOKS,
  kinoRecordWebhook: RECORD_WEBHOOK,
} as const;

type ScriptName = keyof typeof SCRIPTS;

/** Redis hash fields are text: the numeric ones are read back as numbers, absent ones as null. */
function rowOf(hash: Record<string, string>): JobRow {
  const row: Record<string, unknown> = {};
  for (const field of Object.keys(hash)) row[field] = hash[field];
  for (const field of NUMERIC_FIELDS) row[field] = hash[field] === undefined ? null : Number(hash[field]);
  for (const field of [
    'progress_json',
    'spec_json',
    'code',
    'video_json',
    'poster_json',
    'receipt_json',
    'authoring_json',
    'changes_json',
    'review_json',
    'webhook_json',
    'outputs_json',
    'error_json',
  ]) {
    row[field] ??= null;
  }
  return row as unknown as JobRow;
}

/** A fence as a script argument: '' for none. */
function fenceArg(fence: Fence | undefined): string {
  return fence === undefined ? '' : String(fence.attempt);
}

export interface RedisJobStoreOptions {
  /** Key prefix, so several Kino deployments (or tests) share one Redis without meeting. */
  prefix: string;
}

export class RedisJobStore implements JobStores {
  readonly #redis: Redis;
  readonly #prefix: string;

  /** Takes over `redis` (closed with the store). */
  constructor(redis: Redis, options: RedisJobStoreOptions) {
    this.#redis = redis;
    this.#prefix = `${options.prefix}:`;
    for (const [name, lua] of Object.entries(SCRIPTS)) {
      redis.defineCommand(name, { numberOfKeys: 0, lua });
    }
  }

  #run(name: ScriptName, ...args: (string | number)[]): Promise<unknown> {
    const call = (this.#redis as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[name]!;
    return call.call(this.#redis, this.#prefix, ...args);
  }

  #key(kind: string, id: string): string {
    return `${this.#prefix}${kind}:${id}`;
  }

  async insert(job: NewRenderJob): Promise<RenderJob> {
    const fields: Record<string, string | number> = {
      id: job.id,
      status: 'queued',
      input_json: JSON.stringify(job.input),
      options_json: JSON.stringify(job.options),
      visibility: job.visibility,
      created_at: job.createdAt,
      expires_at: job.createdAt + job.ttlMs,
      ttl_ms: job.ttlMs,
      attempts: 0,
    };
    if (job.spec) fields.spec_json = JSON.stringify(job.spec);
    if (job.code) fields.code = job.code;
    if (job.webhook) fields.webhook_json = JSON.stringify(job.webhook);
    const pairs = Object.entries(fields).flatMap(([field, value]) => [field, String(value)]);
    const added = await this.#run('kinoInsert', job.id, job.createdAt, job.createdAt + job.ttlMs, ...pairs);
    if (Number(added) !== 1) throw new Error(`a job with id ${job.id} already exists`);
    return (await this.get(job.id))!;
  }

  async get(id: string): Promise<RenderJob | undefined> {
    const [jobHash, deliveryHash] = (await this.#redis
      .multi()
      .hgetall(this.#key('job', id))
      .hgetall(this.#key('webhook', id))
      .exec())!.map(([, value]) => value as Record<string, string>);
    if (!jobHash || Object.keys(jobHash).length === 0) return undefined;
    const row = rowOf(jobHash);
    const job = toJob(row);
    if (row.webhook_json) {
      const delivery =
        deliveryHash && Object.keys(deliveryHash).length > 0
          ? (deliveryHash as unknown as DeliveryRow)
          : undefined;
      job.webhook = webhookOf(row.webhook_json, delivery);
    }
    return job;
  }

  async lookup(id: string): Promise<JobLookup> {
    const job = await this.get(id);
    if (job) return { found: job };
    return (await this.#redis.zscore(`${this.#prefix}removed`, id)) !== null ? { removed: true } : undefined;
  }

  async count(): Promise<number> {
    return this.#redis.zcard(`${this.#prefix}expiry`);
  }

  async countByStatus(status: JobStatus): Promise<number> {
    return this.#redis.zcard(`${this.#prefix}status:${status}`);
  }

  async idsByStatus(status: JobStatus, limit: number): Promise<string[]> {
    return this.#redis.zrange(`${this.#prefix}status:${status}`, 0, limit - 1);
  }

  async claimNext(now: number): Promise<RenderJob | undefined> {
    // Another process may take the first queued job between the read and the claim: try the next.
    for (;;) {
      const [id] = await this.#redis.zrange(`${this.#prefix}status:queued`, 0, 0);
      if (id === undefined) return undefined;
      const claim = await this.#claim(id, now, Number.MAX_SAFE_INTEGER, 'queued');
      if ('claimed' in claim) return claim.claimed;
      // A job deleted under its index entry must not block the queue.
      if ('skipped' in claim && claim.skipped === 'missing')
        await this.#redis.zrem(`${this.#prefix}status:queued`, id);
    }
  }

  claim(id: string, now: number, maxAttempts: number): Promise<JobClaim> {
    return this.#claim(id, now, maxAttempts, 'any');
  }

  async #claim(id: string, now: number, maxAttempts: number, only: 'any' | 'queued'): Promise<JobClaim> {
    const [result, detail] = (await this.#run(
      'kinoClaim',
      id,
      now,
      maxAttempts,
      JSON.stringify(STARTING_PROGRESS),
      only,
    )) as [string, string];
    if (result === 'skipped') return { skipped: detail as JobStatus | 'missing' };
    if (result === 'lost') {
      // Failed here; if another worker failed it first, either way it ends failed.
      await this.fail(id, workerLostError(Number(detail), maxAttempts, 'worker'), now);
      return { lost: (await this.get(id))! };
    }
    return { claimed: (await this.get(id))! };
  }

  async setProgress(id: string, progress: JobProgress, fence?: Fence): Promise<boolean> {
    return (
      Number(
        await this.#run('kinoSetIfRunning', id, fenceArg(fence), 'progress_json', JSON.stringify(progress)),
      ) === 1
    );
  }

  async setChunkProgress(id: string, chunk: ChunkProgress, fence?: Fence): Promise<boolean> {
    // Read, sum, and write only if no other chunk wrote meanwhile (else read again).
    for (;;) {
      const current = (await this.#redis.hget(this.#key('job', id), 'progress_json')) ?? '';
      const previous = current ? (JSON.parse(current) as JobProgress) : undefined;
      const next = JSON.stringify(sumChunkProgress(previous, chunk));
      const written = Number(
        await this.#run('kinoSetProgressIfUnchanged', id, next, current, fenceArg(fence)),
      );
      if (written !== -1) return written === 1;
    }
  }

  async setResolved(
    id: string,
    spec: Record<string, unknown> | null,
    code: string | null,
    fence?: Fence,
  ): Promise<boolean> {
    // With nothing to set, it still says whether the job runs (under the fence).
    const pairs: string[] = [];
    if (spec) pairs.push('spec_json', JSON.stringify(spec));
    if (code !== null) pairs.push('code', code);
    return Number(await this.#run('kinoSetIfRunning', id, fenceArg(fence), ...pairs)) === 1;
  }

  async setAuthoring(
    id: string,
    authoring: Record<string, unknown>,
    changes: string[] | null,
    fence?: Fence,
  ): Promise<boolean> {
    const pairs = ['authoring_json', JSON.stringify(authoring), 'changes_json', json(changes) ?? ''];
    return Number(await this.#run('kinoSetIfExists', id, fenceArg(fence), ...pairs)) === 1;
  }

  async setReview(id: string, review: JobReview, fence?: Fence): Promise<boolean> {
    return (
      Number(
        await this.#run('kinoSetIfExists', id, fenceArg(fence), 'review_json', JSON.stringify(review)),
      ) === 1
    );
  }

  async markStoring(id: string, fence?: Fence): Promise<boolean> {
    const current = await this.#redis.hget(this.#key('job', id), 'progress_json');
    const progress: JobProgress = current
      ? { ...(JSON.parse(current) as JobProgress), stage: 'storing', percent: 98, etaSeconds: 0 }
      : { stage: 'storing', framesDone: 0, framesTotal: 0, percent: 98, etaSeconds: 0 };
    return (
      Number(
        await this.#run('kinoSetIfRunning', id, fenceArg(fence), 'progress_json', JSON.stringify(progress)),
      ) === 1
    );
  }

  async succeed(id: string, outcome: JobOutcome, now: number, fence?: Fence): Promise<boolean> {
    const changed = await this.#run(
      'kinoSucceed',
      id,
      now,
      fenceArg(fence),
      'spec_json',
      json(outcome.spec) ?? '',
      'code',
      outcome.code ?? '',
      'video_json',
      json(outcome.video) ?? '',
      'poster_json',
      json(outcome.poster) ?? '',
      'receipt_json',
      json(outcome.receipt) ?? '',
      'outputs_json',
      json(outcome.outputs) ?? '',
    );
    return Number(changed) === 1;
  }

  async fail(
    id: string,
    error: JobError,
    now: number,
    resolved?: { spec: object | null; code: string | null },
    fence?: Fence,
  ): Promise<boolean> {
    const changed = await this.#run(
      'kinoEnd',
      id,
      now,
      'failed',
      JSON.stringify(error),
      json(resolved?.spec) ?? '',
      resolved?.code ?? '',
      fenceArg(fence),
    );
    return Number(changed) === 1;
  }

  async cancel(id: string, now: number): Promise<boolean> {
    return (
      Number(await this.#run('kinoEnd', id, now, 'canceled', JSON.stringify(CANCELED_ERROR), '', '', '')) ===
      1
    );
  }

  async requeue(id: string, attempt: RequeuedAttempt = 'uncounted', fence?: Fence): Promise<boolean> {
    const how = attempt === 'counted' ? 'recover' : 'requeue';
    return Number(await this.#run('kinoRequeue', id, how, fenceArg(fence))) === 1;
  }

  async recoverInterrupted(
    maxAttempts: number,
    now: number,
  ): Promise<{ requeued: string[]; failed: string[] }> {
    const requeued: string[] = [];
    const failed: string[] = [];
    for (const id of await this.#redis.zrange(`${this.#prefix}status:running`, 0, -1)) {
      const attempts = Number(await this.#redis.hget(this.#key('job', id), 'attempts'));
      if (attempts < maxAttempts) {
        if (Number(await this.#run('kinoRequeue', id, 'recover', '')) === 1) requeued.push(id);
      } else if (await this.fail(id, workerLostError(attempts, maxAttempts, 'server'), now)) {
        failed.push(id);
      }
    }
    return { requeued, failed };
  }

  // IdempotencyStore (idempotency-store.ts).
  async claimIdempotencyKey(
    scope: string,
    key: string,
    fingerprint: string,
    now: number,
    ttlMs: number,
  ): Promise<IdempotencyClaim> {
    const [state, jobId] = (await this.#run(
      'kinoClaimIdempotency',
      scope,
      key,
      fingerprint,
      now,
      ttlMs,
      STALE_CLAIM_MS,
    )) as [IdempotencyClaim['state'], string?];
    return state === 'done' ? { state, jobId: jobId! } : ({ state } as IdempotencyClaim);
  }

  async completeIdempotencyKey(scope: string, key: string, jobId: string): Promise<void> {
    await this.#redis.hset(this.#key('idempotency', `${scope}:${key}`), 'job_id', jobId);
  }

  async releaseIdempotencyKey(scope: string, key: string): Promise<void> {
    const name = this.#key('idempotency', `${scope}:${key}`);
    // Only an unfinished claim is released; one that made its job stays.
    const jobId = await this.#redis.hget(name, 'job_id');
    if (jobId === null) await this.#redis.del(name);
  }

  // WebhookOutbox (webhook-outbox.ts).
  async enqueueWebhookEvents(now: number): Promise<number> {
    return Number(await this.#run('kinoEnqueueWebhooks', now));
  }

  async dueWebhooks(now: number, limit: number): Promise<DueWebhook[]> {
    const flat = (await this.#run('kinoDueWebhooks', now, limit, WEBHOOK_LEASE_MS)) as string[];
    const due: DueWebhook[] = [];
    for (let i = 0; i < flat.length; i += 4) {
      due.push({
        jobId: flat[i]!,
        url: flat[i + 1]!,
        event: flat[i + 2] as DueWebhook['event'],
        attempts: Number(flat[i + 3]),
      });
    }
    return due;
  }

  async recordWebhookAttempt(
    jobId: string,
    attempt: WebhookAttempt,
    delivered: boolean,
    nextAt: number | null,
  ): Promise<void> {
    const state = delivered ? 'delivered' : nextAt === null ? 'failed' : 'pending';
    await this.#run('kinoRecordWebhook', jobId, JSON.stringify(attempt), state, nextAt ?? '');
  }

  // ExpiredJobs (expired-jobs.ts).
  async expired(now: number, limit = 500): Promise<RenderJob[]> {
    const ids = await this.#redis.zrangebyscore(`${this.#prefix}expiry`, '-inf', now, 'LIMIT', 0, limit);
    const jobs: RenderJob[] = [];
    for (const id of ids) {
      const job = await this.get(id);
      if (!job) continue;
      // A job whose webhook is still to be delivered stays until it is (or its retries run out).
      const webhookSettled =
        TERMINAL_STATUSES.includes(job.status) &&
        job.webhook?.state !== 'waiting' &&
        job.webhook?.state !== 'pending';
      if (!job.webhook || webhookSettled) jobs.push(job);
    }
    return jobs;
  }

  async remove(id: string, now: number): Promise<void> {
    await this.#run('kinoRemove', id, now);
  }

  async forgetRemoved(before: number): Promise<void> {
    await this.#redis.zremrangebyscore(`${this.#prefix}removed`, '-inf', `(${before}`);
  }

  // Closes the connection every store above shares.
  async close(): Promise<void> {
    await closeConnection(this.#redis);
  }
}
