// What one backend (SQLite for one machine, Redis for many) gives: the job store and the small stores
// beside it, over one connection, as one object. They share that connection and its atomic steps
// (ending a job makes its webhook's delivery due; removing a job removes its delivery), so each
// backend is one class that implements them all. One shared suite (job-store.test.ts) holds both
// backends to these contracts; each consumer takes only the store it uses.
import type { ExpiredJobs } from './expired-jobs.ts';
import type { IdempotencyStore } from './idempotency-store.ts';
import type { JobStore } from './job-store.ts';
import type { WebhookOutbox } from './webhook-outbox.ts';

/** Closing it (JobStore.close) closes every store in it. */
export interface JobStores extends JobStore, IdempotencyStore, WebhookOutbox, ExpiredJobs {}
