// The render API's guards, seen from outside: `kino serve` in its own process, real HTTP on
// loopback. Signed and public download links, byte ranges, expiry, every error as problem+json,
// bearer tokens, cancel, body and rate limits, and a log that never holds a secret.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TEST_API_TOKEN,
  TEST_CLEANUP_TOKEN,
  TINY_SPEC,
  readAnswer,
  removeDataDir,
  startApi,
  until,
  waitForRender,
} from './api-server.ts';
import type { components } from './api-client/openapi.d.ts';
import type { Answer, RenderJobBody, RunningApi } from './api-server.ts';

const DRAFT = { quality: 'draft' };
const SIGNING_SECRET = 'test-signing-secret-0123456789abcdef';
const WRONG_TOKEN = 'not-the-api-token-0123456789abcdef';

type Problem = components['schemas']['Problem'];

const read = (response: Response) => readAnswer(response, [SIGNING_SECRET, WRONG_TOKEN]);

/** An RFC 9457 problem with this status and code. */
function expectProblem(answer: Answer, status: number, code: string): Problem {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  const problem = answer.body as unknown as Problem;
  expect(problem).toMatchObject({ status, code, type: expect.any(String), title: expect.any(String) });
  expect(problem.detail).toEqual(expect.any(String));
  expect(problem.requestId).toEqual(expect.any(String));
  expect(problem.instance).not.toContain('?');
  return problem;
}

const pointers = (problem: Problem) => (problem.errors ?? []).map((e) => e.pointer);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('render API: links, errors, auth and cancel (kino serve over HTTP)', () => {
  let api: RunningApi;
  /** Every download token the server handed out, to look for in its log. */
  const downloadTokens = new Set<string>();

  beforeAll(async () => {
    api = await startApi({ env: { MAX_BODY: '2KiB', SIGNING_SECRET } });
  });

  afterAll(async () => {
    if (api) {
      await api.stop();
      removeDataDir(api.dataDir);
    }
  });

  const call = async (path: string, init: RequestInit & { json?: unknown } = {}) =>
    read(await api.api(path, init));
  const post = (json: unknown) => call('/v1/renders', { method: 'POST', json });
  /** Sends a raw body, exactly as given. */
  const postRaw = (body: string, contentType = 'application/json') =>
    call('/v1/renders', { method: 'POST', body, headers: { 'content-type': contentType } });
  /** A file URL fetched with no bearer token: only the link's own token (if any) opens it. */
  const getFile = async (url: string, headers: Record<string, string> = {}) => {
    const response = await fetch(url, { headers });
    return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
  };

  async function render(body: Record<string, unknown>): Promise<RenderJobBody> {
    const created = await post(body);
    expect(created.status, created.text).toBe(202);
    const job = await waitForRender(api, (created.body as RenderJobBody).id, { timeoutMs: 150_000 });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    for (const url of [job.video?.downloadUrl, job.poster?.downloadUrl, job.video?.receiptUrl]) {
      const token = url && new URL(url).searchParams.get('token');
      if (token) downloadTokens.add(token);
    }
    return job;
  }

  describe('downloads', () => {
    let privateA: RenderJobBody;
    let privateB: RenderJobBody;
    let publicJob: RenderJobBody;
    const fileUrl = (job: RenderJobBody, kind: 'video' | 'poster' | 'receipt', token?: string) =>
      `${api.baseUrl}/v1/files/${job.id}/${kind}${token === undefined ? '' : `?token=${encodeURIComponent(token)}`}`;
    const tokenOf = (url: string) => new URL(url).searchParams.get('token')!;

    beforeAll(async () => {
      privateA = await render({ spec: TINY_SPEC, options: { ...DRAFT, poster: '0.5s' } });
      privateB = await render({ spec: TINY_SPEC, options: DRAFT, visibility: 'private' });
      publicJob = await render({ spec: TINY_SPEC, options: DRAFT, visibility: 'public' });
    });

    it('a public render downloads from a plain link with no credentials', async () => {
      expect(publicJob.visibility).toBe('public');
      expect(publicJob.video!.downloadUrl).toBe(`${api.baseUrl}/v1/files/${publicJob.id}/video`);
      const { response, bytes } = await getFile(publicJob.video!.downloadUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('video/mp4');
      expect(sha256(bytes)).toBe(publicJob.video!.sha256);
      expect(response.headers.get('cache-control')).toMatch(/^public/);
    });

    it('a private render downloads from its signed link, and not without the token', async () => {
      expect(privateA.visibility).toBe('private');
      const url = new URL(privateA.video!.downloadUrl);
      expect(url.searchParams.get('token')).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
      const { response, bytes } = await getFile(url.href);
      expect(response.status).toBe(200);
      expect(sha256(bytes)).toBe(privateA.video!.sha256);
      expect(response.headers.get('cache-control')).toMatch(/^private/);

      const bare = await read(await fetch(fileUrl(privateA, 'video')));
      expectProblem(bare, 401, 'unauthorized');
      // The API token is not a download credential either.
      const withBearer = await read(
        await fetch(fileUrl(privateA, 'video'), { headers: { authorization: `Bearer ${TEST_API_TOKEN}` } }),
      );
      expectProblem(withBearer, 401, 'unauthorized');
    });

    it('a token in any spelling of the query is neither logged nor echoed in a problem', async () => {
      const token = tokenOf(privateB.video!.downloadUrl);
      const base = `${api.baseUrl}/v1/files/${privateB.id}/video`;
      // %74 is "t": the parsed name is "token", so the link works, and the log must not show it.
      const encodedName = await fetch(`${base}?%74oken=${token}`);
      expect(encodedName.status).toBe(200);
      await encodedName.arrayBuffer();
      for (const query of [
        `token[]=${token}`,
        `token%3D${token}`,
        `TOKEN=${token}`,
        `x=1&tok%65n%5B%5D=${token}`,
      ]) {
        const answer = await read(await fetch(`${base}?${query}`));
        expect(answer.status, query).toBe(400);
        expect(answer.text, query).not.toContain(token);
        expect(answer.text, query).not.toContain(token.split('.')[1]!);
      }
      const log = api.output();
      expect(log).toContain(`/v1/files/${privateB.id}/video?token=[redacted]`);
      expect(log).not.toContain(token.split('.')[1]!);
    });

    it('a token in the path (an encoded "?", ";token=", a segment too many) is neither logged nor echoed', async () => {
      const token = tokenOf(privateB.video!.downloadUrl);
      const signature = token.split('.')[1]!;
      const file = `/v1/files/${privateB.id}/video`;
      const logStart = api.output().length;
      const spellings: [path: string, status: number, code: string, shown: string][] = [
        [`${file}%3Ftoken=${token}`, 400, 'validation_failed', `/v1/files/${privateB.id}/[redacted]`],
        [`${file};token=${token}`, 400, 'validation_failed', `/v1/files/${privateB.id}/[redacted]`],
        [`${file}/${token}`, 404, 'not_found', `${file}/[redacted]`],
      ];
      for (const [path, status, code, shown] of spellings) {
        const answer = await read(await fetch(`${api.baseUrl}${path}`));
        const problem = expectProblem(answer, status, code);
        expect(answer.text, path).not.toContain(signature);
        // What was asked for stays readable up to where the token starts.
        expect(problem.instance, path).toBe(shown);
      }
      const log = await until('the three requests in the log', () => {
        const logged = api.output().slice(logStart);
        return spellings.every(([, , , shown]) => logged.includes(`"url":"${shown}"`)) && logged;
      });
      expect(log).not.toContain(signature);
    });

    it('refuses a tampered, malformed or stretched token with 403', async () => {
      const token = tokenOf(privateA.video!.downloadUrl);
      const [expiry, signature] = token.split('.') as [string, string];
      const flipped = `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`;
      const forged = [
        `${expiry}.${flipped}`,
        // The same signature with a later expiry: a link cannot be extended.
        `${Number(expiry) + 3600}.${signature}`,
      ];
      const malformed = [
        'abc',
        `${expiry}.`,
        `.${signature}`,
        `${expiry}.${signature}x`,
        `${expiry}-${signature}`,
      ];
      for (const bad of [...forged, ...malformed]) {
        expectProblem(await read(await fetch(fileUrl(privateA, 'video', bad))), 403, 'forbidden');
      }
    });

    it("refuses one render's token on another render, and a video token on the poster", async () => {
      const tokenA = tokenOf(privateA.video!.downloadUrl);
      expectProblem(await read(await fetch(fileUrl(privateB, 'video', tokenA))), 403, 'forbidden');
      const tokenB = tokenOf(privateB.video!.downloadUrl);
      expectProblem(await read(await fetch(fileUrl(privateA, 'video', tokenB))), 403, 'forbidden');

      expect(privateA.poster).not.toBeNull();
      expectProblem(await read(await fetch(fileUrl(privateA, 'poster', tokenA))), 403, 'forbidden');
      const posterToken = tokenOf(privateA.poster!.downloadUrl);
      expectProblem(await read(await fetch(fileUrl(privateA, 'video', posterToken))), 403, 'forbidden');
      // Its own token opens the poster.
      const { response } = await getFile(privateA.poster!.downloadUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
    });

    it('serves the receipt like the video: public at a plain link, private only with its own token', async () => {
      expect(publicJob.video!.receiptUrl).toBe(`${api.baseUrl}/v1/files/${publicJob.id}/receipt`);
      const open = await getFile(publicJob.video!.receiptUrl!);
      expect(open.response.status).toBe(200);
      expect(JSON.parse(Buffer.from(open.bytes).toString('utf8'))).toEqual(publicJob.receipt);

      expectProblem(await read(await fetch(fileUrl(privateA, 'receipt'))), 401, 'unauthorized');
      const videoToken = tokenOf(privateA.video!.downloadUrl);
      expectProblem(await read(await fetch(fileUrl(privateA, 'receipt', videoToken))), 403, 'forbidden');
      const receiptToken = tokenOf(privateA.video!.receiptUrl!);
      expectProblem(await read(await fetch(fileUrl(privateA, 'video', receiptToken))), 403, 'forbidden');
      expectProblem(await read(await fetch(fileUrl(privateB, 'receipt', receiptToken))), 403, 'forbidden');
      const { response, bytes } = await getFile(privateA.video!.receiptUrl!);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toMatch(/^private/);
      const receipt = JSON.parse(Buffer.from(bytes).toString('utf8')) as NonNullable<
        RenderJobBody['receipt']
      >;
      expect(receipt).toEqual(privateA.receipt);
      expect(receipt.output.sha256).toBe(privateA.video!.sha256);
    });

    it('serves byte ranges: bytes=0-99 is a 206 of 100 bytes; a range past the end is 416', async () => {
      const url = privateA.video!.downloadUrl;
      const size = privateA.video!.bytes;
      const whole = (await getFile(url)).bytes;
      const { response, bytes } = await getFile(url, { range: 'bytes=0-99' });
      expect(response.status).toBe(206);
      expect(response.headers.get('content-range')).toBe(`bytes 0-99/${size}`);
      expect(response.headers.get('content-length')).toBe('100');
      expect(bytes.byteLength).toBe(100);
      expect(Buffer.from(bytes)).toEqual(Buffer.from(whole.subarray(0, 100)));

      const past = await getFile(url, { range: 'bytes=999999999-' });
      expect(past.response.status).toBe(416);
      expect(past.response.headers.get('content-range')).toBe(`bytes */${size}`);
    });

    it('a render past its ttl answers 410, its link and its job alike', async () => {
      const created = await post({ spec: TINY_SPEC, options: DRAFT, ttl: '2s' });
      expect(created.status, created.text).toBe(202);
      const queued = created.body as RenderJobBody;
      expect(Date.parse(queued.expiresAt) - Date.parse(queued.createdAt as string)).toBe(2000);
      // The ttl starts over when the render ends, so the link is good for 2 s from then.
      const done = await waitForRender(api, queued.id);
      expect(done.status).toBe('succeeded');
      const expiresAt = Date.parse(done.expiresAt);
      expect(expiresAt - Date.parse(done.finishedAt as string)).toBe(2000);
      const link = done.video!.downloadUrl;
      downloadTokens.add(tokenOf(link));
      await sleep(Math.max(0, expiresAt - Date.now()) + 500);

      expectProblem(await read(await fetch(link)), 410, 'expired');
      expectProblem(await call(`/v1/renders/${queued.id}`), 410, 'expired');
    });

    it('answers 404 for a file of an unknown render', async () => {
      expectProblem(
        await read(await fetch(`${api.baseUrl}/v1/files/rnd_unknownunknownunknown00/video`)),
        404,
        'not_found',
      );
    });
  });

  describe('request errors', () => {
    it('an unknown top-level field → 400 at its pointer', async () => {
      const problem = expectProblem(await post({ key: 'stats', colour: 'red' }), 400, 'validation_failed');
      expect(pointers(problem)).toEqual(['/colour']);
    });

    it('an unknown field inside options → 400 at /options/…', async () => {
      const problem = expectProblem(
        await post({ key: 'stats', options: { quality: 'draft', colour: 'red' } }),
        400,
        'validation_failed',
      );
      expect(pointers(problem)).toEqual(['/options/colour']);
    });

    it('wrong types (options.format: 5, ttl: 48) → 400 at both pointers', async () => {
      const problem = expectProblem(
        await post({ key: 'stats', options: { format: 5 }, ttl: 48 }),
        400,
        'validation_failed',
      );
      expect(new Set(pointers(problem))).toEqual(new Set(['/options/format', '/ttl']));
    });

    it('a value outside an enum → 400 naming the allowed values', async () => {
      const problem = expectProblem(
        await post({ key: 'stats', options: { quality: 'ultra' }, visibility: 'secret' }),
        400,
        'validation_failed',
      );
      expect(new Set(pointers(problem))).toEqual(new Set(['/options/quality', '/visibility']));
      const quality = problem.errors!.find((e) => e.pointer === '/options/quality')!;
      expect(quality.message).toContain('draft');
    });

    it('a ttl of the wrong form, or longer than MAX_TTL → 400 at /ttl', async () => {
      for (const ttl of ['48', '0h', '1.5h', '2w']) {
        const problem = expectProblem(await post({ key: 'stats', ttl }), 400, 'validation_failed');
        expect(pointers(problem), ttl).toEqual(['/ttl']);
      }
      const tooLong = expectProblem(await post({ key: 'stats', ttl: '999d' }), 400, 'validation_failed');
      expect(pointers(tooLong)).toEqual(['/ttl']);
    });

    it('both key and spec, or neither → 400 "exactly one"', async () => {
      for (const body of [{ key: 'stats', spec: TINY_SPEC }, { options: DRAFT }]) {
        const problem = expectProblem(await post(body), 400, 'validation_failed');
        expect(problem.errors?.length).toBeGreaterThan(0);
        expect(problem.errors!.map((e) => e.message).join(' ')).toMatch(/exactly one/);
      }
    });

    it('an invalid spec → 400 invalid_spec with pointers under /spec', async () => {
      const spec = structuredClone(TINY_SPEC) as { scenes: Record<string, unknown>[] };
      spec.scenes[0]!.duration = 'soon';
      const problem = expectProblem(await post({ spec }), 400, 'invalid_spec');
      expect(pointers(problem)).toContain('/spec/scenes/0/duration');
    });

    it('an unknown composition key → 400 at /key', async () => {
      const problem = expectProblem(await post({ key: 'no-such-key' }), 400, 'unknown_key');
      expect(pointers(problem)).toEqual(['/key']);
    });

    it('malformed JSON → 400 invalid_json', async () => {
      expectProblem(await postRaw('{"key": "stats",'), 400, 'invalid_json');
    });

    it('a body with a "__proto__" key → 400 invalid_json', async () => {
      expectProblem(await postRaw('{"key":"stats","__proto__":{"x":1}}'), 400, 'invalid_json');
    });

    it('a non-JSON content type → 415', async () => {
      expectProblem(
        await postRaw('key=stats', 'application/x-www-form-urlencoded'),
        415,
        'unsupported_media_type',
      );
    });

    // Sent as raw text: JSON.stringify cannot write a number that overflows.
    const specWith = (duration: string, size: string) =>
      `{"spec":{"kinoSpec":1,"aspect":"square","fps":30,"scenes":[{"duration":${duration},"elements":[{"type":"text","text":"Hi","size":${size}}]}]},"options":{"quality":"draft"}}`;

    it('a duration that overflows (1e400) → 400 invalid_spec, not a 500', async () => {
      const problem = expectProblem(await postRaw(specWith('1e400', '120')), 400, 'invalid_spec');
      expect(pointers(problem)).toContain('/spec/scenes/0/duration');
    });

    it('a huge finite duration (1e308 s) → 400 invalid_spec, not a render that fails later', async () => {
      const answer = await postRaw(specWith('1e308', '120'));
      if (answer.status === 202) await call(`/v1/renders/${String(answer.body.id)}`, { method: 'DELETE' });
      const problem = expectProblem(answer, 400, 'invalid_spec');
      expect(pointers(problem)).toContain('/spec/scenes/0/duration');
    });

    it('a huge size (1e308) → 400 invalid_spec, not a 500', async () => {
      const answer = await postRaw(specWith('"1s"', '1e308'));
      if (answer.status === 202) await call(`/v1/renders/${String(answer.body.id)}`, { method: 'DELETE' });
      const problem = expectProblem(answer, 400, 'invalid_spec');
      expect(pointers(problem)).toContain('/spec/scenes/0/elements/0/size');
    });

    it('a body over MAX_BODY (2KiB here) → 413', async () => {
      const spec = { ...TINY_SPEC, title: 'x'.repeat(4000) };
      const problem = expectProblem(await post({ spec }), 413, 'body_too_large');
      expect(problem.detail).toContain('2048');
    });

    it('prompt and edit inputs with no provider configured → 503 ai_unavailable naming the settings', async () => {
      const problem = expectProblem(await post({ prompt: 'a cat video' }), 503, 'ai_unavailable');
      expect(problem.detail).toMatch(/no AI provider is configured on this server/);
      expect(problem.detail).toMatch(
        /OPENAI_API_KEY.*ANTHROPIC_API_KEY.*GOOGLE_GENERATIVE_AI_API_KEY.*OPENAI_COMPATIBLE_BASE_URL/,
      );
      expectProblem(
        await post({ edit: { base: 'rnd_aaaaaaaaaaaaaaaaaaaaaaaa', change: 'make it blue' } }),
        503,
        'ai_unavailable',
      );
    });

    it('an unknown render id → 404; an unknown route → 404 problem', async () => {
      expectProblem(await call('/v1/renders/rnd_unknownunknownunknown00'), 404, 'not_found');
      expectProblem(
        await call('/v1/renders/rnd_unknownunknownunknown00', { method: 'DELETE' }),
        404,
        'not_found',
      );
      expectProblem(await read(await fetch(`${api.baseUrl}/v1/nothing-here`)), 404, 'not_found');
      expectProblem(await call('/v2/renders', { method: 'POST', json: { key: 'stats' } }), 404, 'not_found');
    });
  });

  describe('bearer tokens', () => {
    it('no bearer → 401 with a WWW-Authenticate challenge', async () => {
      for (const [path, method] of [
        ['/v1/renders', 'POST'],
        ['/v1/renders/rnd_unknownunknownunknown00', 'GET'],
        ['/v1/renders/rnd_unknownunknownunknown00', 'DELETE'],
        ['/v1/maintenance/cleanup', 'POST'],
      ] as const) {
        const answer = await read(
          await fetch(`${api.baseUrl}${path}`, {
            method,
            ...(method === 'POST'
              ? { body: JSON.stringify({ key: 'stats' }), headers: { 'content-type': 'application/json' } }
              : {}),
          }),
        );
        expectProblem(answer, 401, 'unauthorized');
        expect(answer.headers.get('www-authenticate'), `${method} ${path}`).toMatch(/^Bearer /);
      }
    });

    it('a wrong bearer → 401', async () => {
      const answer = await call('/v1/renders', {
        method: 'POST',
        json: { key: 'stats' },
        headers: { authorization: `Bearer ${WRONG_TOKEN}` },
      });
      expectProblem(answer, 401, 'unauthorized');
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
      const basic = await call('/v1/renders/rnd_unknownunknownunknown00', {
        headers: { authorization: `Basic ${Buffer.from(`u:${TEST_API_TOKEN}`).toString('base64')}` },
      });
      expectProblem(basic, 401, 'unauthorized');
    });

    it('the cleanup token cannot render; the API token cannot clean up', async () => {
      const cleanupBearer = { authorization: `Bearer ${TEST_CLEANUP_TOKEN}` };
      expectProblem(
        await call('/v1/renders', { method: 'POST', json: { key: 'stats' }, headers: cleanupBearer }),
        401,
        'unauthorized',
      );
      expectProblem(
        await call('/v1/renders/rnd_unknownunknownunknown00', { headers: cleanupBearer }),
        401,
        'unauthorized',
      );
      expectProblem(
        await call('/v1/maintenance/cleanup', { method: 'POST', json: { dryRun: true } }),
        401,
        'unauthorized',
      );
      // Each token does its own job.
      const cleanup = await call('/v1/maintenance/cleanup', {
        method: 'POST',
        json: { dryRun: true },
        headers: cleanupBearer,
      });
      expect(cleanup.status, cleanup.text).toBe(200);
      expect(cleanup.body).toEqual({
        scanned: expect.any(Number),
        deletedFiles: expect.any(Number),
        deletedJobs: expect.any(Number),
        freedBytes: expect.any(Number),
        dryRun: true,
      });
    });
  });

  describe('cancel', () => {
    it('DELETE cancels a running and a queued render; a second DELETE is 409', async () => {
      // One render slot (RENDER_CONCURRENCY=1): a long render runs, a tiny one waits behind it.
      const long = await post({ key: 'product-launch', visibility: 'public' });
      expect(long.status, long.text).toBe(202);
      const longId = (long.body as RenderJobBody).id;
      await waitForRender(api, longId, { until: (job) => job.status !== 'queued', timeoutMs: 60_000 });
      const waiting = await post({ spec: TINY_SPEC, options: DRAFT, visibility: 'public' });
      expect(waiting.status, waiting.text).toBe(202);
      const waitingId = (waiting.body as RenderJobBody).id;

      const states = new Map<string, string>();
      for (const id of [waitingId, longId]) {
        states.set(id, ((await call(`/v1/renders/${id}`)).body as RenderJobBody).status);
        const canceled = await call(`/v1/renders/${id}`, { method: 'DELETE' });
        expect(canceled.status, canceled.text).toBe(200);
        expect(canceled.headers.get('content-type')).toMatch(/^application\/json/);
        expect((canceled.body as RenderJobBody).status).toBe('canceled');
      }
      expect(states.get(longId)).toBe('running');
      expect(states.get(waitingId)).toBe('queued');

      await sleep(1000);
      for (const id of [waitingId, longId]) {
        const job = (await call(`/v1/renders/${id}`)).body as RenderJobBody;
        expect(job.status).toBe('canceled');
        expect(job.video).toBeNull();
        expect(job.poster).toBeNull();
        expect(existsSync(join(api.dataDir, 'files', id))).toBe(false);
        expectProblem(await read(await fetch(`${api.baseUrl}/v1/files/${id}/video`)), 404, 'not_found');
        expectProblem(await call(`/v1/renders/${id}`, { method: 'DELETE' }), 409, 'not_cancelable');
      }

      // The slot is free again: the next render runs.
      await render({ spec: TINY_SPEC, options: DRAFT });
    });

    it('DELETE of a finished render is 409', async () => {
      const job = await render({ spec: TINY_SPEC, options: DRAFT });
      expectProblem(await call(`/v1/renders/${job.id}`, { method: 'DELETE' }), 409, 'not_cancelable');
      const after = (await call(`/v1/renders/${job.id}`)).body as RenderJobBody;
      expect(after.status).toBe('succeeded');
    });
  });

  // Last: everything above has been logged by now.
  it('never writes a bearer token or a download token to its log', () => {
    const log = api.output();
    expect(log).toContain('/v1/files/');
    for (const secret of [TEST_API_TOKEN, TEST_CLEANUP_TOKEN, WRONG_TOKEN, SIGNING_SECRET]) {
      expect(log).not.toContain(secret);
    }
    expect(downloadTokens.size).toBeGreaterThan(0);
    for (const token of downloadTokens) {
      expect(log).not.toContain(token);
      expect(log).not.toContain(token.split('.')[1]!);
    }
    expect(log).not.toMatch(/token=(?!\[redacted\])/);
  });
});

describe('render API: rate limit (RATE_LIMIT=3/min)', () => {
  let api: RunningApi;

  beforeAll(async () => {
    api = await startApi({ env: { RATE_LIMIT: '3/min' } });
  });

  afterAll(async () => {
    if (api) {
      await api.stop();
      removeDataDir(api.dataDir);
    }
  });

  it('the 4th request with one token is 429 with Retry-After in whole seconds; other callers are not counted with it', async () => {
    for (let i = 0; i < 3; i++) {
      expectProblem(await read(await api.api('/v1/renders/rnd_unknownunknownunknown00')), 404, 'not_found');
    }
    const limited = await read(await api.api('/v1/renders/rnd_unknownunknownunknown00'));
    expectProblem(limited, 429, 'rate_limited');
    const retryAfter = limited.headers.get('retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    // Still limited, on any route that takes that token.
    expectProblem(
      await read(await api.api('/v1/renders', { method: 'POST', json: { spec: TINY_SPEC, options: DRAFT } })),
      429,
      'rate_limited',
    );

    // Health probes are not limited at all.
    for (let i = 0; i < 5; i++) {
      const health = await fetch(`${api.baseUrl}/v1/healthz`);
      expect(health.status).toBe(200);
      await health.arrayBuffer();
    }
    // Another token has its own allowance.
    const cleanup = await read(
      await api.api('/v1/maintenance/cleanup', {
        method: 'POST',
        json: { dryRun: true },
        headers: { authorization: `Bearer ${TEST_CLEANUP_TOKEN}` },
      }),
    );
    expect(cleanup.status, cleanup.text).toBe(200);
  });
});
