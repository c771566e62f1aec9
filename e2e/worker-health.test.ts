// `kino worker`'s health endpoint (WORKER_HEALTH_PORT), as Kubernetes or Compose probe it: /healthz
// while the process runs; /readyz 200 only while it takes renders and Redis and storage answer, 503
// with the reason when its storage stops taking files and while it drains after SIGTERM.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { postRender, until, waitForRender } from './api-server.ts';
import { hasRedisServer, useQueueCluster } from './queue-cluster.ts';
import type { RunningWorker } from './queue-cluster.ts';

const cluster = useQueueCluster('kino worker health endpoint');

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Where the worker says its health endpoint listens, on the line it prints once taking renders. */
function healthUrl(worker: RunningWorker): Promise<string> {
  return until('the worker to print where its health endpoint listens', () => {
    return /health on (http:\/\/127\.0\.0\.1:\d+)\/healthz/.exec(worker.output())?.[1];
  });
}

async function probe(base: string, route: '/healthz' | '/readyz') {
  const response = await fetch(`${base}${route}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.skipIf(!hasRedisServer)('kino worker health endpoint', () => {
  it('listens nowhere unless WORKER_HEALTH_PORT is set', async () => {
    const worker = await cluster.startWorker();
    await until('the line it prints once taking renders', () =>
      /Kino worker .*: taking/.test(worker.output()),
    );
    expect(worker.output()).not.toMatch(/health on/);
  });

  it('is ready while Redis and storage answer, and says which one stopped answering', async () => {
    const storageDir = mkdtempSync(join(tmpdir(), 'kino-worker-health-'));
    dirs.push(storageDir);
    const worker = await cluster.startWorker({ WORKER_HEALTH_PORT: '0', LOCAL_STORAGE_DIR: storageDir });
    const base = await healthUrl(worker);
    expect(await probe(base, '/healthz')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await probe(base, '/readyz')).toEqual({
      status: 200,
      body: { status: 'ready', checks: { queue: 'ok', redis: 'ok', storage: 'ok' } },
    });
    expect((await fetch(`${base}/v1/renders`)).status).toBe(404);

    // The storage folder becomes a file: nothing can be stored there any more.
    rmSync(storageDir, { recursive: true, force: true });
    writeFileSync(storageDir, 'not a folder');
    const notReady = await until(
      'readyz to name storage',
      async () => {
        const answer = await probe(base, '/readyz');
        return answer.status === 503 ? answer : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
    expect(notReady.body).toMatchObject({
      status: 'not_ready',
      reason: expect.stringMatching(/^storage: storage is not writable at .* check that LOCAL_STORAGE_DIR/),
      checks: { queue: 'ok', redis: 'ok' },
    });
    // Alive all the same: liveness must not restart a worker for its storage.
    expect((await probe(base, '/healthz')).status).toBe(200);

    rmSync(storageDir, { force: true });
    mkdirSync(storageDir);
    await until('readyz to be ready again', async () => (await probe(base, '/readyz')).status === 200, {
      timeoutMs: 30_000,
      intervalMs: 500,
    });
  });

  it('answers 503 while draining after SIGTERM, then exits 0', async () => {
    const api = await cluster.startApi();
    const worker = await cluster.startWorker({ WORKER_HEALTH_PORT: '0', SHUTDOWN_GRACE: '2m' });
    const base = await healthUrl(worker);
    // Several seconds of rendering: long enough to probe the drain while it finishes.
    const job = await postRender(api, { key: 'product-launch', options: { quality: 'draft' } });
    await waitForRender(api, job.id, {
      timeoutMs: 120_000,
      until: (j) => j.status !== 'queued' && (j.status !== 'running' || (j.progress?.framesDone ?? 0) > 0),
    });
    worker.process.kill('SIGTERM');
    const draining = await until('readyz to say the worker drains', async () => {
      const answer = await probe(base, '/readyz').catch(() => undefined);
      return answer?.status === 503 ? answer : undefined;
    });
    expect(draining.body).toMatchObject({
      status: 'not_ready',
      reason: 'queue: not taking renders: draining after a stop signal',
    });
    expect((await probe(base, '/healthz')).status).toBe(200);
    expect(await worker.exited).toBe(0);
    expect((await waitForRender(api, job.id)).status).toBe('succeeded');
    // Gone with the process.
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it('refuses a WORKER_HEALTH_PORT that is no port, in one line', async () => {
    await expect(cluster.startWorker({ WORKER_HEALTH_PORT: 'http' })).rejects.toThrow(
      /kino: invalid configuration: WORKER_HEALTH_PORT: expected a port number/,
    );
  });
});
