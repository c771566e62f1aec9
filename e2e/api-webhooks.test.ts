// Webhooks over real HTTP: a loopback receiver checks each Standard Webhooks signature with the
// standardwebhooks package and plays failures; the server retries on its schedule, records every
// attempt in the job, and keeps retrying across a restart.
import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import { hostname } from 'node:os';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { isPublicUnicastAddress } from '../main/media/safe-fetch.ts';
import { TINY_SPEC, readAnswer, until, useApiServers, waitForRender } from './api-server.ts';
import type { RenderJobBody, RunningApi } from './api-server.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

interface Received {
  id: string;
  event: string;
  job: RenderJobBody;
  verified: boolean;
}

/** A webhook receiver: answers each request with the next scripted status (then 200). */
async function startReceiver(script: number[] = []) {
  const received: Received[] = [];
  const verifier = new Webhook(SECRET);
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      let verified: boolean;
      try {
        verifier.verify(body, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      received.push({
        id: String(req.headers['webhook-id']),
        event: String(req.headers['kino-event']),
        job: JSON.parse(body) as RenderJobBody,
        verified,
      });
      const status = script.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(status === 200 ? 'ok' : 'try again later');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/kino`;
  receivers.push(server);
  return { url, received, script };
}
const receivers: ReturnType<typeof createServer>[] = [];
afterEach(async () => {
  for (const server of receivers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const servers = useApiServers();
const env = {
  WEBHOOK_SECRET: SECRET,
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_SCHEDULE: '300ms,300ms,300ms',
};

async function render(api: RunningApi, body: Record<string, unknown>) {
  const created = await readAnswer(
    await api.api('/v1/renders', {
      method: 'POST',
      json: { spec: TINY_SPEC, options: { quality: 'draft' }, ...body },
    }),
  );
  expect(created.status, created.text).toBe(202);
  return waitForRender(api, created.body.id as string);
}

const job = async (api: RunningApi, id: string) =>
  (await readAnswer(await api.api(`/v1/renders/${id}`))).body as unknown as RenderJobBody;

describe('webhooks', () => {
  it(
    'posts the finished job, signed the Standard Webhooks way, and records the delivery',
    { timeout: 60_000 },
    async () => {
      const receiver = await startReceiver();
      const api = await servers.start({ env });
      const done = await render(api, { webhook: { url: receiver.url } });
      expect(done.webhook).toMatchObject({
        url: receiver.url,
        events: ['render.succeeded', 'render.failed', 'render.canceled'],
      });
      await until('the delivery', () => receiver.received.length === 1);
      const [delivery] = receiver.received;
      expect(delivery).toMatchObject({
        event: 'render.succeeded',
        verified: true,
        id: `msg_${done.id}_render.succeeded`,
      });
      expect(delivery!.job).toMatchObject({ id: done.id, status: 'succeeded' });
      expect(delivery!.job.video?.sha256).toBe(done.video?.sha256);
      const recorded = await until('the recorded delivery', async () => {
        const current = await job(api, done.id);
        return current.webhook?.state === 'delivered' ? current : undefined;
      });
      expect(recorded.webhook!.deliveries).toEqual([{ at: expect.any(String), status: 200, error: null }]);
    },
  );

  it(
    'retries with the same id until the receiver takes it, recording each attempt',
    { timeout: 60_000 },
    async () => {
      const receiver = await startReceiver([500, 503]);
      const api = await servers.start({ env });
      const done = await render(api, { webhook: { url: receiver.url } });
      const recorded = await until('delivery after two failures', async () => {
        const current = await job(api, done.id);
        return current.webhook?.state === 'delivered' ? current : undefined;
      });
      expect(recorded.webhook!.deliveries.map((attempt) => attempt.status)).toEqual([500, 503, 200]);
      expect(recorded.webhook!.deliveries[0]!.error).toBe('HTTP 500: try again later');
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(1);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
    },
  );

  it('gives up after the last retry, marked failed', { timeout: 60_000 }, async () => {
    const receiver = await startReceiver([500, 500, 500, 500, 500]);
    const api = await servers.start({ env: { ...env, WEBHOOK_RETRY_SCHEDULE: '200ms' } });
    const done = await render(api, { webhook: { url: receiver.url } });
    const recorded = await until('the delivery to fail', async () => {
      const current = await job(api, done.id);
      return current.webhook?.state === 'failed' ? current : undefined;
    });
    expect(recorded.webhook!.deliveries.map((attempt) => attempt.status)).toEqual([500, 500]);
  });

  it('keeps retrying after a restart', { timeout: 90_000 }, async () => {
    const receiver = await startReceiver([500]);
    const slow = { ...env, WEBHOOK_RETRY_SCHEDULE: '3s' };
    const first = await servers.start({ env: slow });
    const done = await render(first, { webhook: { url: receiver.url } });
    await until(
      'the first, failed attempt',
      async () => (await job(first, done.id)).webhook?.deliveries.length === 1,
    );
    expect(await first.stop('SIGTERM')).toBe(0);
    const second = await servers.start({ dataDir: first.dataDir, env: slow });
    const recorded = await until(
      'the retry after the restart',
      async () => {
        const current = await job(second, done.id);
        return current.webhook?.state === 'delivered' ? current : undefined;
      },
      { timeoutMs: 30_000 },
    );
    expect(recorded.webhook!.deliveries.map((attempt) => attempt.status)).toEqual([500, 200]);
  });

  it('sends only the events asked for, and uses WEBHOOK_URL by default', { timeout: 60_000 }, async () => {
    const receiver = await startReceiver();
    const api = await servers.start({ env: { ...env, WEBHOOK_URL: receiver.url } });
    const quiet = await render(api, { webhook: { url: receiver.url, events: ['render.failed'] } });
    const defaulted = await render(api, {});
    expect(defaulted.webhook?.url).toBe(receiver.url);
    await until('the default webhook', () => receiver.received.some((r) => r.job.id === defaulted.id));
    await until('the skipped one', async () => (await job(api, quiet.id)).webhook?.state === 'skipped');
    expect(receiver.received.some((r) => r.job.id === quiet.id)).toBe(false);
  });

  it(
    'checks the address again at connect: a public-looking host that resolves to loopback is not called',
    { timeout: 60_000 },
    async () => {
      // This machine's own name resolves to a loopback or private address (/etc/hosts).
      const host = hostname();
      const addresses = await lookup(host, { all: true }).catch(() => []);
      if (addresses.length === 0 || addresses.some((a) => isPublicUnicastAddress(a.address))) {
        console.warn(
          `SKIPPED: ${host} does not resolve to a private address here, so the connect-time check cannot be shown`,
        );
        return;
      }
      const receiver = await startReceiver();
      const port = new URL(receiver.url).port;
      const api = await servers.start({ env: { WEBHOOK_SECRET: SECRET, WEBHOOK_RETRY_SCHEDULE: '0' } });
      const done = await render(api, { webhook: { url: `https://${host}:${port}/hooks` } });
      const recorded = await until('the refused delivery', async () => {
        const current = await job(api, done.id);
        return current.webhook?.state === 'failed' ? current : undefined;
      });
      expect(recorded.webhook!.deliveries).toEqual([
        { at: expect.any(String), status: null, error: expect.stringMatching(/not a public address/) },
      ]);
      expect(receiver.received).toEqual([]);
    },
  );

  it(
    'refuses webhook URLs that are not https or not public, unless WEBHOOK_ALLOW_PRIVATE',
    { timeout: 60_000 },
    async () => {
      const api = await servers.start({ env: { WEBHOOK_SECRET: SECRET } });
      for (const [url, reason] of [
        ['http://hooks.example.com/x', /https only/],
        ['https://127.0.0.1/x', /public addresses only/],
        ['https://[::1]/x', /public addresses only/],
        ['https://169.254.169.254/latest', /public addresses only/],
        ['https://localhost/x', /public hosts only/],
        ['https://user:pass@hooks.example.com/x', /credentials/],
      ] as const) {
        const refused = await readAnswer(
          await api.api('/v1/renders', { method: 'POST', json: { spec: TINY_SPEC, webhook: { url } } }),
        );
        expect(refused.status, url).toBe(400);
        expect(refused.body.errors, url).toEqual([
          { pointer: '/webhook/url', message: expect.stringMatching(reason) },
        ]);
      }
    },
  );
});
