// Idempotency-Key on POST /v1/renders, after the IETF httpapi draft (draft-ietf-httpapi-idempotency-
// key-header): a retried request with the same key and the same body gets the same job instead of a
// second render; the same key with another body is 422; a key whose first request is still being
// accepted is 409. Keys are scoped to the token and kept for 24 hours.
import { createHash } from 'node:crypto';
import { Problem } from '../http/problem.ts';
import type { RenderJob } from '../jobs/job-store.ts';
import type { ApiContext } from './context.ts';
import { findLiveJob } from './job-lookup.ts';

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;
/** A Structured Field string ("…") as the draft defines the header, or the bare token clients also send. */
const KEY_PATTERN = /^(?:"([\x20\x21\x23-\x5b\x5d-\x7e]{1,255})"|([A-Za-z0-9._~:+/=-]{1,255}))$/;

/** The key of an Idempotency-Key header value; a Problem when it is malformed. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(',') : header.trim();
  const match = KEY_PATTERN.exec(value);
  if (!match) {
    throw new Problem(
      400,
      'invalid_idempotency_key',
      'Idempotency-Key must be one quoted string (or token) of 1 to 255 printable characters, e.g. Idempotency-Key: "8e03978e-40d5-43e8-bc93-6894a57f9324"',
    );
  }
  return match[1] ?? match[2]!;
}

/** The same JSON, whatever the order of object keys (RFC 8785's ordering, without its number form). */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Runs `create` once per key and body: returns its job, or the job an earlier request with the same
 * key and body made (`replayed`).
 */
export async function withIdempotencyKey(
  ctx: ApiContext,
  key: string,
  token: string,
  body: unknown,
  create: () => Promise<RenderJob>,
): Promise<{ job: RenderJob; replayed: boolean }> {
  // The token itself is never stored: its hash names the scope.
  const scope = sha256(`kino-idempotency:${token}`).slice(0, 32);
  const fingerprint = sha256(canonicalJson(body));
  const claim = await ctx.idempotency.claimIdempotencyKey(
    scope,
    key,
    fingerprint,
    ctx.now(),
    IDEMPOTENCY_KEY_TTL_MS,
  );
  switch (claim.state) {
    case 'mismatch':
      throw new Problem(
        422,
        'idempotency_key_reused',
        'this Idempotency-Key was used with a different request body; use a new key for a new request',
      );
    case 'in_progress':
      throw new Problem(
        409,
        'idempotency_key_in_progress',
        'a request with this Idempotency-Key is still being accepted; retry in a moment',
        { headers: { 'retry-after': '1' } },
      );
    case 'done':
      // An expired or removed render answers 410 expired, as GET does.
      return { job: await findLiveJob(ctx, claim.jobId), replayed: true };
  }
  try {
    const job = await create();
    await ctx.idempotency.completeIdempotencyKey(scope, key, job.id);
    return { job, replayed: false };
  } catch (error) {
    await ctx.idempotency.releaseIdempotencyKey(scope, key);
    throw error;
  }
}
