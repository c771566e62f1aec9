// The shared job store: render jobs in Redis, so any number of API processes and `kino worker`s on
// any number of machines see one set of jobs. A job is a hash with the same fields as the SQLite
// row; sorted sets index it by status, expiry and webhook due time. Every change that reads before
// it writes is one Lua script, so it is atomic across processes.
import type { Redis } from 'ioredis';
import { STALE_CLAIM_MS, sumChunkProgress, workerLostError } from './job-store.ts';
import type {
  ChunkProgress,
  DueWebhook,
  Fence,
  IdempotencyClaim,
  JobClaim,
  JobError,
  JobLookup,
  JobOutcome,
  JobProgress,
  JobReview,
  JobStatus,
  JobStore,
  NewRenderJob,
  RenderJob,
  RequeuedAttempt,
  WebhookAttempt,
} from './job-store.ts';
import { CANCELED_ERROR, JOB_STATUSES, STARTING_PROGRESS, TERMINAL_STATUSES } from './job-store.ts';
import { json, toJob, webhookOf } from './job-row.ts';
import { closeConnection } from './render-queue.ts';
import type { DeliveryRow, JobRow } from './job-row.ts';

const NUMERIC_FIELDS = ['created_at', 'started_at', 'finished_at', 'expires_at', 'attempts'] as const;
/** A due webhook handed to one API process is not handed to another for this long. */
const WEBHOOK_LEASE_MS = 60_000;

// Shared Lua: moves a job from one status set to another, and ends a job (its status, finish and
// expiry times, and its webhook's delivery to make). Keys are named by the prefix every script gets
// as ARGV[1].
const MOVE_STATUS = `
local function move_status(prefix, id, from, to, created)
  redis.call('ZREM', prefix .. 'status:' .. from, id)
  redis.call('ZADD', prefix .. 'status:' .. to, created, id)
end
local function ended(prefix, key, id, status, now)
  local created = redis.call('HGET', key, 'queue_order')
  local ttl = tonumber(redis.call('HGET', key, 'ttl_ms'))
  local from = redis.call('HGET', key, 'status')
  move_status(prefix, id, from, status, created)
  local expires = tonumber(now) + ttl
  redis.call('HSET', key, 'status', status, 'finished_at', now, 'expires_at', string.format('%d', expires))
  redis.call('ZADD', prefix .. 'expiry', expires, id)
  if redis.call('HEXISTS', key, 'webhook_json') == 1 then
    redis.call('SADD', prefix .. 'webhooks:ended', id)
  end
end
`;

// Shared Lua: a write's fence ('' for none, else the attempt the job must still be running under).
const HELD = `
local function held(key, fence)
  if redis.call('HGET', key, 'status') ~= 'running' then return false end
  return fence == '' or tonumber(redis.call('HGET', key, 'attempts')) == tonumber(fence)
end
`;

/**
 * ARGV: prefix, id, now, maxAttempts, starting progress, 'any' or 'queued' (take only a queued job).
 * A running job out of attempts is left for the caller to fail, with its count in the message.
 */
const CLAIM = `
local prefix, id, now, max = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local key = prefix .. 'job:' .. id
local status = redis.call('HGET', key, 'status')
if not status then return {'skipped', 'missing'} end
if status ~= 'queued' and (status ~= 'running' or ARGV[6] == 'queued') then return {'skipped', status} end
local attempts = tonumber(redis.call('HGET', key, 'attempts'))
if status == 'running' and attempts >= max then return {'lost', tostring(attempts)} end
local created = redis.call('HGET', key, 'queue_order')
redis.call('ZREM', prefix .. 'status:' .. status, id)
redis.call('ZADD', prefix .. 'status:running', created, id)
redis.call('HSET', key, 'status', 'running', 'started_at', now, 'attempts', attempts + 1,
  'progress_json', ARGV[5])
return {'claimed', tostring(attempts + 1)}
`;

/**
 * ARGV: prefix, id, created, expires, then field/value pairs. Adds a queued job, or returns 0 when
 * the id is taken. Queue order: creation time, then insertion for equal times (a sequence mod 1000;
 * exact in a double until the year 2255).
 */
const INSERT = `
local prefix, id = ARGV[1], ARGV[2]
local key = prefix .. 'job:' .. id
if redis.call('EXISTS', key) == 1 then return 0 end
local order = string.format('%d', tonumber(ARGV[3]) * 1000 + redis.call('INCR', prefix .. 'sequence') % 1000)
for i = 5, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
redis.call('HSET', key, 'queue_order', order)
redis.call('ZADD', prefix .. 'status:queued', order, id)
redis.call('ZADD', prefix .. 'expiry', ARGV[4], id)
return 1
`;

/** ARGV: prefix, id, fence, then field/value pairs: set only while the job runs (under the fence). */
const SET_IF_RUNNING = `${HELD}
local key = ARGV[1] .. 'job:' .. ARGV[2]
if not held(key, ARGV[3]) then return 0 end
for i = 4, #ARGV, 2 do redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
return 1
`;

/**
 * ARGV: prefix, id, fence, then field/value pairs (an empty value deletes the field): set while
 * the job exists, or with a fence only while it runs under it.
 */
const SET_IF_EXISTS = `${HELD}
local key = ARGV[1] .. 'job:' .. ARGV[2]
if redis.call('EXISTS', key) == 0 then return 0 end
if ARGV[3] ~= '' and not held(key, ARGV[3]) then return 0 end
for i = 4, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', key, ARGV[i]) else redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
end
return 1
`;

/** ARGV: prefix, id, now, fence, then field/value pairs (an empty value deletes the field). */
const SUCCEED = `${MOVE_STATUS}${HELD}
local prefix, id, now = ARGV[1], ARGV[2], ARGV[3]
local key = prefix .. 'job:' .. id
if not held(key, ARGV[4]) then return 0 end
ended(prefix, key, id, 'succeeded', now)
for i = 5, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', key, ARGV[i]) else redis.call('HSET', key, ARGV[i], ARGV[i + 1]) end
end
redis.call('HDEL', key, 'error_json')
local progress = redis.call('HGET', key, 'progress_json')
local decoded
if progress then decoded = cjson.decode(progress) else
  decoded = {stage = 'storing', framesDone = 0, framesTotal = 0}
end
decoded.percent = 100
decoded.etaSeconds = 0
redis.call('HSET', key, 'progress_json', cjson.encode(decoded))
return 1
`;

/**
 * ARGV: prefix, id, now, 'failed' or 'canceled', error JSON, spec JSON or '', code or '', fence.
 * Ends a queued or running job (with a fence, only one running under it); a job that already
 * ended is left as it is (0).
 */
const END = `${MOVE_STATUS}${HELD}
local prefix, id, now = ARGV[1], ARGV[2], ARGV[3]
local key = prefix .. 'job:' .. id
local status = redis.call('HGET', key, 'status')
if status ~= 'queued' and status ~= 'running' then return 0 end
if ARGV[8] ~= '' and not held(key, ARGV[8]) then return 0 end
ended(prefix, key, id, ARGV[4], now)
redis.call('HSET', key, 'error_json', ARGV[5])
if ARGV[6] ~= '' then redis.call('HSET', key, 'spec_json', ARGV[6]) end
if ARGV[7] ~= '' then redis.call('HSET', key, 'code', ARGV[7]) end
return 1
`;

/** ARGV: prefix, id, 'requeue' (a stop: the attempt is not counted) or 'recover' (counted), fence. */
const REQUEUE = `${MOVE_STATUS}${HELD}
local prefix, id = ARGV[1], ARGV[2]
local key = prefix .. 'job:' .. id
if not held(key, ARGV[4]) then return 0 end
move_status(prefix, id, 'running', 'queued', redis.call('HGET', key, 'queue_order'))
redis.call('HSET', key, 'status', 'queued')
redis.call('HDEL', key, 'started_at', 'progress_json')
if ARGV[3] == 'requeue' then
  local attempts = tonumber(redis.call('HGET', key, 'attempts'))
  redis.call('HSET', key, 'attempts', math.max(attempts - 1, 0))
end
return 1
`;

/**
 * ARGV: prefix, id, progress JSON computed by the caller from the one it read (ARGV[4]), fence.
 * 1: written; 0: the job no longer runs (under the fence); -1: another chunk wrote meanwhile (read again).
 */
const SET_PROGRESS_IF_UNCHANGED = `${HELD}
local key = ARGV[1] .. 'job:' .. ARGV[2]
if not held(key, ARGV[5]) then return 0 end
local current = redis.call('HGET', key, 'progress_json') or ''
if current ~= ARGV[4] then return -1 end
redis.call('HSET', key, 'progress_json', ARGV[3])
return 1
`;

/** ARGV: prefix, id, now. */
const REMOVE = `
local prefix, id, now = ARGV[1], ARGV[2], ARGV[3]
redis.call('DEL', prefix .. 'job:' .. id, prefix .. 'webhook:' .. id)
for _, status in ipairs({${JOB_STATUSES.map((status) => `'${status}'`).join(', ')}}) do
  redis.call('ZREM', prefix .. 'status:' .. status, id)
end
redis.call('ZREM', prefix .. 'expiry', id)
redis.call('ZREM', prefix .. 'webhooks:due', id)
redis.call('SREM', prefix .. 'webhooks:ended', id)
redis.call('ZADD', prefix .. 'removed', now, id)
return 1
`;

/** ARGV: prefix, scope, key, fingerprint, now, ttlMs, staleMs. */
const CLAIM_IDEMPOTENCY = `
local key = ARGV[1] .. 'idempotency:' .. ARGV[2] .. ':' .. ARGV[3]
local now, ttl, stale = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
-- Forgotten after its time by the store's clock (Redis's own expiry also bounds what is kept).
local created = tonumber(redis.call('HGET', key, 'created_at'))
if not created or created <= now - ttl then
  redis.call('DEL', key)
  redis.call('HSET', key, 'fingerprint', ARGV[4], 'created_at', ARGV[5])
  redis.call('PEXPIRE', key, ttl)
  return {'claimed'}
end
if redis.call('HGET', key, 'fingerprint') ~= ARGV[4] then return {'mismatch'} end
local job = redis.call('HGET', key, 'job_id')
if job then return {'done', job} end
if tonumber(redis.call('HGET', key, 'created_at')) <= now - stale then
  redis.call('HSET', key, 'created_at', ARGV[5])
  redis.call('PEXPIRE', key, ttl)
  return {'claimed'}
end
return {'in_progress'}
`;

/** ARGV: prefix, now: makes the delivery of every ended job with a webhook that has none yet. */
const ENQUEUE_WEBHOOKS = `
local prefix, now = ARGV[1], ARGV[2]
local made = 0
for _, id in ipairs(redis.call('SMEMBERS', prefix .. 'webhooks:ended')) do
  local key = prefix .. 'job:' .. id
  local status = redis.call('HGET', key, 'status')
  local target = redis.call('HGET', key, 'webhook_json')
  local delivery = prefix .. 'webhook:' .. id
  if target and (status == 'succeeded' or status == 'failed' or status == 'canceled')
     and redis.call('EXISTS', delivery) == 0 then
    local event = 'render.' .. status
    local state = 'skipped'
    for _, wanted in ipairs(cjson.decode(target).events) do
      if wanted == event then state = 'pending' end
    end
    redis.call('HSET', delivery, 'event', event, 'state', state, 'attempts', 0, 'history_json', '[]')
    if state == 'pending' then redis.call('ZADD', prefix .. 'webhooks:due', now, id) end
    made = made + 1
  end
  redis.call('SREM', prefix .. 'webhooks:ended', id)
end
return made
`;

/** ARGV: prefix, now, limit, lease: due deliveries, each leased to the caller. */
const DUE_WEBHOOKS = `
local prefix, now, limit, lease = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local out = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', prefix .. 'webhooks:due', '-inf', now, 'LIMIT', 0, limit)) do
  local delivery = prefix .. 'webhook:' .. id
  local target = redis.call('HGET', prefix .. 'job:' .. id, 'webhook_json')
  if target and redis.call('HGET', delivery, 'state') == 'pending' then
    redis.call('ZADD', prefix .. 'webhooks:due', tonumber(now) + lease, id)
    table.insert(out, id)
    table.insert(out, cjson.decode(target).url)
    table.insert(out, redis.call('HGET', delivery, 'event'))
    table.insert(out, redis.call('HGET', delivery, 'attempts'))
  else
    redis.call('ZREM', prefix .. 'webhooks:due', id)
  end
end
return out
`;

/** ARGV: prefix, id, attempt JSON, state, nextAt or ''. */
const RECORD_WEBHOOK = `
local prefix, id = ARGV[1], ARGV[2]
local delivery = prefix .. 'webhook:' .. id
if redis.call('EXISTS', delivery) == 0 then return 0 end
local history = redis.call('HGET', delivery, 'history_json')
-- Appended as text: cjson would turn an empty history into an object.
if history == '[]' then history = '[' .. ARGV[3] .. ']'
else history = string.sub(history, 1, -2) .. ',' .. ARGV[3] .. ']' end
redis.call('HINCRBY', delivery, 'attempts', 1)
redis.call('HSET', delivery, 'state', ARGV[4], 'history_json', history)
if ARGV[4] == 'pending' and ARGV[5] ~= '' then
  redis.call('ZADD', prefix .. 'webhooks:due', ARGV[5], id)
else
  redis.call('ZREM', prefix .. 'webhooks:due', id)
end
return 1
`;

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

export class RedisJobStore implements JobStore {
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

  async close(): Promise<void> {
    await closeConnection(this.#redis);
  }
}
