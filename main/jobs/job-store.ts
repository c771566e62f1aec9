// The durable job store: render jobs in an embedded SQLite database (Node's built-in node:sqlite),
// so queued work survives a restart and a crashed render is found and settled on the next start.
import { DatabaseSync } from 'node:sqlite';
import type { StatementSync } from 'node:sqlite';
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';
import type { EncoderSettings } from '../../shared/output/encoder-settings.ts';
import type { RenderReceipt } from '../../shared/protocol/receipt.ts';
import type { FindingCode, QualityGate, ReviewFinding } from '../../shared/protocol/finding.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { splitFileKind } from '../storage/signed-link.ts';
import type { FileKind } from '../storage/signed-link.ts';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';
export type InputKind = 'key' | 'spec' | 'prompt' | 'edit';
/** A job's stages, in order: "starting" from the moment a worker takes it until it reports. */
export const PROGRESS_STAGES = [
  'starting',
  'authoring',
  'reviewing',
  'rendering',
  'encoding',
  'verifying',
  'storing',
] as const;
export type ProgressStage = (typeof PROGRESS_STAGES)[number];
export type Visibility = 'public' | 'private';

export const TERMINAL_STATUSES: readonly JobStatus[] = ['succeeded', 'failed', 'canceled'];

/** One file of a several-output render: its aspect, format, quality, poster time and encoder settings. */
export interface OutputRequest {
  format: OutputFormat;
  quality: Quality;
  aspect?: AspectName;
  poster?: string;
  encoder?: EncoderSettings;
}

export interface RenderJobOptions {
  format: OutputFormat;
  quality: Quality;
  aspect?: AspectName;
  poster?: string;
  /** Encoder settings over the quality level's, checked against the format when the render was asked for. */
  encoder?: EncoderSettings;
  /** Several files from one input (at most 8); the first is also the job's video. */
  outputs?: OutputRequest[];
  /** Review the resolved spec before rendering (the workspace's checks); findings go in the job. */
  review?: boolean;
  /** Fail with quality_gate when a finding not in allowQuality remains (implies review). */
  strictQuality?: boolean;
  /** Finding codes that are intentional, kept but not failing the gate. */
  allowQuality?: FindingCode[];
}

/** The review of a job's spec: findings with remedies, and the quality gate they pass or fail. */
export interface JobReview {
  findings: ReviewFinding[];
  qualityGate: QualityGate;
}

/** What the worker renders: a registered key, or a validated spec. */
/** The AI provider an authored input asked for (its name and model; never its key). */
export interface AuthoringChoice {
  provider: string;
  model: string;
}

export type RenderInput =
  /** `variables`: the template values the request gave, bound when the worker loads the input. */
  | { kind: 'key'; key: string; variables?: Record<string, unknown> }
  | { kind: 'spec'; spec: Record<string, unknown>; variables?: Record<string, unknown> }
  | ({ kind: 'prompt'; prompt: string } & AuthoringChoice)
  /** `base` is the spec to change; `baseRender` the render it came from, when one was named. */
  | ({ kind: 'edit'; base: Record<string, unknown>; baseRender?: string; change: string } & AuthoringChoice);

export interface JobProgress {
  stage: ProgressStage;
  framesDone: number;
  framesTotal: number;
  percent: number;
  etaSeconds: number | null;
}

export interface StoredVideo {
  extension: string;
  bytes: number;
  contentType: string;
  width: number;
  height: number;
  durationSeconds: number;
  sha256: string;
}

export interface StoredPoster {
  extension: string;
  bytes: number;
  contentType: string;
}

/** The render receipt: a JSON file stored beside the video, and its content kept with the job. */
export interface StoredReceipt {
  extension: string;
  bytes: number;
  contentType: string;
  receipt: RenderReceipt;
}

export const WEBHOOK_EVENTS = ['render.succeeded', 'render.failed', 'render.canceled'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** Where a job's end is announced, and which ends. */
export interface WebhookTarget {
  url: string;
  events: WebhookEvent[];
}

/** One attempt to deliver a job's event: when, the HTTP status (null when none came), why it failed. */
export interface WebhookAttempt {
  at: number;
  status: number | null;
  error: string | null;
}

export interface JobWebhook extends WebhookTarget {
  /** pending: not delivered yet (retries due); delivered; failed: every retry used; skipped: event not subscribed. */
  state: 'waiting' | 'pending' | 'delivered' | 'failed' | 'skipped';
  deliveries: WebhookAttempt[];
}

export interface DueWebhook {
  jobId: string;
  url: string;
  event: WebhookEvent;
  attempts: number;
}

export interface JobError {
  code: string;
  message: string;
  /** For authoring_failed: the errors the model's last answer still had, at their pointers. */
  errors?: { pointer: string; message: string }[];
}

export interface RenderJob {
  id: string;
  status: JobStatus;
  input: RenderInput;
  options: RenderJobOptions;
  visibility: Visibility;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  expiresAt: number;
  attempts: number;
  progress: JobProgress | null;
  spec: Record<string, unknown> | null;
  code: string | null;
  video: StoredVideo | null;
  poster: StoredPoster | null;
  /** Null until the render succeeds (and for renders stored before receipts were kept). */
  receipt: StoredReceipt | null;
  /** For a prompt or an edit: how the spec was authored (AuthoringRecord), once it was. */
  authoring: Record<string, unknown> | null;
  /** For an edit: the JSON pointers of the spec that differ from the base. */
  changes: string[] | null;
  /** With options.review or strictQuality, once the spec was reviewed. */
  review: JobReview | null;
  /** With options.outputs, once the render succeeded: every output. */
  outputs: StoredOutput[] | null;
  /** The webhook the job's end is sent to, with every delivery attempt so far. */
  webhook: JobWebhook | null;
  error: JobError | null;
}

/** The stored file of a kind (video, poster-2 …), when the job has it. */
export function storedFileOf(
  job: RenderJob,
  kind: FileKind,
): StoredVideo | StoredPoster | StoredReceipt | null {
  const { base, index } = splitFileKind(kind);
  if (index === 0) return { video: job.video, poster: job.poster, receipt: job.receipt }[base];
  const output = job.outputs?.[index];
  return output ? { video: output.video, poster: output.poster, receipt: output.receipt }[base] : null;
}

export interface NewRenderJob {
  id: string;
  input: RenderInput;
  options: RenderJobOptions;
  visibility: Visibility;
  createdAt: number;
  /** How long the render is kept once it ends; until then it expires ttl after creation at the earliest. */
  ttlMs: number;
  /** Known at submit for a spec input: shown from the start rather than once a worker resolves it. */
  spec?: Record<string, unknown> | null;
  webhook?: WebhookTarget | undefined;
  code?: string | null;
}

/** One stored output of a several-output render. */
export interface StoredOutput {
  request: OutputRequest;
  video: StoredVideo;
  poster: StoredPoster | null;
  receipt: StoredReceipt;
}

export interface JobOutcome {
  spec: Record<string, unknown> | null;
  code: string | null;
  video: StoredVideo;
  poster: StoredPoster | null;
  receipt?: StoredReceipt | null;
  /** With options.outputs: every output, the first one included. */
  outputs?: StoredOutput[] | null;
}

interface JobRow {
  id: string;
  status: JobStatus;
  input_json: string;
  options_json: string;
  visibility: Visibility;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  expires_at: number;
  attempts: number;
  progress_json: string | null;
  spec_json: string | null;
  code: string | null;
  video_json: string | null;
  poster_json: string | null;
  receipt_json: string | null;
  authoring_json: string | null;
  changes_json: string | null;
  review_json: string | null;
  webhook_json: string | null;
  outputs_json: string | null;
  error_json: string | null;
}

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

/** An Idempotency-Key claim older than this without a job was left by a process that died. */
const STALE_CLAIM_MS = 60_000;

/** What a request with an Idempotency-Key finds. */
export type IdempotencyClaim =
  { state: 'claimed' } | { state: 'in_progress' } | { state: 'mismatch' } | { state: 'done'; jobId: string };

const json = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);
const parsed = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

function toJob(row: JobRow): RenderJob {
  return {
    id: row.id,
    status: row.status,
    input: JSON.parse(row.input_json) as RenderInput,
    options: JSON.parse(row.options_json) as RenderJobOptions,
    visibility: row.visibility,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    expiresAt: row.expires_at,
    attempts: row.attempts,
    progress: parsed<JobProgress>(row.progress_json),
    spec: parsed<Record<string, unknown>>(row.spec_json),
    code: row.code,
    video: parsed<StoredVideo>(row.video_json),
    poster: parsed<StoredPoster>(row.poster_json),
    receipt: parsed<StoredReceipt>(row.receipt_json),
    authoring: parsed<Record<string, unknown>>(row.authoring_json),
    changes: parsed<string[]>(row.changes_json),
    review: parsed<JobReview>(row.review_json),
    webhook: webhookOf(row.webhook_json, undefined),
    outputs: parsed<StoredOutput[]>(row.outputs_json),
    error: parsed<JobError>(row.error_json),
  };
}

interface DeliveryRow {
  state: string;
  history_json: string;
}

function webhookOf(targetJson: string | null, delivery: DeliveryRow | undefined): JobWebhook | null {
  const target = parsed<WebhookTarget>(targetJson);
  if (!target) return null;
  return {
    ...target,
    state: (delivery?.state as JobWebhook['state'] | undefined) ?? 'waiting',
    deliveries: delivery ? (JSON.parse(delivery.history_json) as WebhookAttempt[]) : [],
  };
}

/** The progress of a job that reached storing without a progress report (a SQL literal). */
const STARTING_PROGRESS = `'{"stage":"starting","framesDone":0,"framesTotal":0,"percent":0,"etaSeconds":null}'`;
const STORING_PROGRESS = `'{"stage":"storing","framesDone":0,"framesTotal":0,"percent":0,"etaSeconds":0}'`;

export type JobLookup = { found: RenderJob } | { removed: true } | undefined;

export class JobStore {
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

  /**
   * Claims `key` in `scope` for a request with this fingerprint, or says what an earlier request
   * with it became. Keys older than `ttlMs` are forgotten first.
   */
  claimIdempotencyKey(
    scope: string,
    key: string,
    fingerprint: string,
    now: number,
    ttlMs: number,
  ): IdempotencyClaim {
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
  completeIdempotencyKey(scope: string, key: string, jobId: string): void {
    this.#sql('UPDATE idempotency_keys SET job_id = ? WHERE scope = ? AND key = ?').run(jobId, scope, key);
  }

  /** The claimed key's request failed: a retry with the key starts afresh. */
  releaseIdempotencyKey(scope: string, key: string): void {
    this.#sql('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND job_id IS NULL').run(scope, key);
  }

  insert(job: NewRenderJob): RenderJob {
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
    return this.get(job.id)!;
  }

  get(id: string): RenderJob | undefined {
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

  /**
   * Makes the delivery of every ended job with a webhook that has none yet: pending when it asked for
   * that event, skipped otherwise. Idempotent, so it can run on every tick and after a restart.
   */
  enqueueWebhookEvents(now: number): number {
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
  dueWebhooks(now: number, limit: number): DueWebhook[] {
    const rows = this.#sql(
      `SELECT d.job_id AS jobId, json_extract(j.webhook_json, '$.url') AS url, d.event AS event, d.attempts AS attempts
       FROM webhook_deliveries d JOIN jobs j ON j.id = d.job_id
       WHERE d.state = 'pending' AND d.next_at <= ? ORDER BY d.next_at LIMIT ?`,
    ).all(now, limit) as unknown as DueWebhook[];
    return rows;
  }

  /** Records an attempt; `nextAt` null ends the delivery (delivered, or failed when it was not). */
  recordWebhookAttempt(
    jobId: string,
    attempt: WebhookAttempt,
    delivered: boolean,
    nextAt: number | null,
  ): void {
    const state = delivered ? 'delivered' : nextAt === null ? 'failed' : 'pending';
    this.#sql(
      `UPDATE webhook_deliveries
       SET attempts = attempts + 1, state = ?, next_at = COALESCE(?, next_at),
           history_json = json_insert(history_json, '$[#]', json(?))
       WHERE job_id = ?`,
    ).run(state, nextAt, JSON.stringify(attempt), jobId);
  }

  lookup(id: string): JobLookup {
    const job = this.get(id);
    if (job) return { found: job };
    return this.#sql('SELECT 1 FROM removed_jobs WHERE id = ?').get(id) ? { removed: true } : undefined;
  }

  /** Takes the oldest queued job and marks it running, as one statement, so no two runs share a job. */
  claimNext(now: number): RenderJob | undefined {
    const row = this.#sql(
      `UPDATE jobs SET status = 'running', started_at = ?, attempts = attempts + 1, progress_json = ${STARTING_PROGRESS}
       WHERE id = (SELECT id FROM jobs WHERE status = 'queued' ORDER BY created_at, rowid LIMIT 1)
       RETURNING *`,
    ).get(now) as JobRow | undefined;
    return row ? toJob(row) : undefined;
  }

  countByStatus(status: JobStatus): number {
    return (this.#sql('SELECT COUNT(*) AS n FROM jobs WHERE status = ?').get(status) as { n: number }).n;
  }

  setProgress(id: string, progress: JobProgress): void {
    this.#sql(`UPDATE jobs SET progress_json = ? WHERE id = ? AND status = 'running'`).run(
      json(progress),
      id,
    );
  }

  /** The spec (and its code) a running job resolved or authored: shown before the render ends. */
  setResolved(id: string, spec: Record<string, unknown> | null, code: string | null): void {
    this.#sql(
      `UPDATE jobs SET spec_json = COALESCE(?, spec_json), code = COALESCE(?, code) WHERE id = ? AND status = 'running'`,
    ).run(json(spec), code, id);
  }

  /** How a running job's spec was authored, and for an edit what it changed. */
  setAuthoring(id: string, authoring: Record<string, unknown>, changes: string[] | null): void {
    this.#sql(`UPDATE jobs SET authoring_json = ?, changes_json = ? WHERE id = ?`).run(
      json(authoring),
      json(changes),
      id,
    );
  }

  setReview(id: string, review: JobReview): void {
    this.#sql(`UPDATE jobs SET review_json = ? WHERE id = ?`).run(json(review), id);
  }

  /** Records a finished render; false when the job stopped being running meanwhile (canceled). */
  succeed(id: string, outcome: JobOutcome, now: number): boolean {
    const result = this.#sql(
      `UPDATE jobs SET status = 'succeeded', finished_at = ?, expires_at = ? + ttl_ms, spec_json = ?, code = ?,
         video_json = ?, poster_json = ?, receipt_json = ?, outputs_json = ?, error_json = NULL,
         progress_json = json_set(COALESCE(progress_json, ${STORING_PROGRESS}), '$.percent', 100, '$.etaSeconds', 0)
       WHERE id = ? AND status = 'running'`,
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
    );
    return result.changes === 1;
  }

  /** Moves a running job's progress to the storing stage, keeping its frame counts. */
  markStoring(id: string): void {
    this.#sql(
      `UPDATE jobs SET progress_json = json_set(COALESCE(progress_json, ${STORING_PROGRESS}),
         '$.stage', 'storing', '$.percent', 98, '$.etaSeconds', 0)
       WHERE id = ? AND status = 'running'`,
    ).run(id);
  }

  /** Keeps what was resolved before the failure (the spec, the code) so the failure can be read. */
  fail(
    id: string,
    error: JobError,
    now: number,
    resolved?: { spec: object | null; code: string | null },
  ): boolean {
    const result = this.#sql(
      `UPDATE jobs SET status = 'failed', finished_at = ?, expires_at = ? + ttl_ms, error_json = ?,
         spec_json = COALESCE(?, spec_json), code = COALESCE(?, code)
       WHERE id = ? AND status IN ('queued', 'running')`,
    ).run(now, now, json(error), json(resolved?.spec), resolved?.code ?? null, id);
    return result.changes === 1;
  }

  cancel(id: string, now: number): boolean {
    const result = this.#sql(
      `UPDATE jobs SET status = 'canceled', finished_at = ?, expires_at = ? + ttl_ms,
         error_json = '{"code":"canceled","message":"the render was canceled"}'
       WHERE id = ? AND status IN ('queued', 'running')`,
    ).run(now, now, id);
    return result.changes === 1;
  }

  /** Puts a running job back in the queue (a graceful stop), not counting the attempt. */
  requeue(id: string): boolean {
    const result = this.#sql(
      `UPDATE jobs SET status = 'queued', started_at = NULL, progress_json = NULL, attempts = MAX(attempts - 1, 0)
       WHERE id = ? AND status = 'running'`,
    ).run(id);
    return result.changes === 1;
  }

  /**
   * At start, every job marked running belongs to a process that died. Each is queued again while
   * it has attempts left, else failed with the reason; none stays running forever.
   */
  recoverInterrupted(maxAttempts: number, now: number): { requeued: string[]; failed: string[] } {
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
        this.fail(
          row.id,
          {
            code: 'worker_lost',
            message: `the server stopped during this render ${row.attempts} time${row.attempts === 1 ? '' : 's'}; it was not retried again (RENDER_MAX_ATTEMPTS=${maxAttempts})`,
          },
          now,
        );
        failed.push(row.id);
      }
    }
    return { requeued, failed };
  }

  /** Jobs whose expiry has passed, oldest first (a job still queued or running keeps its files regardless). */
  expired(now: number, limit = 500): RenderJob[] {
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

  count(): number {
    return (this.#sql('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n;
  }

  /** Deletes a job row, remembering its id as removed. */
  remove(id: string, now: number): void {
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
  forgetRemoved(before: number): void {
    this.#sql('DELETE FROM removed_jobs WHERE removed_at < ?').run(before);
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }
}
