// Idempotency keys: which request (by its body's fingerprint) claimed a key in a token's scope, and
// the job it made. Kept beside the job store, over the same connection (job-stores.ts).

/** An Idempotency-Key claim older than this without a job was left by a process that died. */
export const STALE_CLAIM_MS = 60_000;

/** What a request with an Idempotency-Key finds. */
export type IdempotencyClaim =
  { state: 'claimed' } | { state: 'in_progress' } | { state: 'mismatch' } | { state: 'done'; jobId: string };

/** Each method is one atomic step, so two API processes never both claim one key. */
export interface IdempotencyStore {
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
  ): Promise<IdempotencyClaim>;
  /** The claimed key's request made this job. */
  completeIdempotencyKey(scope: string, key: string, jobId: string): Promise<void>;
  /** The claimed key's request failed: a retry with the key starts afresh. */
  releaseIdempotencyKey(scope: string, key: string): Promise<void>;
}
