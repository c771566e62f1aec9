// The render API scaled out (QUEUE_BACKEND=redis): `kino serve` processes that only accept and
// serve, `kino worker` processes that render, a real redis-server between them. Workers killed
// outright, drained with SIGTERM, a cancel reaching the worker that runs the render, cleanup by
// another API instance, and a Redis restart with a render still queued.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { S3_TEST_KEY, startS3Server } from '../main/storage/s3-server.fixture.ts';
import {
  TEST_CLEANUP_TOKEN,
  TINY_SPEC,
  getJob,
  postRender,
  readAnswer,
  serverEnv,
  sleep,
  until,
  waitForRender,
} from './api-server.ts';
import type { RenderJobBody, RunningApi } from './api-server.ts';
import { REPO_ROOT, runKino } from './cli-helpers.ts';
import { hasRedisServer, useQueueCluster } from './queue-cluster.ts';
import type { RunningWorker } from './queue-cluster.ts';

/**
 * Four seconds with a soundtrack, a looping slowed video clip and moving text: what chunk
 * boundaries could break (clip frames, animation times, audio).
 */
const CHUNKED_SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 30,
  audio: [{ src: 'asset:music-loop.m4a', volume: 0.6, loop: true, fadeIn: '300ms', fadeOut: '500ms' }],
  scenes: [
    {
      duration: '4s',
      background: { type: 'video', src: 'asset:clip-waves.mp4', fit: 'cover', rate: 0.75, loop: true },
      elements: [{ type: 'text', text: 'Chunked', size: 110, animate: [{ preset: 'slideFadeIn' }] }],
    },
  ],
};

/** Per-frame MD5s of the decoded video, and the MD5 of the decoded audio samples. */
function decodedHashes(file: string): { frames: string[]; audio: string } {
  const frames = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:v', '-f', 'framemd5', '-'], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(',').at(-1)!.trim());
  const audio = execFileSync('ffmpeg', ['-v', 'error', '-i', file, '-map', '0:a', '-f', 's16le', '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return { frames, audio: createHash('md5').update(audio).digest('hex') };
}

/** Several seconds of rendering at draft quality (261 frames). */
const LONG_KEY = 'product-launch';

const cluster = useQueueCluster('the render API on a Redis queue');

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
      until: (j) => j.status !== 'queued' && (j.status !== 'running' || (j.progress?.framesDone ?? 0) > 0),
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

  it('an API with RENDER_CONCURRENCY > 0 renders from the queue itself; readyz names a Redis that is down', async () => {
    const api = await cluster.startApi({ env: { RENDER_CONCURRENCY: '1' } });
    const job = await postRender(api, { spec: TINY_SPEC });
    const done = await waitForRender(api, job.id);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(api.output()).toMatch(new RegExp(`"jobId":"${job.id}"[^\\n]*"msg":"render started"`));
    const ready = await api.api('/v1/readyz');
    expect(ready.status).toBe(200);
    await ready.body?.cancel();
    await cluster.redis.stop();
    try {
      const down = await api.api('/v1/readyz');
      const problem = (await down.json()) as { detail: string };
      expect(down.status).toBe(503);
      expect(JSON.stringify(problem)).toMatch(/job store does not answer/);
    } finally {
      await cluster.redis.restart();
    }
  });

  it('while Redis is down, requests that need the job store answer 503 with Retry-After, then work again', async () => {
    const api = await cluster.startApi();
    const queued = await postRender(api, { spec: TINY_SPEC });
    await cluster.redis.stop();
    try {
      const requests: [string, RequestInit & { json?: unknown }][] = [
        ['/v1/renders', { method: 'POST', json: { spec: TINY_SPEC } }],
        [`/v1/renders/${queued.id}`, {}],
        [`/v1/renders/${queued.id}`, { method: 'DELETE' }],
      ];
      for (const [path, init] of requests) {
        const what = `${init.method ?? 'GET'} ${path}`;
        const answer = await readAnswer(await api.api(path, init));
        expect(answer.status, `${what}: ${answer.text}`).toBe(503);
        expect(answer.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
        expect(Number(answer.headers.get('retry-after')), what).toBeGreaterThan(0);
        expect(answer.body, what).toMatchObject({ status: 503, code: 'store_unavailable' });
      }
    } finally {
      await cluster.redis.restart();
    }
    // Nothing was lost, and nothing half-done: the render queued before is still there, alone.
    const job = await until('the API to reach Redis again', async () => {
      const response = await api.api(`/v1/renders/${queued.id}`);
      return response.status === 200 && ((await response.json()) as RenderJobBody);
    });
    expect(job.status).toBe('queued');
  });

  it('a worker killed mid-chunk: that chunk alone is rendered again, and the render completes', async () => {
    const api = await cluster.startApi();
    const env = { CHUNK_MIN_FRAMES: '40' };
    const workers = [await cluster.startWorker(env), await cluster.startWorker(env)];
    const long = { ...CHUNKED_SPEC, scenes: [{ ...CHUNKED_SPEC.scenes[0]!, duration: '8s' }] };
    const job = await postRender(api, { spec: long, options: { quality: 'draft' } });
    const chunkStarts = (worker: RunningWorker) =>
      [...worker.output().matchAll(/"chunk":(\d+),[^\n]*"mode":"chunk","msg":"render started"/g)].map(
        (match) => Number(match[1]),
      );
    const [victim] = await until(
      'both workers rendering a chunk',
      () => {
        const busy = workers.filter((worker) => chunkStarts(worker).length > 0);
        return busy.length === 2 && busy;
      },
      { timeoutMs: 120_000 },
    );
    const lost = chunkStarts(victim!)[0]!;
    await victim!.stop('SIGKILL');
    const fresh = await cluster.startWorker(env);
    const done = await waitForRender(api, job.id, { timeoutMs: 180_000 });
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    const survivors = workers.filter((worker) => worker !== victim).concat(fresh);
    const again = survivors.flatMap(chunkStarts);
    // The lost chunk was rendered again; the other chunk once; the render was planned once.
    expect(again.filter((index) => index === lost)).toHaveLength(1);
    expect(again.filter((index) => index !== lost)).toHaveLength(1);
    const plans = [...workers, fresh].flatMap((worker) => [...worker.output().matchAll(/"mode":"plan"/g)]);
    expect(plans).toHaveLength(1);
    await expectDownloadableVideo(done, 240);
  });

  it('kino serve on a Redis that does not answer stops in one line naming it, without the password', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kino-queue-down-'));
    try {
      const result = await runKino(['serve'], {
        env: serverEnv(dataDir, {
          QUEUE_BACKEND: 'redis',
          REDIS_URL: 'redis://:hunter2-secret@127.0.0.1:1',
          API_TOKEN: '',
        }),
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/cannot reach Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
      expect(result.stderr).not.toMatch(/hunter2/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('on S3, chunks travel through the bucket between workers and are removed once stitched', async () => {
    const s3 = await startS3Server(['renders']);
    try {
      const env = {
        STORAGE_BACKEND: 's3',
        S3_BUCKET: 'renders',
        S3_ENDPOINT: s3.endpoint,
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: 'kino/queue',
        S3_ACCESS_KEY_ID: S3_TEST_KEY.accessKeyId,
        S3_SECRET_ACCESS_KEY: S3_TEST_KEY.secretAccessKey,
        CHUNK_MIN_FRAMES: '40',
      };
      const api = await cluster.startApi({ env });
      await cluster.startWorker(env);
      await cluster.startWorker(env);
      const job = await postRender(api, {
        spec: CHUNKED_SPEC,
        options: { quality: 'draft', poster: '2.5s' },
      });
      const done = await waitForRender(api, job.id);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      const uploads = s3.requests.filter((line) =>
        line.startsWith(`PUT /renders/kino/queue/${job.id}/chunk-`),
      );
      expect(uploads.some((line) => line.includes('chunk-0.mp4'))).toBe(true);
      expect(uploads.some((line) => line.includes('chunk-1.mp4'))).toBe(true);
      // The poster was drawn by the chunk holding 2.5 s, and came through the bucket too.
      expect(uploads.some((line) => line.includes('chunk-1.png'))).toBe(true);
      const left = readdirSync(join(s3.directory, 'renders', 'kino', 'queue', job.id)).filter((name) =>
        name.endsWith('._S3rver_object'),
      );
      expect(left.sort()).toEqual(
        ['poster.png._S3rver_object', 'receipt.json._S3rver_object', 'video.mp4._S3rver_object'].sort(),
      );
      await expectDownloadableVideo(done, 120);
      const poster = await fetch(done.poster!.downloadUrl);
      expect(poster.status).toBe(200);
      expect(poster.headers.get('content-type')).toBe('image/png');
      await poster.body?.cancel();
    } finally {
      await s3.close();
    }
  });

  it('kino worker refuses to start without the Redis queue, in one line', async () => {
    const result = await runKino(['worker'], { env: { QUEUE_BACKEND: '', REDIS_URL: '', BASE_URL: '' } });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/set QUEUE_BACKEND=redis and REDIS_URL/);
  });

  it('splits a long render across free workers and stitches it: frames and sound as one render gives', async () => {
    const api = await cluster.startApi();
    const workers = [
      await cluster.startWorker({ CHUNK_MIN_FRAMES: '40' }),
      await cluster.startWorker({ CHUNK_MIN_FRAMES: '40' }),
    ];
    // Lossless, so a difference in any pixel shows.
    const options = { quality: 'draft', encoder: { crf: 0 } };
    const job = await postRender(api, { spec: CHUNKED_SPEC, options });
    const split = await waitForRender(api, job.id, {
      timeoutMs: 120_000,
      // Still queued on a busy machine: wait for a worker to take it (and split it), or for its end.
      until: (j) => !['queued', 'running'].includes(j.status) || (j.progress?.chunks?.length ?? 0) > 0,
    });
    expect(split.status).toBe('running');
    expect(split.progress?.chunks).toHaveLength(2);
    const done = await waitForRender(api, job.id);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.progress).toMatchObject({ framesDone: 120, framesTotal: 120, percent: 100 });
    const splitLog = workers.map((worker) => worker.output()).join('\n');
    expect(splitLog).toMatch(/"msg":"render split into chunks"/);
    // Both workers rendered a chunk.
    for (const worker of workers) expect(worker.output()).toMatch(/"mode":"chunk"/);

    const scratch = mkdtempSync(join(tmpdir(), 'kino-chunked-'));
    try {
      const chunked = join(scratch, 'chunked.mp4');
      writeFileSync(chunked, new Uint8Array(await (await fetch(done.video!.downloadUrl)).arrayBuffer()));
      // The same spec rendered whole by the CLI, its asset: sources from the same folder.
      const specFile = join(scratch, 'spec.json');
      writeFileSync(specFile, JSON.stringify(CHUNKED_SPEC));
      symlinkSync(join(REPO_ROOT, 'examples', 'assets'), join(scratch, 'assets'));
      const single = join(scratch, 'single.mp4');
      const rendered = await runKino([
        'render',
        specFile,
        '-q',
        'draft',
        '--crf',
        '0',
        '-o',
        single,
        '--no-receipt',
      ]);
      expect(rendered.code, rendered.stderr).toBe(0);
      const [a, b] = [decodedHashes(chunked), decodedHashes(single)];
      expect(a.frames).toHaveLength(120);
      expect(a.frames).toEqual(b.frames);
      expect(a.audio).toBe(b.audio);
      const [probeA, probeB] = [await probeFile(chunked), await probeFile(single)];
      expect(probeA.video?.frames).toBe(probeB.video?.frames);
      expect(probeA.durationSeconds).toBeCloseTo(probeB.durationSeconds, 2);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
