// The embedded job store: render jobs in SQLite (Node's built-in node:sqlite), so queued work
// survives a restart and a crashed render is found and settled on the next start. One process owns
// it (the data dir is locked); several processes share the Redis store instead.
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import { CANCELED_ERROR, STARTING_PROGRESS, workerLostError } from './job-store.ts';
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
import { STALE_CLAIM_MS } from './idempotency-store.ts';
import type { IdempotencyClaim } from './idempotency-store.ts';
import type { JobStores } from './job-stores.ts';
import type { DueWebhook } from './webhook-outbox.ts';
import { json, toJob, webhookOf } from './job-row.ts';
import type { DeliveryRow, JobRow } from './job-row.ts';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS jobs (
  id TEXT PRIMARY KEY,
  status TEXT NOT NULL,
  input_json TEXT NOT NULL,
  options_json TEXT NOT NULL,
  visibility TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  expires_at INTEGER NOT NULL,
  ttl_ms INTEGER NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  progress_json TEXT,
  spec_json TEXT,
  code TEXT,
  video_json TEXT,
  poster_json TEXT,
  error_json TEXT,
  receipt_json TEXT,
  authoring_json TEXT,
  changes_json TEXT,
  review_json TEXT,
  webhook_json TEXT,
  outputs_json TEXT
) STRICT;
CREATE INDEX IF NOT EXISTS jobs_queue ON jobs (status, created_at);
CREATE INDEX IF NOT EXISTS jobs_expiry ON jobs (expires_at);
-- Removed renders, remembered so their ids answer "gone" (410) rather than "unknown" (404).
CREATE TABLE IF NOT EXISTS removed_jobs (
  id TEXT PRIMARY KEY,
  removed_at INTEGER NOT NULL
) STRICT;
-- One delivery per job with a webhook, made when the job ends: retried until delivered or out of
-- attempts, across restarts.
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  job_id TEXT PRIMARY KEY,
  event TEXT NOT NULL,
  state TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  history_json TEXT NOT NULL DEFAULT '[]'
) STRICT;
CREATE INDEX IF NOT EXISTS webhook_due ON webhook_deliveries (state, next_at);
-- Idempotency-Key: per token scope, the request's fingerprint and the job it made (null while the
-- first request is still being accepted).
CREATE TABLE IF NOT EXISTS idempotency_keys (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  job_id TEXT,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
) STRICT;
`;

/** The progress of a job that reached storing without a progress report (a SQL literal). */
// SQL literals of the shared values (JSON holds no single quote).
const STARTING_PROGRESS_SQL = `'${JSON.stringify(STARTING_PROGRESS)}'`;
const CANCELED_ERROR_SQL = `'${JSON.stringify(CANCELED_ERROR)}'`;
const STORING_PROGRESS = `'{"stage":"storing","framesDone":0,"framesTotal":0,"percent":0,"etaSeconds":0}'`;
/** A write's fence: none (null), or the attempt the job must still be running under. Two parameters. */
const HELD = `(? IS NULL OR (status = 'running' AND attempts = ?))`;
const held = (fence: Fence | undefined): [number | null, number | null] => [
  fence?.attempt ?? null,
  fence?.attempt ?? null,
];

export class SqliteJobStore implements JobStores {
  readonly #db: DatabaseSync;
  readonly #statements: Record<string, StatementSync> = {};

  constructor(file: string) {
    this.#db = new DatabaseSync(file);
    // WAL keeps readers (GET polling) from waiting on the writer (progress updates).
    this.#db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000;');
    this.#db.exec(SCHEMA);
    // A database made before these columns existed gains them; its jobs have none.
    const columns = this.#db.prepare('PRAGMA table_info(jobs)').all() as { name: string }[];
    for (const added of [
      'receipt_json',
      'authoring_json',
      'changes_json',
      'review_json',
      'webhook_json',
      'outputs_json',
    ]) {
      if (!columns.some((column) => column.name === added)) {
        this.#db.exec(`ALTER TABLE jobs ADD COLUMN ${added} TEXT`);
      }
    }
    // After the columns: a database made before webhooks gains the column first.
    this.#db.exec(
      'CREATE INDEX IF NOT EXISTS jobs_with_webhook ON jobs (status) WHERE webhook_json IS NOT NULL',
    );
  }

  #sql(text: string): StatementSync {
    let statement = this.#statements[text];
    if (!statement) {
      statement = this.#db.prepare(text);
      this.#statements[text] = statement;
    }
    return statement;
  }

  async insert(job: NewRenderJob): Promise<RenderJob> {
    this.#sql(
      `INSERT INTO jobs (id, status, input_json, options_json, visibility, created_at, expires_at, ttl_ms, spec_json, code, webhook_json)
       VALUES (?, 'queued', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      job.id,
      JSON.stringify(job.input),
      JSON.stringify(job.options),
      job.visibility,
      job.createdAt,
      job.createdAt + job.ttlMs,
      job.ttlMs,
      job.spec ? JSON.stringify(job.spec) : null,
      job.code ?? null,
      json(job.webhook),
    );
    return (await this.get(job.id))!;
  }

  async get(id: string): Promise<RenderJob | undefined> {
    const row = this.#sql('SELECT * FROM jobs WHERE id = ?').get(id) as JobRow | undefined;
    if (!row) return undefined;
    const job = toJob(row);
    if (row.webhook_json) {
      const delivery = this.#sql('SELECT state, history_json FROM webhook_deliveries WHERE job_id = ?').get(
        id,
      ) as DeliveryRow | undefined;
      job.webhook = webhookOf(row.webhook_json, delivery);
    }
    return job;
  }

  async lookup(id: string): Promise<JobLookup> {
    const job = await this.get(id);
    if (job) return { found: job };
    return this.#sql('SELECT 1 FROM removed_jobs WHERE id = ?').get(id) ? { removed: true } : undefined;
  }

  async count(): Promise<number> {
    return (this.#sql('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n;
  }

  async countByStatus(status: JobStatus): Promise<number> {
    return (this.#sql('SELECT COUNT(*) AS n FROM jobs WHERE status = ?').get(status) as { n: number }).n;
  }

  async idsByStatus(status: JobStatus, limit: number): Promise<string[]> {
    const rows = this.#sql('SELECT id FROM jobs WHERE status = ? ORDER BY created_at, rowid LIMIT ?').all(
      status,
      limit,
    ) as { id: string }[];
    return rows.map((row) => row.id);
  }

  /** Takes the oldest queued job and marks it running, as one statement, so no two runs share a job. */
  async claimNext(now: number): Promise<RenderJob | undefined> {
    const row = this.#sql(
      `UPDATE jobs SET status = 'running', started_at = ?, attempts = attempts + 1, progress_json = ${STARTING_PROGRESS_SQL}
       WHERE id = (SELECT id FROM jobs WHERE status = 'queued' ORDER BY created_at, rowid LIMIT 1)
       RETURNING *`,
    ).get(now) as JobRow | undefined;
    return row ? toJob(row) : undefined;
  }

  async claim(id: string, now: number, maxAttempts: number): Promise<JobClaim> {
    const row = this.#sql('SELECT status, attempts FROM jobs WHERE id = ?').get(id) as
      { status: JobStatus; attempts: number } | undefined;
    if (!row) return { skipped: 'missing' };
    if (row.status !== 'queued' && row.status !== 'running') return { skipped: row.status };
    if (row.status === 'running' && row.attempts >= maxAttempts) {
      await this.fail(id, workerLostError(row.attempts, maxAttempts, 'worker'), now);
      return { lost: (await this.get(id))! };
    }
    const claimed = this.#sql(
      `UPDATE jobs SET status = 'running', started_at = ?, attempts = attempts + 1, progress_json = ${STARTING_PROGRESS_SQL}
       WHERE id = ? AND status IN ('queued', 'running') RETURNING *`,
    ).get(now, id) as JobRow | undefined;
    return claimed ? { claimed: toJob(claimed) } : { skipped: 'missing' };
  }

  async setProgress(id: string, progress: JobProgress, fence?: Fence): Promise<boolean> {
    const result = this.#sql(
      `UPDATE jobs SET progress_json = ? WHERE id = ? AND status = 'running' AND ${HELD}`,
    ).run(json(progress), id, ...held(fence));
    return result.changes === 1;
  }

  async setChunkProgress(id: string, chunk: ChunkProgress, fence?: Fence): Promise<boolean> {
    const row = this.#sql(
      `SELECT progress_json FROM jobs WHERE id = ? AND status = 'running' AND ${HELD}`,
    ).get(id, ...held(fence)) as { progress_json: string | null } | undefined;
    if (!row) return false;
    const previous = row.progress_json ? (JSON.parse(row.progress_json) as JobProgress) : undefined;
    return this.setProgress(id, sumChunkProgress(previous, chunk), fence);
  }

  /** The spec (and its code) a running job resolved or authored: shown before the render ends. */
  async setResolved(
    id: string,
    spec: Record<string, unknown> | null,
    code: string | null,
    fence?: Fence,
  ): Promise<boolean> {
    const result = this.#sql(
      `UPDATE jobs SET spec_json = COALESCE(?, spec_json), code = COALESCE(?, code)
       WHERE id = ? AND status = 'running' AND ${HELD}`,
    ).run(json(spec), code, id, ...held(fence));
    return result.changes === 1;
  }

  /** How a running job's spec was authored, and for an edit what it changed. */
  async setAuthoring(
    id: string,
    authoring: Record<string, unknown>,
    changes: string[] | null,
    fence?: Fence,
  ): Promise<boolean> {
    const result = this.#sql(
      `UPDATE jobs SET authoring_json = ?, changes_json = ? WHERE id = ? AND ${HELD}`,
    ).run(json(authoring), json(changes), id, ...held(fence));
    return result.changes === 1;
  }

  async setReview(id: string, review: JobReview, fence?: Fence): Promise<boolean> {
    const result = this.#sql(`UPDATE jobs SET review_json = ? WHERE id = ? AND ${HELD}`).run(
      json(review),
      id,
      ...held(fence),
    );
    return result.changes === 1;
  }

  /** Moves a running job's progress to the storing stage, keeping its frame counts. */
  async markStoring(id: string, fence?: Fence): Promise<boolean> {
    const result = this.#sql(
      `UPDATE jobs SET progress_json = json_set(COALESCE(progress_json, ${STORING_PROGRESS}),
         '$.stage', 'storing', '$.percent', 98, '$.etaSeconds', 0)
       WHERE id = ? AND status = 'running' AND ${HELD}`,
    ).run(id, ...held(fence));
    return result.changes === 1;
  }

  /** Records a finished render; false when the job stopped being running meanwhile (canceled). */
  async succeed(id: string, outcome: JobOutcome, now: number, fence?: Fence): Promise<boolean> {
    const result = this.#sql(
      `UPDATE jobs SET status = 'succeeded', finished_at = ?, expires_at = ? + ttl_ms, spec_json = ?, code = ?,
         video_json = ?, poster_json = ?, receipt_json = ?, outputs_json = ?, error_json = NULL,
         progress_json = json_set(COALESCE(progress_json, ${STORING_PROGRESS}), '$.percent', 100, '$.etaSeconds', 0)
       WHERE id = ? AND status = 'running' AND ${HELD}`,
    ).run(
      now,
      now,
      json(outcome.spec),
      outcome.code,
      json(outcome.video),
      json(outcome.poster),
      json(outcome.receipt),
      json(outcome.outputs),
      id,
      ...held(fence),
    );
    return result.changes === 1;
  }

  /** Keeps what was resolved before the failure (the spec, the code) so the failure can be read. */
  async fail(
    id: string,
    error: JobError,
    now: number,
    resolved?: { spec: object | null; code: string | null },
    fence?: Fence,
  ): Promise<boolean> {
    const result = this.#sql(
      `UPDATE jobs SET status = 'failed', finished_at = ?, expires_at = ? + ttl_ms, error_json = ?,
         spec_json = COALESCE(?, spec_json), code = COALESCE(?, code)
       WHERE id = ? AND status IN ('queued', 'running') AND ${HELD}`,
    ).run(now, now, json(error), json(resolved?.spec), resolved?.code ?? null, id, ...held(fence));
    return result.changes === 1;
  }

  async cancel(id: string, now: number): Promise<boolean> {
    const result = this.#sql(
      `UPDATE jobs SET status = 'canceled', finished_at = ?, expires_at = ? + ttl_ms,
         error_json = ${CANCELED_ERROR_SQL}
       WHERE id = ? AND status IN ('queued', 'running')`,
    ).run(now, now, id);
    return result.changes === 1;
  }

  async requeue(id: string, attempt: RequeuedAttempt = 'uncounted', fence?: Fence): Promise<boolean> {
    const attempts = attempt === 'counted' ? 'attempts' : 'MAX(attempts - 1, 0)';
    const result = this.#sql(
      `UPDATE jobs SET status = 'queued', started_at = NULL, progress_json = NULL, attempts = ${attempts}
       WHERE id = ? AND status = 'running' AND ${HELD}`,
    ).run(id, ...held(fence));
    return result.changes === 1;
  }

  /**
   * At start, every job marked running belongs to a process that died. Each is queued again while
   * it has attempts left, else failed with the reason; none stays running forever.
   */
  async recoverInterrupted(
    maxAttempts: number,
    now: number,
  ): Promise<{ requeued: string[]; failed: string[] }> {
    const rows = this.#sql(`SELECT id, attempts FROM jobs WHERE status = 'running'`).all() as {
      id: string;
      attempts: number;
    }[];
    const requeued: string[] = [];
    const failed: string[] = [];
    for (const row of rows) {
      if (row.attempts < maxAttempts) {
        this.#sql(
          `UPDATE jobs SET status = 'queued', started_at = NULL, progress_json = NULL WHERE id = ?`,
        ).run(row.id);
        requeued.push(row.id);
      } else {
        await this.fail(row.id, workerLostError(row.attempts, maxAttempts, 'server'), now);
        failed.push(row.id);
      }
    }
    return { requeued, failed };
  }

  // IdempotencyStore (idempotency-store.ts).
  /**
   * Claims `key` in `scope` for a request with this fingerprint, or says what an earlier request
   * with it became. Keys older than `ttlMs` are forgotten first.
   */
  async claimIdempotencyKey(
    scope: string,
    key: string,
    fingerprint: string,
    now: number,
    ttlMs: number,
  ): Promise<IdempotencyClaim> {
    this.#sql('DELETE FROM idempotency_keys WHERE created_at <= ?').run(now - ttlMs);
    const inserted = this.#sql(
      'INSERT OR IGNORE INTO idempotency_keys (scope, key, fingerprint, job_id, created_at) VALUES (?, ?, ?, NULL, ?)',
    ).run(scope, key, fingerprint, now);
    if (inserted.changes === 1) return { state: 'claimed' };
    const row = this.#sql('SELECT fingerprint, job_id FROM idempotency_keys WHERE scope = ? AND key = ?').get(
      scope,
      key,
    ) as { fingerprint: string; job_id: string | null };
    if (row.fingerprint !== fingerprint) return { state: 'mismatch' };
    if (row.job_id !== null) return { state: 'done', jobId: row.job_id };
    // A claim left by a process that died while accepting its request frees itself after a minute.
    const taken = this.#sql(
      'UPDATE idempotency_keys SET created_at = ? WHERE scope = ? AND key = ? AND job_id IS NULL AND created_at <= ?',
    ).run(now, scope, key, now - STALE_CLAIM_MS);
    return taken.changes === 1 ? { state: 'claimed' } : { state: 'in_progress' };
  }

  /** The claimed key's request made this job. */
  async completeIdempotencyKey(scope: string, key: string, jobId: string): Promise<void> {
    this.#sql('UPDATE idempotency_keys SET job_id = ? WHERE scope = ? AND key = ?').run(jobId, scope, key);
  }

  /** The claimed key's request failed: a retry with the key starts afresh. */
  async releaseIdempotencyKey(scope: string, key: string): Promise<void> {
    this.#sql('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND job_id IS NULL').run(scope, key);
  }

  // WebhookOutbox (webhook-outbox.ts).
  /**
   * Makes the delivery of every ended job with a webhook that has none yet: pending when it asked for
   * that event, skipped otherwise. Idempotent, so it can run on every tick and after a restart.
   */
  async enqueueWebhookEvents(now: number): Promise<number> {
    const made = this.#sql(
      `INSERT INTO webhook_deliveries (job_id, event, state, next_at)
       SELECT id, 'render.' || status,
              CASE WHEN EXISTS (SELECT 1 FROM json_each(webhook_json, '$.events') WHERE value = 'render.' || status)
                   THEN 'pending' ELSE 'skipped' END,
              ?
       FROM jobs
       WHERE webhook_json IS NOT NULL AND status IN ('succeeded', 'failed', 'canceled')
         AND id NOT IN (SELECT job_id FROM webhook_deliveries)`,
    ).run(now);
    return Number(made.changes);
  }

  /** Deliveries whose next attempt is due. */
  async dueWebhooks(now: number, limit: number): Promise<DueWebhook[]> {
    const rows = this.#sql(
      `SELECT d.job_id AS jobId, json_extract(j.webhook_json, '$.url') AS url, d.event AS event, d.attempts AS attempts
       FROM webhook_deliveries d JOIN jobs j ON j.id = d.job_id
       WHERE d.state = 'pending' AND d.next_at <= ? ORDER BY d.next_at LIMIT ?`,
    ).all(now, limit) as unknown as DueWebhook[];
    return rows;
  }

  /** Records an attempt; `nextAt` null ends the delivery (delivered, or failed when it was not). */
  async recordWebhookAttempt(
    jobId: string,
    attempt: WebhookAttempt,
    delivered: boolean,
    nextAt: number | null,
  ): Promise<void> {
    const state = delivered ? 'delivered' : nextAt === null ? 'failed' : 'pending';
    this.#sql(
      `UPDATE webhook_deliveries
       SET attempts = attempts + 1, state = ?, next_at = COALESCE(?, next_at),
           history_json = json_insert(history_json, '$[#]', json(?))
       WHERE job_id = ?`,
    ).run(state, nextAt, JSON.stringify(attempt), jobId);
  }

  // ExpiredJobs (expired-jobs.ts).
  /** Jobs whose expiry has passed, oldest first (a job still queued or running keeps its files regardless). */
  async expired(now: number, limit = 500): Promise<RenderJob[]> {
    // A job whose webhook is still to be delivered stays until it is (or its retries run out).
    const rows = this.#sql(
      `SELECT * FROM jobs WHERE expires_at <= ?
         AND NOT (webhook_json IS NOT NULL AND (
           status NOT IN ('succeeded', 'failed', 'canceled')
           OR NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.job_id = jobs.id AND d.state != 'pending')))
       ORDER BY expires_at LIMIT ?`,
    ).all(now, limit) as unknown as JobRow[];
    return rows.map(toJob);
  }

  /** Deletes a job row, remembering its id as removed. */
  async remove(id: string, now: number): Promise<void> {
    this.#db.exec('BEGIN');
    try {
      this.#sql('DELETE FROM jobs WHERE id = ?').run(id);
      this.#sql('DELETE FROM webhook_deliveries WHERE job_id = ?').run(id);
      this.#sql('INSERT OR REPLACE INTO removed_jobs (id, removed_at) VALUES (?, ?)').run(id, now);
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Forgets removed ids older than `before`, so the list of tombstones stays bounded. */
  async forgetRemoved(before: number): Promise<void> {
    this.#sql('DELETE FROM removed_jobs WHERE removed_at < ?').run(before);
  }

  // Closes the connection every store above shares.
  async close(): Promise<void> {
    if (this.#db.isOpen) this.#db.close();
  }
}
