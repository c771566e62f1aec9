// A job as stored: one text or number per field, the structured ones as JSON text. The SQLite
// store keeps it as a table row, the Redis store as a hash; both read jobs back through toJob.
import type {
  JobError,
  JobProgress,
  JobReview,
  JobStatus,
  JobWebhook,
  RenderInput,
  RenderJob,
  RenderJobOptions,
  StoredOutput,
  StoredPoster,
  StoredReceipt,
  StoredVideo,
  Visibility,
  WebhookAttempt,
  WebhookTarget,
} from './job-store.ts';

export interface JobRow {
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

export const json = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);
export const parsed = <T>(text: string | null): T | null => (text === null ? null : (JSON.parse(text) as T));

export function toJob(row: JobRow): RenderJob {
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

export interface DeliveryRow {
  state: string;
  history_json: string;
}

export function webhookOf(targetJson: string | null, delivery: DeliveryRow | undefined): JobWebhook | null {
  const target = parsed<WebhookTarget>(targetJson);
  if (!target) return null;
  return {
    ...target,
    state: (delivery?.state as JobWebhook['state'] | undefined) ?? 'waiting',
    deliveries: delivery ? (JSON.parse(delivery.history_json) as WebhookAttempt[]) : [],
  };
}
