// The render API's limits against abuse (issue 12): failed authentications per address, the time a
// request may take to arrive, the queue's depth per token and in all, and the cost of one render.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { TEST_API_TOKEN, TINY_SPEC, readAnswer, until, useApiServers } from './api-server.ts';
import type { Answer, RenderJobBody, RunningApi } from './api-server.ts';

const read = (response: Response) => readAnswer(response);
const servers = useApiServers();

function expectProblem(answer: Answer, status: number, code: string): Record<string, unknown> {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(answer.body.code).toBe(code);
  return answer.body;
}

/** A spec that takes a few seconds to render at draft quality: it holds its place in the queue. */
const SLOW_SPEC = { ...TINY_SPEC, scenes: [{ ...TINY_SPEC.scenes[0]!, duration: '20s' }] };

async function postUntilRefused(
  api: RunningApi,
  max: number,
): Promise<{ accepted: string[]; refused: Answer }> {
  const accepted: string[] = [];
  for (let i = 0; i < max; i++) {
    const answer = await read(
      await api.api('/v1/renders', {
        method: 'POST',
        json: { spec: SLOW_SPEC, options: { quality: 'draft' } },
      }),
    );
    if (answer.status !== 202) return { accepted, refused: answer };
    accepted.push((answer.body as RenderJobBody).id);
  }
  throw new Error(`all ${max} renders were accepted`);
}

async function cancelAll(api: RunningApi, ids: string[]): Promise<void> {
  for (const id of ids) await (await api.api(`/v1/renders/${id}`, { method: 'DELETE' })).arrayBuffer();
}

describe('render API limits (kino serve over HTTP)', () => {
  it('answers 429 after AUTH_FAILURE_LIMIT failed authentications from one address, a right token included', async () => {
    const api = await servers.start({ env: { AUTH_FAILURE_LIMIT: '5/min' } });
    const wrong = { authorization: 'Bearer not-the-token-not-the-token' };
    for (let i = 0; i < 5; i++) {
      const answer = await read(
        await fetch(`${api.baseUrl}/v1/renders/rnd_unknownunknownunknown00`, { headers: wrong }),
      );
      expectProblem(answer, 401, 'unauthorized');
    }
    for (const headers of [wrong, {}, { authorization: `Bearer ${TEST_API_TOKEN}` }]) {
      const limited = await read(
        await fetch(`${api.baseUrl}/v1/renders/rnd_unknownunknownunknown00`, { headers }),
      );
      expectProblem(limited, 429, 'too_many_failed_authentications');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
      expect(limited.body.detail).toMatch(/AUTH_FAILURE_LIMIT/);
    }
    // Open routes stay open.
    expect((await fetch(`${api.baseUrl}/v1/healthz`)).status).toBe(200);
  });

  it('closes a request whose body arrives too slowly (REQUEST_TIMEOUT)', async () => {
    const api = await servers.start({ env: { REQUEST_TIMEOUT: '2s' } });
    const { hostname, port } = new URL(api.baseUrl);
    const started = Date.now();
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () => {
        socket.write(
          `POST /v1/renders HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAuthorization: Bearer ${TEST_API_TOKEN}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"spec":',
        );
        const drip = setInterval(() => socket.write(' '), 200);
        let received = '';
        socket.on('data', (chunk) => (received += chunk.toString('latin1')));
        socket.on('close', () => {
          clearInterval(drip);
          resolve(received);
        });
        socket.on('error', () => undefined);
        setTimeout(() => reject(new Error('the server kept the slow request open for 15 s')), 15_000).unref();
      });
    });
    const elapsed = Date.now() - started;
    expect(reply).toMatch(/^HTTP\/1\.1 408/);
    expect(elapsed).toBeGreaterThanOrEqual(1900);
    expect(elapsed).toBeLessThan(8000);
  });

  it('answers 429 with Retry-After once the token has MAX_QUEUED_PER_TOKEN renders waiting', async () => {
    const api = await servers.start({ env: { MAX_QUEUED_PER_TOKEN: '2' } });
    const { accepted, refused } = await postUntilRefused(api, 6);
    expectProblem(refused, 429, 'too_many_queued');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.body.detail).toMatch(/MAX_QUEUED_PER_TOKEN/);
    // Two waiting, plus at most the one the runner took.
    expect(accepted.length).toBeGreaterThanOrEqual(2);
    expect(accepted.length).toBeLessThanOrEqual(3);
    await cancelAll(api, accepted);
  });

  it('answers 503, and readyz is not ready, while the queue holds MAX_QUEUE_DEPTH renders', async () => {
    const api = await servers.start({ env: { MAX_QUEUE_DEPTH: '2' } });
    expect((await fetch(`${api.baseUrl}/v1/readyz`)).status).toBe(200);
    const { accepted, refused } = await postUntilRefused(api, 6);
    expectProblem(refused, 503, 'queue_full');
    expect(refused.body.detail).toMatch(/MAX_QUEUE_DEPTH/);
    const ready = await read(await fetch(`${api.baseUrl}/v1/readyz`));
    expectProblem(ready, 503, 'not_ready');
    expect(ready.body.detail).toMatch(/queue is full/);
    await cancelAll(api, accepted);
    const again = await read(await fetch(`${api.baseUrl}/v1/readyz`));
    expect(again.status, again.text).toBe(200);
  });

  it('refuses a render over MAX_RENDER_PIXELS with a 400 naming the limit', async () => {
    const api = await servers.start({ env: { MAX_RENDER_PIXELS: '1000000000' } });
    // 60 s at 60 fps, square: 3600 frames of 1080×1080 ≈ 4.2e9 pixels.
    const spec = { ...TINY_SPEC, fps: 60, scenes: [{ ...TINY_SPEC.scenes[0]!, duration: '60s' }] };
    const answer = await read(await api.api('/v1/renders', { method: 'POST', json: { spec } }));
    const problem = expectProblem(answer, 400, 'render_too_large');
    expect(problem.detail).toMatch(/3600 frames of 1080×1080.*MAX_RENDER_PIXELS/);
    expect(problem.errors).toEqual([
      { pointer: '/spec', message: expect.stringMatching(/MAX_RENDER_PIXELS/) },
    ]);
    // A smaller aspect of the same spec fits.
    const ok = await read(
      await api.api('/v1/renders', {
        method: 'POST',
        json: { spec: { ...spec, fps: 10 }, options: { quality: 'draft' } },
      }),
    );
    expect(ok.status, ok.text).toBe(202);
    await cancelAll(api, [(ok.body as RenderJobBody).id]);
  });

  it('refuses a poster past the end the same way for a spec (400) and a key (job fails)', async () => {
    const api = await servers.start();
    const answer = await read(
      await api.api('/v1/renders', { method: 'POST', json: { spec: TINY_SPEC, options: { poster: '2s' } } }),
    );
    const problem = expectProblem(answer, 400, 'poster_out_of_range');
    expect(problem.detail).toMatch(/poster 2s is frame 60, but the render has 30 frames/);
    expect(problem.errors).toEqual([{ pointer: '/options/poster', message: expect.any(String) }]);

    const created = await read(
      await api.api('/v1/renders', {
        method: 'POST',
        json: { key: 'stats', options: { quality: 'draft', poster: '600s' } },
      }),
    );
    expect(created.status, created.text).toBe(202);
    const job = await until('the render to fail', async () => {
      const current = (await read(await api.api(`/v1/renders/${(created.body as RenderJobBody).id}`)))
        .body as RenderJobBody;
      return current.status === 'failed' ? current : undefined;
    });
    expect(job.error).toMatchObject({
      code: 'poster_out_of_range',
      message: expect.stringMatching(/^poster 600s is frame/),
    });
  });
});
