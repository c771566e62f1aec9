// A render worker and its storage. `kino worker` (a real process) refuses to start, in one line and
// within a minute, when it could not store a render or reach Redis: an S3 endpoint where nothing
// listens or that never answers, a local folder it cannot write, Redis away. And a render whose files
// could not be stored is handed back and stored by its next attempt (a real QueueWorker on a real
// Redis, and the one-machine runner on SQLite, each with storage that fails its first puts), failing
// `storage_failed` only once RENDER_MAX_ATTEMPTS attempts could not store it. A render process whose
// job a later attempt took over writes, stores and overwrites nothing (its writes are fenced).
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobStore, NewRenderJob, RenderJob } from '../main/jobs/job-store.ts';
import { LocalRunner } from '../main/jobs/local-runner.ts';
import { QueueRunner } from '../main/jobs/queue-runner.ts';
import { QueueWorker, STORAGE_RETRY_DELAY_MS } from '../main/jobs/queue-worker.ts';
import { RenderProcess } from '../main/jobs/render-process.ts';
import { RedisJobStore } from '../main/jobs/redis-job-store.ts';
import { SqliteJobStore } from '../main/jobs/sqlite-job-store.ts';
import { hasRedisServer, useRedisServer } from '../main/jobs/redis-server.fixture.ts';
import { defaultProjectDir } from '../main/project/load.ts';
import { LocalStorage } from '../main/storage/local-storage.ts';
import { S3_TEST_KEY } from '../main/storage/s3-server.fixture.ts';
import type { RenderStorage, StoredFileMeta, StoredFileRef } from '../main/storage/storage.ts';
import { TINY_SPEC, serverEnv, until } from './api-server.ts';
import { runKino } from './cli-helpers.ts';

const redis = useRedisServer('kino worker and its storage');

const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `kino-${name}-`));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A loopback port where nothing listens (bound, then let go). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A server that takes connections and never answers: an endpoint behind a dead proxy. */
async function silentServer(): Promise<{ port: number; server: Server }> {
  const server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

const SECRET_KEY = 'worker-test-secret-key-do-not-print';

/** `kino worker` on the test's Redis, with `env` over it; how long it ran before it exited. */
async function startWorker(env: Record<string, string>) {
  const started = Date.now();
  const result = await runKino(['worker'], {
    env: serverEnv(tempDir('worker-data'), {
      QUEUE_BACKEND: 'redis',
      REDIS_URL: redis()!.url,
      QUEUE_PREFIX: `kino-worker-start-${process.pid}`,
      ...env,
    }),
  });
  return { ...result, seconds: (Date.now() - started) / 1000 };
}

const s3Env = (endpoint: string) => ({
  STORAGE_BACKEND: 's3',
  S3_BUCKET: 'renders',
  S3_ENDPOINT: endpoint,
  S3_FORCE_PATH_STYLE: 'true',
  S3_ACCESS_KEY_ID: S3_TEST_KEY.accessKeyId,
  S3_SECRET_ACCESS_KEY: SECRET_KEY,
});

describe.skipIf(!hasRedisServer)('kino worker refuses to start when it could not do its work', () => {
  it('with S3 on a port where nothing listens: one line naming storage, exit 1, within a minute', async () => {
    const port = await closedPort();
    const result = await startWorker(s3Env(`http://127.0.0.1:${port}`));
    expect(result.code).toBe(1);
    expect(result.seconds).toBeLessThan(60);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(
        `^kino: worker not started: storage is not writable: bucket "renders" at http://127\\.0\\.0\\.1:${port} cannot be reached \\(ECONNREFUSED\\): check S3_ENDPOINT`,
      ),
    );
    expect(result.stderr + result.stdout).not.toContain(SECRET_KEY);
    // It took nothing: no "taking renders" line, no log of a render.
    expect(result.stdout).not.toMatch(/taking renders/);
  });

  it('with S3 behind an endpoint that never answers: the check gives up, and so does the worker', async () => {
    const { port, server } = await silentServer();
    try {
      const result = await startWorker(s3Env(`http://127.0.0.1:${port}`));
      expect(result.code).toBe(1);
      expect(result.seconds).toBeLessThan(60);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(
        /storage is not writable: .* did not answer within 10s: check S3_ENDPOINT/,
      );
    } finally {
      server.close();
    }
  });

  it('with a local storage folder it cannot write: one line naming LOCAL_STORAGE_DIR', async () => {
    const blocker = path.join(tempDir('worker-blocked'), 'a-file');
    writeFileSync(blocker, 'not a folder');
    const result = await startWorker({ LOCAL_STORAGE_DIR: path.join(blocker, 'files') });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /^kino: worker not started: storage is not writable at .*a-file\/files \(ENOTDIR\): check that LOCAL_STORAGE_DIR/,
    );
  });

  it('with Redis away: one line naming it, without its password', async () => {
    const port = await closedPort();
    const result = await startWorker({ REDIS_URL: `redis://:hunter2-secret@127.0.0.1:${port}` });
    expect(result.code).toBe(1);
    expect(result.seconds).toBeLessThan(60);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      new RegExp(
        `^kino: worker not started: cannot reach Redis at redis://:\\*\\*\\*@127\\.0\\.0\\.1:${port} \\(REDIS_URL\\): connect ECONNREFUSED`,
      ),
    );
    expect(result.stderr).not.toContain('hunter2');
  });
});

describe('a render process whose job another worker took over (a later attempt)', () => {
  it('writes nothing, stores nothing, and never overwrites the later attempt’s result', async () => {
    const data = tempDir('fenced');
    const storage = new FlakyStorage(path.join(data, 'files'), 0);
    const store = new SqliteJobStore(path.join(data, 'jobs.sqlite'));
    const options = {
      store,
      storage,
      renderProject: defaultProjectDir(),
      timeoutMs: 0,
      maxAttempts: 3,
      cores: 1,
      log: pino({ level: 'silent' }),
      now: Date.now,
    };
    const render = (job: RenderJob) =>
      new RenderProcess(job, path.join(data, `work-${job.attempts}`), options).done;
    try {
      const job = await store.insert(newJob());
      const first = await store.claim(job.id, Date.now(), 3);
      // Its worker froze past its lock: the job went back and was claimed again (attempt 2).
      await store.requeue(job.id, 'counted');
      const second = await store.claim(job.id, Date.now(), 3);
      if (!('claimed' in first) || !('claimed' in second)) throw new Error('not claimed');
      expect([first.claimed.attempts, second.claimed.attempts]).toEqual([1, 2]);

      // The stale one wakes while attempt 2 runs: its first write is refused, and it stops.
      const running = await store.get(job.id);
      expect(await render(first.claimed)).toEqual({ kind: 'abandoned' });
      expect(await store.get(job.id)).toEqual(running);
      expect(storage.puts).toBe(0);

      expect(await render(second.claimed)).toEqual({ kind: 'succeeded' });
      const done = await store.get(job.id);
      expect(done).toMatchObject({ status: 'succeeded', attempts: 2 });
      const puts = storage.puts;
      // Once attempt 2 stored its render, the stale one neither stores files nor ends the job again.
      expect((await render(first.claimed)).kind).toBe('canceled');
      expect(await store.get(job.id)).toEqual(done);
      expect(storage.puts).toBe(puts);
    } finally {
      await store.close();
    }
  });
});

/** Local storage whose first `failures` puts fail, as a bucket away for a moment does. */
class FlakyStorage extends LocalStorage {
  failures: number;
  failed = 0;
  puts = 0;
  constructor(root: string, failures: number) {
    super(root);
    this.failures = failures;
  }
  override async put(ref: StoredFileRef, sourcePath: string, meta?: StoredFileMeta) {
    this.puts++;
    if (this.failed < this.failures) {
      this.failed++;
      throw new Error('storage away for a moment');
    }
    return super.put(ref, sourcePath, meta);
  }
}

let serial = 0;
function newJob(): NewRenderJob {
  serial++;
  return {
    id: `rnd_storageretry${String(serial).padStart(4, '0')}${process.pid}abcdef`,
    input: { kind: 'spec', spec: TINY_SPEC as unknown as Record<string, unknown> },
    options: { format: 'mp4', quality: 'draft' },
    visibility: 'private',
    createdAt: Date.now(),
    ttlMs: 3_600_000,
  };
}

/** A logger whose lines the test reads. */
function capturedLog() {
  let lines = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines += chunk.toString();
      done();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines: () => lines };
}

const ended = (store: JobStore, id: string) =>
  until(
    `render ${id} to end`,
    async () => {
      const job = await store.get(id);
      return job && ['succeeded', 'failed', 'canceled'].includes(job.status) ? job : undefined;
    },
    { timeoutMs: 150_000, intervalMs: 200 },
  );

describe.skipIf(!hasRedisServer)('a render whose files could not be stored, on the Redis queue', () => {
  /** A worker and an API's runner on one prefix; each has its own store, as separate processes do. */
  async function startQueue(storage: RenderStorage, maxAttempts = 2) {
    const queue = {
      redisUrl: redis()!.url,
      prefix: `kino-storage-retry-${process.pid}-${++serial}`,
      lockMs: 30_000,
    };
    const captured = capturedLog();
    const worker = new QueueWorker({
      store: new RedisJobStore(new Redis(redis()!.url), { prefix: queue.prefix }),
      storage,
      queue,
      concurrency: 1,
      maxAttempts,
      chunkMinFrames: 0,
      renderProject: defaultProjectDir(),
      workRoot: path.join(tempDir('worker-work'), 'worker'),
      timeoutMs: 0,
      log: captured.log,
    });
    const store = new RedisJobStore(new Redis(redis()!.url), { prefix: queue.prefix });
    const runner = new QueueRunner({ store, queue, log: pino({ level: 'silent' }) });
    await runner.start();
    await worker.start();
    return {
      store,
      output: captured.lines,
      async submit(): Promise<RenderJob> {
        const job = await store.insert(newJob());
        await runner.submitted(job);
        return job;
      },
      async stop() {
        await worker.stop(0);
        await runner.stop(0);
        await store.close();
      },
    };
  }

  it('is handed back to the queue and stored by its next attempt', async () => {
    const files = tempDir('worker-files');
    const storage = new FlakyStorage(files, 1);
    const queue = await startQueue(storage);
    try {
      const job = await queue.submit();
      const done = await ended(queue.store, job.id);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      expect(done.attempts).toBe(2);
      expect(storage.failed).toBe(1);
      expect(existsSync(path.join(files, job.id, 'video.mp4'))).toBe(true);
      expect(queue.output()).toMatch(
        /"attempt":1[^\n]*"msg":"render queued again: its files could not be stored"/,
      );
      // Waited before its next try, rather than straight back into the same failure.
      const starts = [...queue.output().matchAll(/"time":(\d+)[^\n]*"msg":"render started"/g)].map((m) =>
        Number(m[1]),
      );
      expect(starts).toHaveLength(2);
      expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(STORAGE_RETRY_DELAY_MS);
    } finally {
      await queue.stop();
    }
  });

  it('fails storage_failed once every attempt could not store it, leaving no file', async () => {
    const files = tempDir('worker-files');
    const storage = new FlakyStorage(files, Infinity);
    const queue = await startQueue(storage);
    try {
      const job = await queue.submit();
      const done = await ended(queue.store, job.id);
      expect(done.status).toBe('failed');
      expect(done.error).toMatchObject({
        code: 'storage_failed',
        message: expect.stringMatching(/attempt 2 of 2/),
      });
      expect(done.attempts).toBe(2);
      expect(storage.failed).toBe(2);
      expect(existsSync(path.join(files, job.id))).toBe(false);
    } finally {
      await queue.stop();
    }
  });
});

describe('a render whose files could not be stored, on one machine (SQLite)', () => {
  it('is queued again and stored by its next attempt', async () => {
    const data = tempDir('local-runner');
    const storage = new FlakyStorage(path.join(data, 'files'), 1);
    const store = new SqliteJobStore(path.join(data, 'jobs.sqlite'));
    const runner = new LocalRunner({
      store,
      storage,
      concurrency: 1,
      maxAttempts: 2,
      renderProject: defaultProjectDir(),
      workRoot: path.join(data, 'work'),
      timeoutMs: 0,
      log: pino({ level: 'silent' }),
    });
    await runner.start();
    try {
      const job = await store.insert(newJob());
      await runner.submitted();
      const done = await ended(store, job.id);
      expect(done.status, JSON.stringify(done.error)).toBe('succeeded');
      expect(done.attempts).toBe(2);
      expect(storage.failed).toBe(1);
    } finally {
      await runner.stop(0);
      await store.close();
    }
  });
});
