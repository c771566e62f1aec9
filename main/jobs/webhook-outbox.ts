// The webhook outbox: one delivery for each ended job with a webhook, retried until delivered or out
// of attempts, across restarts. Kept beside the job store, over the same connection (job-stores.ts):
// ending a job is what makes its delivery due, in the same atomic step.
import type { WebhookAttempt, WebhookEvent } from './job-store.ts';

export interface DueWebhook {
  jobId: string;
  url: string;
  event: WebhookEvent;
  attempts: number;
}

export interface WebhookOutbox {
  /**
   * Makes the delivery of every ended job with a webhook that has none yet: pending when it asked
   * for that event, skipped otherwise. Idempotent, so it can run on every tick and after a restart.
   */
  enqueueWebhookEvents(now: number): Promise<number>;
  /** Deliveries whose next attempt is due. */
  dueWebhooks(now: number, limit: number): Promise<DueWebhook[]>;
  /** Records an attempt; `nextAt` null ends the delivery (delivered, or failed when it was not). */
  recordWebhookAttempt(
    jobId: string,
    attempt: WebhookAttempt,
    delivered: boolean,
    nextAt: number | null,
  ): Promise<void>;
}
