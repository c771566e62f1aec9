// Idempotency-Key on POST /v1/renders over real HTTP: a retry gets the same job, a reused key with
// another body is refused, and concurrent retries make one render.
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { TINY_SPEC, readAnswer, useApiServers } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

const servers = useApiServers();

const post = (api: RunningApi, body: unknown, key?: string) =>
  api
    .api('/v1/renders', {
      method: 'POST',
      json: body,
      ...(key === undefined ? {} : { headers: { 'idempotency-key': key } }),
    })
    .then((response) => readAnswer(response));

const body = { spec: TINY_SPEC, options: { quality: 'draft' } };

/** How many renders the server's job store holds. */
function renderCount(api: RunningApi): number {
  const db = new DatabaseSync(path.join(api.dataDir, 'jobs.sqlite'), { readOnly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM jobs').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('Idempotency-Key', () => {
  it('answers a retry with the same job and Location, marked as replayed, and renders once', async () => {
    const api = await servers.start({ env: { RENDER_CONCURRENCY: '1' } });
    const first = await post(api, body, '"order-1234"');
    expect(first.status).toBe(202);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // The same body with its keys in another order is the same request.
    const retried = await post(api, { options: { quality: 'draft' }, spec: TINY_SPEC }, '"order-1234"');
    expect(retried.status).toBe(202);
    expect(retried.body.id).toBe(first.body.id);
    expect(retried.headers.get('location')).toBe(first.headers.get('location'));
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    // Without a key, or with another one, it is a new render.
    expect((await post(api, body)).body.id).not.toBe(first.body.id);
    expect((await post(api, body, '"order-1235"')).body.id).not.toBe(first.body.id);
    expect(renderCount(api)).toBe(3);
  });

  it('refuses the key with another body (422), and a malformed key (400)', async () => {
    const api = await servers.start();
    expect((await post(api, body, '"k-1"')).status).toBe(202);
    const other = await post(api, { ...body, options: { quality: 'standard' } }, '"k-1"');
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });
    expect(other.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const bad = await post(api, body, '"unterminated');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_idempotency_key' });
  });

  it('makes one render from many concurrent retries: each gets that job or 409', async () => {
    const api = await servers.start();
    const answers = await Promise.all(Array.from({ length: 8 }, () => post(api, body, '"burst"')));
    const accepted = answers.filter((answer) => answer.status === 202);
    expect(accepted.length).toBeGreaterThan(0);
    expect(new Set(accepted.map((answer) => answer.body.id)).size).toBe(1);
    for (const answer of answers.filter((a) => a.status !== 202)) {
      expect(answer.status).toBe(409);
      expect(answer.body).toMatchObject({ code: 'idempotency_key_in_progress' });
    }
    expect(renderCount(api)).toBe(1);
  });

  it('lets a request that failed be retried with its key', async () => {
    const api = await servers.start();
    const invalid = await post(api, { spec: { kinoSpec: 1, scenes: [] } }, '"fix-and-retry"');
    expect(invalid.status).toBe(400);
    const fixed = await post(api, body, '"fix-and-retry"');
    expect(fixed.status).toBe(202);
  });
});
