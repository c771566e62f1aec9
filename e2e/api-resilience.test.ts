// The render API under stress of its own lifecycle: a server killed mid-render, a stop with work
// queued, a graceful stop, file expiry and cleanup (by request and by timer), and a cleanup that
// deletes a file while it is being downloaded. Every server is a real `kino serve` process.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import {
  TEST_CLEANUP_TOKEN,
  TINY_SPEC,
  getJob,
  postRender,
  waitForRender,
  sleep,
  until,
  useApiServers,
} from './api-server.ts';
import type { RenderJobBody, RunningApi } from './api-server.ts';

// No rate limit: the tests poll a lot.
const BASE_ENV = { RATE_LIMIT: '0' };

/** One second of full-strength grain: incompressible, so ~13 MB as ProRes at draft size. */
const NOISE_SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 30,
  scenes: [{ duration: '1s', background: { type: 'noise', color: '#808080', grain: 1, scale: 1 } }],
};
/** Several seconds of rendering at draft quality (261 frames). */
const LONG_KEY = 'product-launch';

const TERMINAL = ['succeeded', 'failed', 'canceled'];

const { start, kill } = useApiServers(BASE_ENV);

/** Waits until the job has started drawing frames (framesDone > 0) and returns it, still running. */
async function waitUntilDrawing(api: RunningApi, id: string): Promise<RenderJobBody> {
  const job = await waitForRender(api, id, {
    timeoutMs: 120_000,
    until: (j) => j.status !== 'queued' && (j.status !== 'running' || (j.progress?.framesDone ?? 0) > 0),
  });
  expect(job.status, 'the render finished before it could be interrupted').toBe('running');
  expect(job.progress?.framesDone).toBeGreaterThan(0);
  return job;
}

async function cleanupNow(api: RunningApi, dryRun: boolean) {
  const response = await api.api('/v1/maintenance/cleanup', {
    method: 'POST',
    json: { dryRun },
    headers: { authorization: `Bearer ${TEST_CLEANUP_TOKEN}` },
  });
  const report = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(report)).toBe(200);
  return report as {
    scanned: number;
    deletedFiles: number;
    deletedJobs: number;
    freedBytes: number;
    dryRun: boolean;
  };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The size of the receipt stored beside a render's video (a file cleanup removes with it). */
const receiptBytes = (api: RunningApi, job: RenderJobBody) =>
  statSync(join(api.dataDir, 'files', job.id, 'receipt.json')).size;

/** Downloads the job's video and checks it is whole and a real video. */
async function expectDownloadableVideo(job: RenderJobBody): Promise<void> {
  const video = job.video!;
  expect(video).toBeTruthy();
  const response = await fetch(video.downloadUrl);
  expect(response.status).toBe(200);
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(bytes.byteLength).toBe(video.bytes);
  expect(sha256(bytes)).toBe(video.sha256);
  const scratch = mkdtempSync(join(tmpdir(), 'kino-api-dl-'));
  try {
    const file = join(scratch, `video${video.contentType === 'video/mp4' ? '.mp4' : '.bin'}`);
    writeFileSync(file, bytes);
    const probe = await probeFile(file);
    expect(probe.video?.codec).toBe('h264');
    expect(probe.video?.width).toBe(video.width);
    expect(probe.video?.height).toBe(video.height);
    expect(probe.durationSeconds).toBeCloseTo(video.durationSeconds, 0);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface ProcessRow {
  pid: number;
  ppid: number;
  stat: string;
  args: string;
}

/** Live processes (zombies, which are already dead, left out). */
function processes(): ProcessRow[] {
  const text = execFileSync('ps', ['-eo', 'pid=,ppid=,stat=,args='], { encoding: 'utf8' });
  const rows: ProcessRow[] = [];
  for (const line of text.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (!match || match[3]!.startsWith('Z')) continue;
    rows.push({ pid: Number(match[1]), ppid: Number(match[2]), stat: match[3]!, args: match[4]! });
  }
  return rows;
}

/** The processes a render leaves if it is orphaned: its workers, and ffmpeg writing into the work folder. */
function renderProcesses(api: RunningApi, workerPids: number[]): ProcessRow[] {
  const workFolder = join(api.dataDir, 'work');
  return processes().filter((row) => row.args.includes(workFolder) || workerPids.includes(row.pid));
}

/** Kills the server with SIGKILL while a render runs, and checks the render's processes all go. */
async function killMidRender(api: RunningApi, id: string): Promise<void> {
  await waitUntilDrawing(api, id);
  const serverPid = api.process.pid!;
  const workerPids = processes()
    .filter((row) => row.ppid === serverPid && row.args.includes('render-job-entry'))
    .map((row) => row.pid);
  expect(workerPids).toHaveLength(1);
  // ffmpeg is running too, writing into the work folder: the check below is not vacuous.
  await until('ffmpeg writing into the work folder', () =>
    processes().some((row) => row.args.includes(join(api.dataDir, 'work', id))),
  );

  expect(await api.stop('SIGKILL')).toBeNull();
  expect(api.process.signalCode).toBe('SIGKILL');
  await outputComplete(api);
  // The worker sees its IPC channel close, stops ffmpeg and exits.
  const leftovers = await until(
    'the render worker and ffmpeg to exit',
    () => {
      const left = renderProcesses(api, workerPids);
      return left.length === 0 ? left : undefined;
    },
    { timeoutMs: 10_000, intervalMs: 250 },
  ).catch(() => renderProcesses(api, workerPids));
  expect(leftovers.map((row) => `${row.pid} ${row.args}`)).toEqual([]);
}

interface LogLine {
  msg?: string;
  jobId?: string;
  attempt?: number;
  [field: string]: unknown;
}

function logLines(api: RunningApi): LogLine[] {
  const lines: LogLine[] = [];
  for (const line of api.output().split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as LogLine);
    } catch {
      // A line cut by the kill.
    }
  }
  return lines;
}

/** After the process exited: waits until its output has been read to the end. */
async function outputComplete(api: RunningApi): Promise<void> {
  const { stdout, stderr } = api.process;
  await until('the server output to end', () => stdout!.closed && stderr!.closed, {
    timeoutMs: 5000,
    intervalMs: 20,
  });
}

/** Waits until the server has logged `msg` for the job. */
const loggedFor = (api: RunningApi, id: string, msg: string | RegExp) =>
  until(`"${String(msg)}" in the log of ${id}`, () => {
    const lines = logLines(api).filter(
      (line) => line.jobId === id && (typeof msg === 'string' ? line.msg === msg : msg.test(line.msg ?? '')),
    );
    return lines.length > 0 ? lines : undefined;
  });

const jobLog = (api: RunningApi, id: string, msg: string) =>
  logLines(api).filter((line) => line.jobId === id && line.msg === msg);

/**
 * Starts a server and renders `bodies(ttl)`, all of which must succeed with at least `marginMs`
 * of their ttl left. A busy machine can make a short ttl run out before the renders end; then
 * the attempt is discarded (server and data dir) and repeated with a ttl fitted to the time the
 * renders took.
 */
async function renderBeforeExpiry(
  env: Record<string, string>,
  bodies: (ttl: string) => Record<string, unknown>[],
  firstTtlSeconds: number,
  marginMs: number,
): Promise<{ api: RunningApi; jobs: RenderJobBody[] }> {
  let seconds = firstTtlSeconds;
  for (let attempt = 0; attempt < 4; attempt++) {
    const api = await start({ env });
    const startedAt = Date.now();
    const posted: RenderJobBody[] = [];
    for (const body of bodies(`${seconds}s`)) posted.push(await postRender(api, body));
    const jobs: (RenderJobBody | 'gone')[] = [];
    for (const job of posted) {
      jobs.push(
        await until(
          `render ${job.id}`,
          async () => {
            const current = await getJob(api, job.id);
            return current === 'gone' || TERMINAL.includes(current.status) ? current : undefined;
          },
          { timeoutMs: 180_000 },
        ),
      );
    }
    const tookMs = Date.now() - startedAt;
    const done = jobs.filter((job): job is RenderJobBody => job !== 'gone');
    for (const job of done) expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    const soonest = Math.min(...done.map((job) => Date.parse(job.expiresAt)));
    if (done.length === jobs.length && soonest - Date.now() >= marginMs) return { api, jobs: done };
    await kill(api);
    seconds = Math.max(seconds * 2, Math.ceil((1.5 * (tookMs + marginMs)) / 1000));
  }
  throw new Error(`renders did not finish well within a ttl of ${seconds}s`);
}

async function waitPast(isoTime: string, extraMs = 250): Promise<void> {
  const wait = Date.parse(isoTime) + extraMs - Date.now();
  if (wait > 0) await sleep(wait);
}

describe('a server killed mid-render', () => {
  it('retries the render after a restart, leaving no orphaned worker or ffmpeg', async () => {
    const first = await start();
    const job = await postRender(first, { key: LONG_KEY, options: { quality: 'draft' } });
    await killMidRender(first, job.id);

    const second = await start({ dataDir: first.dataDir });
    await loggedFor(second, job.id, /queued again/);
    const done = await waitForRender(second, job.id);
    expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
    expect(done.error).toBeNull();
    // The retry was the second attempt, within RENDER_MAX_ATTEMPTS (2).
    const attempts = jobLog(second, job.id, 'render started').map((line) => line.attempt);
    expect(attempts).toEqual([2]);
    expect(jobLog(first, job.id, 'render started').map((line) => line.attempt)).toEqual([1]);
    await expectDownloadableVideo(done);
    // The scratch folder of the killed attempt is gone too.
    expect(existsSync(join(first.dataDir, 'work', job.id))).toBe(false);
  }, 180_000);

  it('fails the render as worker_lost when RENDER_MAX_ATTEMPTS=1, never leaving it running', async () => {
    const env = { RENDER_MAX_ATTEMPTS: '1' };
    const first = await start({ env });
    const job = await postRender(first, { key: LONG_KEY, options: { quality: 'draft' } });
    await killMidRender(first, job.id);

    const second = await start({ dataDir: first.dataDir, env });
    // Settled before the server listens: no poll ever sees it running again.
    for (let i = 0; i < 3; i++) {
      const failed = await getJob(second, job.id);
      expect(failed).not.toBe('gone');
      const body = failed as RenderJobBody;
      expect(body.status).toBe('failed');
      expect(body.error?.code).toBe('worker_lost');
      expect(body.error?.message).toMatch(/server stopped during this render 1 time/);
      expect(body.error?.message).toMatch(/RENDER_MAX_ATTEMPTS=1/);
      expect(body.finishedAt).toEqual(expect.any(String));
      expect(body.video).toBeNull();
      await sleep(300);
    }
    expect(jobLog(second, job.id, 'render started')).toEqual([]);
    // A terminal job cannot be canceled.
    const cancel = await second.api(`/v1/renders/${job.id}`, { method: 'DELETE' });
    expect(cancel.status).toBe(409);
  }, 180_000);
});

describe('stopping the server', () => {
  it('keeps queued and interrupted jobs across a SIGTERM with SHUTDOWN_GRACE=0', async () => {
    const env = { RENDER_CONCURRENCY: '1', SHUTDOWN_GRACE: '0' };
    const first = await start({ env });
    const jobs = [
      await postRender(first, { key: LONG_KEY, options: { quality: 'draft' } }),
      await postRender(first, { spec: TINY_SPEC, options: { quality: 'draft' } }),
      await postRender(first, { spec: TINY_SPEC, options: { quality: 'draft' }, visibility: 'public' }),
    ];
    await waitUntilDrawing(first, jobs[0]!.id);
    for (const queued of jobs.slice(1)) {
      expect((await getJob(first, queued.id)) as RenderJobBody).toMatchObject({ status: 'queued' });
    }
    expect(await first.stop('SIGTERM')).toBe(0);
    await outputComplete(first);
    expect(jobLog(first, jobs[0]!.id, 'render stopped by shutdown; queued again')).toHaveLength(1);
    for (const queued of jobs.slice(1)) expect(jobLog(first, queued.id, 'render started')).toEqual([]);

    const second = await start({ dataDir: first.dataDir, env });
    for (const job of jobs) {
      const done = await waitForRender(second, job.id);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      expect(done.video?.bytes).toBeGreaterThan(0);
    }
    // A graceful requeue does not count as an attempt.
    expect(jobLog(second, jobs[0]!.id, 'render started').map((line) => line.attempt)).toEqual([1]);
    await expectDownloadableVideo((await getJob(second, jobs[0]!.id)) as RenderJobBody);
  }, 180_000);

  it('lets the running render finish within a generous SHUTDOWN_GRACE, then exits 0', async () => {
    const env = { SHUTDOWN_GRACE: '120s' };
    const first = await start({ env });
    const job = await postRender(first, { key: LONG_KEY, options: { quality: 'draft' } });
    await waitUntilDrawing(first, job.id);
    expect(await first.stop('SIGTERM')).toBe(0);
    await outputComplete(first);
    expect(jobLog(first, job.id, 'render succeeded')).toHaveLength(1);

    const second = await start({ dataDir: first.dataDir, env });
    const done = (await getJob(second, job.id)) as RenderJobBody;
    expect(done.status).toBe('succeeded');
    expect(jobLog(second, job.id, 'render started')).toEqual([]);
    expect(existsSync(join(first.dataDir, 'files', job.id, 'video.mp4'))).toBe(true);
    await expectDownloadableVideo(done);
  }, 180_000);
});

describe('ttl and cleanup', () => {
  it('rejects a ttl beyond MAX_TTL', async () => {
    const api = await start({ env: { MAX_TTL: '2h', FILE_TTL: '1h' } });
    for (const ttl of ['3h', '121m', '1d']) {
      const response = await api.api('/v1/renders', { method: 'POST', json: { spec: TINY_SPEC, ttl } });
      const problem = (await response.json()) as { code: string; errors?: { pointer: string }[] };
      expect(response.status).toBe(400);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(problem.code).toBe('validation_failed');
      expect(problem.errors?.map((error) => error.pointer)).toEqual(['/ttl']);
    }
    const defaultMax = await start();
    const response = await defaultMax.api('/v1/renders', {
      method: 'POST',
      json: { spec: TINY_SPEC, ttl: '31d' },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { errors?: { pointer: string }[] }).errors?.[0]?.pointer).toBe('/ttl');
  });

  it('counts in a dry run, deletes in a real run, and answers 410 afterwards', async () => {
    const { api, jobs } = await renderBeforeExpiry(
      {},
      (ttl) => [
        { spec: TINY_SPEC, options: { quality: 'draft', poster: '0.5s' }, visibility: 'public', ttl },
        { spec: TINY_SPEC, options: { quality: 'draft' }, visibility: 'private', ttl },
      ],
      3,
      1000,
    );
    const [publicJob, privateJob] = jobs as [RenderJobBody, RenderJobBody];
    const folder = (job: RenderJobBody) => join(api.dataDir, 'files', job.id);

    expect(await cleanupNow(api, true)).toEqual({
      scanned: 0,
      deletedFiles: 0,
      deletedJobs: 0,
      freedBytes: 0,
      dryRun: true,
    });

    await waitPast(publicJob.expiresAt);
    await waitPast(privateJob.expiresAt);
    const fileBytes =
      publicJob.video!.bytes +
      publicJob.poster!.bytes +
      receiptBytes(api, publicJob) +
      privateJob.video!.bytes +
      receiptBytes(api, privateJob);
    const expected = { scanned: 2, deletedFiles: 5, deletedJobs: 2, freedBytes: fileBytes };
    expect(await cleanupNow(api, true)).toEqual({ ...expected, dryRun: true });
    // A dry run deletes nothing.
    expect(existsSync(join(folder(publicJob), 'video.mp4'))).toBe(true);
    expect(existsSync(join(folder(publicJob), 'poster.png'))).toBe(true);
    expect(existsSync(join(folder(privateJob), 'video.mp4'))).toBe(true);
    // Expired already, before any cleanup: the job and its (even signed) links answer 410.
    expect(await getJob(api, publicJob.id)).toBe('gone');
    expect((await fetch(publicJob.video!.downloadUrl)).status).toBe(410);
    expect((await fetch(privateJob.video!.downloadUrl)).status).toBe(410);

    expect(await cleanupNow(api, false)).toEqual({ ...expected, dryRun: false });
    expect(existsSync(folder(publicJob))).toBe(false);
    expect(existsSync(folder(privateJob))).toBe(false);
    for (const job of [publicJob, privateJob]) {
      const response = await api.api(`/v1/renders/${job.id}`);
      expect(response.status).toBe(410);
      expect(((await response.json()) as { code: string }).code).toBe('expired');
      expect((await fetch(job.video!.downloadUrl)).status).toBe(410);
    }
    expect((await fetch(publicJob.poster!.downloadUrl)).status).toBe(410);
    expect(await cleanupNow(api, false)).toEqual({
      scanned: 0,
      deletedFiles: 0,
      deletedJobs: 0,
      freedBytes: 0,
      dryRun: false,
    });
    // Removed ids stay gone across a restart.
    await api.stop();
    const restarted = await start({ dataDir: api.dataDir });
    expect(await getJob(restarted, publicJob.id)).toBe('gone');
  }, 180_000);

  it('never removes a running render, even past its expiry; it still finishes and its ttl starts over', async () => {
    const api = await start();
    const job = await postRender(api, { key: LONG_KEY, options: { quality: 'draft' }, ttl: '1s' });
    await waitPast(job.expiresAt);
    // Past createdAt + ttl but still running: the job answers, it has not expired.
    const running = await getJob(api, job.id);
    expect(running).not.toBe('gone');
    expect((running as RenderJobBody).status).toMatch(/^(queued|running)$/);

    for (const dryRun of [true, false]) {
      const report = await cleanupNow(api, dryRun);
      expect(report).toEqual({ scanned: 1, deletedFiles: 0, deletedJobs: 0, freedBytes: 0, dryRun });
    }

    const done = await waitForRender(api, job.id, { timeoutMs: 180_000 });
    expect(done.status).toBe('succeeded');
    // The ttl counts again from the end, so the finished file can still be fetched.
    expect(Date.parse(done.expiresAt)).toBeGreaterThan(Date.parse(job.expiresAt));
    expect(Date.parse(done.expiresAt) - Date.parse(done.finishedAt as string)).toBe(1000);
    const video = join(api.dataDir, 'files', job.id, 'video.mp4');
    expect(existsSync(video)).toBe(true);

    // Once that ttl has passed too, the next cleanup takes it (the video and its receipt).
    const stored = done.video!.bytes + receiptBytes(api, done);
    await waitPast(done.expiresAt);
    expect(await cleanupNow(api, false)).toEqual({
      scanned: 1,
      deletedFiles: 2,
      deletedJobs: 1,
      freedBytes: stored,
      dryRun: false,
    });
    expect(existsSync(join(api.dataDir, 'files', job.id))).toBe(false);
  }, 180_000);

  it('removes expired files on the CLEANUP_INTERVAL timer without a request', async () => {
    const { api, jobs } = await renderBeforeExpiry(
      { CLEANUP_INTERVAL: '1s' },
      (ttl) => [{ spec: TINY_SPEC, options: { quality: 'draft' }, visibility: 'public', ttl }],
      2,
      500,
    );
    const job = jobs[0]!;
    const folder = join(api.dataDir, 'files', job.id);
    expect(existsSync(join(folder, 'video.mp4'))).toBe(true);
    await waitPast(job.expiresAt, 0);
    // The log line is written after the files go, and reaches us through a pipe: wait for both.
    await until(
      'the timer to remove the files and log it',
      () =>
        !existsSync(folder) && logLines(api).some((line) => line.msg === 'cleanup removed expired renders'),
      { timeoutMs: 15_000 },
    );
    expect(await getJob(api, job.id)).toBe('gone');
    expect(await cleanupNow(api, true)).toMatchObject({ scanned: 0, deletedJobs: 0 });
  }, 180_000);

  it('lets a download that started before a cleanup finish whole', async () => {
    // A big file (ProRes 4444 of full-strength grain, ~13 MB, rendered in about a second) that
    // cannot all sit in socket buffers while the client waits.
    const { api, jobs } = await renderBeforeExpiry(
      {},
      (ttl) => [
        { spec: NOISE_SPEC, options: { quality: 'draft', format: 'mov' }, visibility: 'public', ttl },
      ],
      4,
      1500,
    );
    const job = jobs[0]!;
    const video = job.video!;
    expect(video.bytes).toBeGreaterThan(8_000_000);

    const response = await fetch(video.downloadUrl);
    expect(response.status).toBe(200);
    expect(Number(response.headers.get('content-length'))).toBe(video.bytes);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    const chunks: Uint8Array[] = [first.value!];
    let received = first.value!.byteLength;
    expect(received).toBeLessThan(video.bytes);

    const stored = video.bytes + receiptBytes(api, job);
    await waitPast(job.expiresAt);
    expect(await cleanupNow(api, false)).toEqual({
      scanned: 1,
      deletedFiles: 2,
      deletedJobs: 1,
      freedBytes: stored,
      dryRun: false,
    });
    expect(existsSync(join(api.dataDir, 'files', job.id))).toBe(false);

    for (;;) {
      const next = await reader.read();
      if (next.done) break;
      chunks.push(next.value);
      received += next.value.byteLength;
    }
    expect(received).toBe(video.bytes);
    const hash = createHash('sha256');
    for (const chunk of chunks) hash.update(chunk);
    expect(hash.digest('hex')).toBe(video.sha256);

    const again = await fetch(video.downloadUrl);
    expect(again.status).toBe(410);
    expect(((await again.json()) as { code: string }).code).toBe('expired');
  }, 240_000);
});
