// The render API scaled out (QUEUE_BACKEND=redis): `kino serve` processes that only accept and
// serve, `kino worker` processes that render, a real redis-server between them. Workers killed
// outright, drained with SIGTERM, a cancel reaching the worker that runs the render, cleanup by
// another API instance, and a Redis restart with a render still queued.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { TEST_CLEANUP_TOKEN, TINY_SPEC, sleep, until, waitForRender } from './api-server.ts';
import type { RenderJobBody, RunningApi } from './api-server.ts';
import { hasRedisServer, useQueueCluster } from './queue-cluster.ts';
import type { RunningWorker } from './queue-cluster.ts';

/** Several seconds of rendering at draft quality (261 frames). */
const LONG_KEY = 'product-launch';

const cluster = useQueueCluster('the render API on a Redis queue');

async function postRender(api: RunningApi, body: Record<string, unknown>): Promise<RenderJobBody> {
  const response = await api.api('/v1/renders', { method: 'POST', json: body });
  const job = (await response.json()) as RenderJobBody;
  expect(response.status, JSON.stringify(job)).toBe(202);
  return job;
}

async function getJob(api: RunningApi, id: string): Promise<RenderJobBody | 'gone'> {
  const response = await api.api(`/v1/renders/${id}`);
  if (response.status === 410) {
    await response.body?.cancel();
    return 'gone';
  }
  const job = (await response.json()) as RenderJobBody;
  expect(response.status, JSON.stringify(job)).toBe(200);
  return job;
}

/** Waits until the render is drawing frames, and returns the worker that runs it. */
async function runningOn(api: RunningApi, id: string, workers: RunningWorker[]): Promise<RunningWorker> {
  const job = await waitForRender(api, id, {
    timeoutMs: 120_000,
    until: (j) => j.status !== 'queued' && (j.status !== 'running' || (j.progress?.framesDone ?? 0) > 0),
  });
  expect(job.status, 'the render ended before the test could act on it').toBe('running');
  return until('the worker that runs the render', () =>
    workers.find((worker) => worker.started().includes(id)),
  );
}

async function expectDownloadableVideo(job: RenderJobBody, frames: number): Promise<void> {
  const response = await fetch(job.video!.downloadUrl);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(job.video!.sha256);
  const scratch = mkdtempSync(join(tmpdir(), 'kino-queue-dl-'));
  try {
    const file = join(scratch, 'video.mp4');
    writeFileSync(file, bytes);
    const probe = await probeFile(file);
    expect(probe.video?.codec).toBe('h264');
    expect(probe.video?.frames).toBe(frames);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

describe.skipIf(!hasRedisServer)('the render API on a Redis queue', () => {
  it('two workers take renders from the queue; another API instance shows and serves them', async () => {
    const api = await cluster.startApi();
    const other = await cluster.startApi();
    const workers = [await cluster.startWorker(), await cluster.startWorker()];
    const jobs = [];
    for (let i = 0; i < 4; i++) jobs.push(await postRender(api, { spec: TINY_SPEC }));
    for (const job of jobs) {
      const done = await waitForRender(other, job.id);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      await expectDownloadableVideo(done, 30);
    }
    // The API itself renders nothing on Redis; each worker took some of the four.
    expect(api.output()).not.toMatch(/"msg":"render started"/);
    expect(workers[0]!.started().length + workers[1]!.started().length).toBe(4);
    for (const worker of workers) expect(worker.started().length).toBeGreaterThan(0);
  });

  it('shows live progress on any API instance while a worker renders', async () => {
    const api = await cluster.startApi();
    const other = await cluster.startApi();
    await cluster.startWorker();
    const job = await postRender(api, { key: LONG_KEY, options: { quality: 'draft' } });
    const seen = await waitForRender(other, job.id, {
      timeoutMs: 120_000,
      until: (j) => j.status !== 'running' || (j.progress?.framesDone ?? 0) > 0,
    });
    expect(seen.status).toBe('running');
    expect(seen.progress).toMatchObject({ stage: 'rendering', framesTotal: 261 });
    const done = await waitForRender(api, job.id);
    expect(done.status).toBe('succeeded');
  });

  it('a worker killed with SIGKILL mid-render: another worker finishes the render', async () => {
    const api = await cluster.startApi();
    const workers = [await cluster.startWorker(), await cluster.startWorker()];
    const job = await postRender(api, { key: LONG_KEY, options: { quality: 'draft' } });
    const victim = await runningOn(api, job.id, workers);
    await victim.stop('SIGKILL');
    const survivor = workers.find((worker) => worker !== victim)!;
    const done = await waitForRender(api, job.id, { timeoutMs: 180_000 });
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(survivor.started()).toContain(job.id);
    expect(survivor.output()).toMatch(new RegExp(`"jobId":"${job.id}","attempt":2`));
    await expectDownloadableVideo(done, 261);
  });

  it('fails the render as worker_lost once RENDER_MAX_ATTEMPTS workers died running it', async () => {
    const api = await cluster.startApi({ env: { RENDER_MAX_ATTEMPTS: '1' } });
    const first = await cluster.startWorker({ RENDER_MAX_ATTEMPTS: '1' });
    const job = await postRender(api, { key: LONG_KEY, options: { quality: 'draft' } });
    await runningOn(api, job.id, [first]);
    await first.stop('SIGKILL');
    await cluster.startWorker({ RENDER_MAX_ATTEMPTS: '1' });
    const done = await waitForRender(api, job.id, { timeoutMs: 120_000 });
    expect(done.status).toBe('failed');
    expect(done.error?.code).toBe('worker_lost');
    expect(done.error?.message).toMatch(/worker stopped during this render 1 time.*RENDER_MAX_ATTEMPTS=1/);
  });

  it('SIGTERM drains a worker: with no grace left it hands the render back, and another finishes it', async () => {
    const api = await cluster.startApi();
    const leaving = await cluster.startWorker({ SHUTDOWN_GRACE: '0' });
    const job = await postRender(api, { key: LONG_KEY, options: { quality: 'draft' } });
    await runningOn(api, job.id, [leaving]);
    expect(await leaving.stop('SIGTERM')).toBe(0);
    expect(leaving.output()).toMatch(/render stopped by shutdown; queued again/);
    const back = await getJob(api, job.id);
    expect(back !== 'gone' && back.status).toBe('queued');
    const staying = await cluster.startWorker();
    const done = await waitForRender(api, job.id, { timeoutMs: 180_000 });
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(staying.started()).toContain(job.id);
  });

  it('SIGTERM with grace lets the running render finish, takes nothing new, then exits 0', async () => {
    const api = await cluster.startApi();
    const worker = await cluster.startWorker({ SHUTDOWN_GRACE: '2m' });
    const job = await postRender(api, { spec: TINY_SPEC });
    const waiting = await postRender(api, { spec: TINY_SPEC });
    await runningOn(api, job.id, [worker]);
    expect(await worker.stop('SIGTERM')).toBe(0);
    expect((await getJob(api, job.id)) !== 'gone' && (await waitForRender(api, job.id)).status).toBe(
      'succeeded',
    );
    const left = await getJob(api, waiting.id);
    expect(left !== 'gone' && left.status).toBe('queued');
  });

  it('a cancel reaches the worker that runs the render, which stops it and goes on working', async () => {
    const api = await cluster.startApi();
    const worker = await cluster.startWorker();
    const job = await postRender(api, { key: LONG_KEY, options: { quality: 'draft' } });
    await runningOn(api, job.id, [worker]);
    const response = await api.api(`/v1/renders/${job.id}`, { method: 'DELETE' });
    expect(response.status).toBe(200);
    await until('the worker to stop the render', () => /"msg":"render canceled"/.test(worker.output()), {
      timeoutMs: 20_000,
    });
    const after = await getJob(api, job.id);
    expect(after !== 'gone' && after.status).toBe('canceled');
    // The worker's slot is free again.
    const next = await postRender(api, { spec: TINY_SPEC });
    expect((await waitForRender(api, next.id)).status).toBe('succeeded');
  });

  it('cleanup on one API instance removes what another accepted; both answer 410', async () => {
    const api = await cluster.startApi();
    const other = await cluster.startApi();
    await cluster.startWorker();
    const job = await postRender(api, { spec: TINY_SPEC, ttl: '3s' });
    expect((await waitForRender(api, job.id)).status).toBe('succeeded');
    await sleep(3500);
    const response = await other.api('/v1/maintenance/cleanup', {
      method: 'POST',
      json: { dryRun: false },
      headers: { authorization: `Bearer ${TEST_CLEANUP_TOKEN}` },
    });
    const report = (await response.json()) as { deletedJobs: number; deletedFiles: number };
    expect(response.status).toBe(200);
    expect(report.deletedJobs).toBe(1);
    expect(report.deletedFiles).toBeGreaterThanOrEqual(2);
    expect(await getJob(api, job.id)).toBe('gone');
    expect(await getJob(other, job.id)).toBe('gone');
  });

  it('a Redis restart loses no accepted render', async () => {
    const api = await cluster.startApi();
    const job = await postRender(api, { spec: TINY_SPEC });
    await cluster.redis.restart();
    // No worker was running: the render waited in Redis through the restart.
    await cluster.startWorker();
    const done = await waitForRender(api, job.id, { timeoutMs: 60_000 });
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
  });

  it('kino worker refuses to start without the Redis queue, in one line', async () => {
    const { runKino } = await import('./cli-helpers.ts');
    const result = await runKino(['worker'], { env: { QUEUE_BACKEND: '', REDIS_URL: '', BASE_URL: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/set QUEUE_BACKEND=redis and REDIS_URL/);
  });
});
