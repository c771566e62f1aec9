// On QUEUE_BACKEND=redis the job store is another server. While it does not answer, a request that
// needs it fails with one of ioredis's connection errors: that is an outage to wait out (503 with
// Retry-After), not a fault of this server to report (500).
import { Problem } from '../http/problem.ts';

/** How long a client should wait before trying again; ioredis reconnects within a few seconds. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** ioredis's own messages for a request that never reached Redis, or lost it midway. */
const CONNECTION_MESSAGES = [
  /^Connection is closed\.?$/,
  /^Stream isn't writeable/,
  /^Command aborted due to connection close/,
  /^Reached the max retries per request limit/,
  /^connect ETIMEDOUT$/,
];
const CONNECTION_ERROR_NAMES = new Set(['MaxRetriesPerRequestError']);
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

// The error itself only, not its causes: a storage error wrapping an ECONNREFUSED is not the store's.
function isConnectionFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    CONNECTION_ERROR_NAMES.has(error.name) ||
    CONNECTION_MESSAGES.some((pattern) => pattern.test(error.message)) ||
    CONNECTION_ERROR_CODES.has(String((error as NodeJS.ErrnoException).code))
  );
}

/** The 503 a request gets when the job store does not answer; undefined for any other error. */
export function storeOutageProblem(error: unknown): Problem | undefined {
  if (!isConnectionFailure(error)) return undefined;
  return new Problem(
    503,
    'store_unavailable',
    `the job store does not answer right now; retry in ${STORE_RETRY_AFTER_SECONDS} s`,
    { headers: { 'retry-after': String(STORE_RETRY_AFTER_SECONDS) } },
  );
}
