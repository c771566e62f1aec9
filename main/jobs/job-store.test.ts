// The job store contract, run against both stores: SQLite (one machine) and Redis (a real
// redis-server, for many). Where they must differ (a schema made by an older SQLite store), the
// test says which store it is for.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RenderReceipt } from '../../shared/protocol/receipt.ts';
import type { JobOutcome, JobProgress, NewRenderJob } from './job-store.ts';
import type { JobStores } from './job-stores.ts';
import { RedisJobStore } from './redis-job-store.ts';
import { hasRedisServer, useRedisServer } from './redis-server.fixture.ts';
import { SqliteJobStore } from './sqlite-job-store.ts';

const T0 = Date.UTC(2030, 0, 1);
const HOUR = 3_600_000;

interface Backend {
  name: 'SQLite' | 'Redis';
  skip: boolean;
  /** A fresh, empty store for one test. */
  open(): Promise<JobStores>;
  /** The same store's data, opened again as a restarted process would (Redis restarts too). */
  reopen(): Promise<JobStores>;
  cleanup(): Promise<void>;
}

let dir: string;
let file: string;
const redis = useRedisServer('the job store contract on Redis');
let prefix = '';

const sqlite: Backend = {
  name: 'SQLite',
  skip: false,
  async open() {
    dir = mkdtempSync(path.join(tmpdir(), 'kino-job-store-'));
    file = path.join(dir, 'jobs.sqlite');
    return new SqliteJobStore(file);
  },
  async reopen() {
    return new SqliteJobStore(file);
  },
  async cleanup() {
    rmSync(dir, { recursive: true, force: true });
  },
};

let stores = 0;
const redisBackend: Backend = {
  name: 'Redis',
  skip: !hasRedisServer,
  async open() {
    prefix = `test-${++stores}`;
    return new RedisJobStore(new Redis(redis()!.url), { prefix });
  },
  async reopen() {
    // A real restart: what the store wrote must come back from the append-only file.
    await redis()!.restart();
    return new RedisJobStore(new Redis(redis()!.url), { prefix });
  },
  async cleanup() {},
};

let serial = 0;
function newJob(overrides: Partial<NewRenderJob> = {}): NewRenderJob {
  serial++;
  return {
    id: `rnd_test${String(serial).padStart(4, '0')}abcdefghijklmnop`,
    input: { kind: 'key', key: 'product-launch' },
    options: { format: 'mp4', quality: 'draft' },
    visibility: 'private',
    createdAt: T0 + serial,
    ttlMs: 24 * HOUR,
    ...overrides,
  };
}

const progress = (framesDone: number): JobProgress => ({
  stage: 'rendering',
  framesDone,
  framesTotal: 30,
  percent: Math.round((framesDone / 30) * 100),
  etaSeconds: 1,
});

const outcome: JobOutcome = {
  spec: { kinoSpec: 1, scenes: [] },
  code: 'video()',
  video: {
    extension: '.mp4',
    bytes: 1234,
    contentType: 'video/mp4',
    width: 540,
    height: 540,
    durationSeconds: 1,
    sha256: 'a'.repeat(64),
  },
  poster: { extension: '.png', bytes: 99, contentType: 'image/png' },
  // The store keeps the receipt as it is given; its fields do not matter here.
  receipt: {
    extension: '.json',
    bytes: 2048,
    contentType: 'application/json',
    receipt: { receipt: 'kino.render', version: 2, maker: 'api' } as RenderReceipt,
  },
};

describe.each([sqlite, redisBackend])('the job store on $name', (backend) => {
  let store: JobStores;
  beforeEach(async (context) => {
    if (backend.skip) context.skip();
    store = await backend.open();
  });
  afterEach(async () => {
    await store?.close();
    await backend.cleanup();
  });

  describe('JobStore', () => {
    it('inserts a queued job and reads back every field', async () => {
      const input = newJob({
        input: { kind: 'spec', spec: { kinoSpec: 1, scenes: [{ duration: '1s' }] } },
        options: { format: 'mov', quality: 'high', aspect: 'square', poster: '1.5s' },
        visibility: 'public',
      });
      const inserted = await store.insert(input);
      expect(inserted).toEqual({
        id: input.id,
        status: 'queued',
        input: input.input,
        options: input.options,
        visibility: 'public',
        createdAt: input.createdAt,
        startedAt: null,
        finishedAt: null,
        expiresAt: input.createdAt + input.ttlMs,
        attempts: 0,
        progress: null,
        spec: null,
        code: null,
        video: null,
        poster: null,
        receipt: null,
        authoring: null,
        changes: null,
        review: null,
        outputs: null,
        webhook: null,
        error: null,
      });
      expect(await store.get(input.id)).toEqual(inserted);
      expect(await store.get('rnd_unknownunknownunknown')).toBeUndefined();
      expect(await store.count()).toBe(1);
      expect(await store.countByStatus('queued')).toBe(1);
    });

    it('keeps the spec and code known at submit from the start', async () => {
      const job = await store.insert(
        newJob({ spec: { kinoSpec: 1, scenes: [] }, code: 'export default video()' }),
      );
      expect(job.spec).toEqual({ kinoSpec: 1, scenes: [] });
      expect(job.code).toBe('export default video()');
      expect((await store.insert(newJob())).spec).toBeNull();
    });

    it('rejects a second job with the same id', async () => {
      const job = newJob();
      await store.insert(job);
      await expect(store.insert(job)).rejects.toThrow();
      expect(await store.count()).toBe(1);
    });

    it('claims the oldest queued job first, each job once', async () => {
      // Inserted out of order: the claim order follows createdAt, then insertion for equal times.
      const late = await store.insert(newJob({ createdAt: T0 + 300 }));
      const early = await store.insert(newJob({ createdAt: T0 + 100 }));
      const tieA = await store.insert(newJob({ createdAt: T0 + 200 }));
      const tieB = await store.insert(newJob({ createdAt: T0 + 200 }));

      const claimed = [];
      for (const i of [1, 2, 3, 4]) claimed.push(await store.claimNext(T0 + 1000 + i));
      expect(claimed.map((job) => job?.id)).toEqual([early.id, tieA.id, tieB.id, late.id]);
      expect(await store.claimNext(T0 + 2000)).toBeUndefined();

      const first = claimed[0]!;
      expect(first.status).toBe('running');
      expect(first.startedAt).toBe(T0 + 1001);
      expect(first.attempts).toBe(1);
      // Running is never without a progress: "starting" until the worker reports (issue 12).
      expect(first.progress).toEqual({
        stage: 'starting',
        framesDone: 0,
        framesTotal: 0,
        percent: 0,
        etaSeconds: null,
      });
      expect(await store.countByStatus('running')).toBe(4);
      expect(await store.countByStatus('queued')).toBe(0);
    });

    it('does not claim jobs that are not queued', async () => {
      const canceled = await store.insert(newJob());
      await store.cancel(canceled.id, T0 + 10);
      const queued = await store.insert(newJob());
      expect((await store.claimNext(T0 + 20))?.id).toBe(queued.id);
      expect(await store.claimNext(T0 + 30)).toBeUndefined();
    });

    it('records progress only while a job runs', async () => {
      const job = await store.insert(newJob());
      expect(await store.setProgress(job.id, progress(3))).toBe(false);
      expect((await store.get(job.id))?.progress).toBeNull();

      await store.claimNext(T0 + 10);
      await store.setProgress(job.id, progress(5));
      expect((await store.get(job.id))?.progress).toEqual(progress(5));
      await store.setProgress(job.id, progress(12));
      expect((await store.get(job.id))?.progress).toEqual(progress(12));

      expect(await store.succeed(job.id, outcome, T0 + 20)).toBe(true);
      const finished = (await store.get(job.id))!.progress;
      await store.setProgress(job.id, progress(1));
      expect((await store.get(job.id))?.progress).toEqual(finished);
    });

    it("sums a split render's chunks, with an ETA from the chunks' own once they know their rate", async () => {
      const job = await store.insert(newJob());
      await store.claimNext(T0 + 10);
      const chunk = (index: number, framesDone: number, etaSeconds: number | null) =>
        store.setChunkProgress(job.id, { index, count: 2, framesDone, framesTotal: 100, etaSeconds });
      await chunk(0, 0, null);
      expect((await store.get(job.id))?.progress).toMatchObject({ framesDone: 0, etaSeconds: null });
      // Chunk 0 at 10 fps (60 frames left, 6 s); chunk 1 at 5 fps: 140 frames at 15 fps is 9.3 s, but chunk 1
      // alone still needs 16 s.
      await chunk(0, 40, 6);
      await chunk(1, 20, 16);
      expect((await store.get(job.id))?.progress).toMatchObject({
        stage: 'rendering',
        framesDone: 60,
        framesTotal: 200,
        etaSeconds: 16,
      });
      await chunk(0, 100, 0);
      await chunk(1, 100, 0);
      expect((await store.get(job.id))?.progress).toMatchObject({ framesDone: 200, etaSeconds: 0 });
    });

    it('succeeds a running job with its outcome, keeping the last progress at 100%', async () => {
      const job = await store.insert(newJob());
      await store.claimNext(T0 + 10);
      await store.setProgress(job.id, progress(30));
      await store.markStoring(job.id);
      expect((await store.get(job.id))!.progress).toEqual({
        ...progress(30),
        stage: 'storing',
        percent: 98,
        etaSeconds: 0,
      });
      expect(await store.succeed(job.id, outcome, T0 + 50)).toBe(true);
      const done = (await store.get(job.id))!;
      expect(done).toMatchObject({
        status: 'succeeded',
        finishedAt: T0 + 50,
        spec: outcome.spec,
        code: outcome.code,
        video: outcome.video,
        poster: outcome.poster,
        receipt: outcome.receipt,
        error: null,
      });
      expect(done.progress).toEqual({ ...progress(30), stage: 'storing', percent: 100, etaSeconds: 0 });
      // Only once: a succeeded job is not running any more.
      expect(await store.succeed(job.id, outcome, T0 + 60)).toBe(false);
      expect((await store.get(job.id))?.finishedAt).toBe(T0 + 50);
    });

    it('does not succeed a job that is queued or was canceled meanwhile', async () => {
      const queued = await store.insert(newJob());
      expect(await store.succeed(queued.id, outcome, T0 + 10)).toBe(false);
      expect((await store.get(queued.id))?.status).toBe('queued');

      await store.claimNext(T0 + 20);
      expect(await store.cancel(queued.id, T0 + 30)).toBe(true);
      expect(await store.succeed(queued.id, outcome, T0 + 40)).toBe(false);
      expect(await store.get(queued.id)).toMatchObject({ status: 'canceled', video: null });
    });

    it('fails queued or running jobs, keeping what was resolved, but never a terminal one', async () => {
      const running = await store.insert(newJob());
      await store.claimNext(T0 + 10);
      const error = { code: 'render_failed', message: 'boom' };
      expect(await store.fail(running.id, error, T0 + 20, { spec: { kinoSpec: 1 }, code: 'video()' })).toBe(
        true,
      );
      expect(await store.get(running.id)).toMatchObject({
        status: 'failed',
        finishedAt: T0 + 20,
        error,
        spec: { kinoSpec: 1 },
        code: 'video()',
      });
      expect(await store.fail(running.id, { code: 'other', message: 'again' }, T0 + 30)).toBe(false);
      expect((await store.get(running.id))?.error).toEqual(error);

      const queued = await store.insert(newJob());
      expect(await store.fail(queued.id, error, T0 + 40)).toBe(true);
      expect(await store.get(queued.id)).toMatchObject({ status: 'failed', spec: null, code: null });

      const succeeded = await store.insert(newJob());
      await store.claimNext(T0 + 50);
      await store.succeed(succeeded.id, outcome, T0 + 60);
      expect(await store.fail(succeeded.id, error, T0 + 70)).toBe(false);
      expect((await store.get(succeeded.id))?.status).toBe('succeeded');
    });

    it('cancels queued and running jobs; a terminal job cannot be canceled', async () => {
      const queued = await store.insert(newJob());
      const running = await store.insert(newJob());
      await store.claimNext(T0 + 5); // claims `queued` (the older one)
      await store.claimNext(T0 + 6); // claims `running`
      await store.requeue(queued.id);

      expect(await store.cancel(queued.id, T0 + 10)).toBe(true);
      expect(await store.cancel(running.id, T0 + 11)).toBe(true);
      for (const [id, at] of [
        [queued.id, T0 + 10],
        [running.id, T0 + 11],
      ] as const) {
        expect(await store.get(id)).toMatchObject({
          status: 'canceled',
          finishedAt: at,
          error: { code: 'canceled', message: 'the render was canceled' },
        });
      }
      expect(await store.cancel(queued.id, T0 + 20)).toBe(false);
      expect((await store.get(queued.id))?.finishedAt).toBe(T0 + 10);

      const succeeded = await store.insert(newJob());
      await store.claimNext(T0 + 30);
      await store.succeed(succeeded.id, outcome, T0 + 40);
      expect(await store.cancel(succeeded.id, T0 + 50)).toBe(false);
      expect((await store.get(succeeded.id))?.status).toBe('succeeded');

      const failed = await store.insert(newJob());
      await store.fail(failed.id, { code: 'x', message: 'y' }, T0 + 60);
      expect(await store.cancel(failed.id, T0 + 70)).toBe(false);
      expect((await store.get(failed.id))?.status).toBe('failed');
    });

    it('requeues a running job without counting the attempt', async () => {
      const job = await store.insert(newJob());
      await store.claimNext(T0 + 10);
      await store.setProgress(job.id, progress(4));
      expect(await store.requeue(job.id)).toBe(true);
      expect(await store.get(job.id)).toMatchObject({
        status: 'queued',
        startedAt: null,
        progress: null,
        attempts: 0,
      });
      // Only a running job goes back to the queue.
      expect(await store.requeue(job.id)).toBe(false);
      const again = (await store.claimNext(T0 + 20))!;
      expect(again).toMatchObject({ id: job.id, attempts: 1, startedAt: T0 + 20 });
      await store.succeed(job.id, outcome, T0 + 30);
      expect(await store.requeue(job.id)).toBe(false);
      expect((await store.get(job.id))?.status).toBe('succeeded');
    });

    it('requeues a running job counting the attempt, so a retried failure stays bounded', async () => {
      const job = await store.insert(newJob());
      await store.claimNext(T0 + 10);
      expect(await store.requeue(job.id, 'counted')).toBe(true);
      expect(await store.get(job.id)).toMatchObject({ status: 'queued', progress: null, attempts: 1 });
      const again = await store.claim(job.id, T0 + 20, 2);
      expect(again).toMatchObject({ claimed: { id: job.id, status: 'running', attempts: 2 } });
      expect(await store.requeue(job.id, 'counted')).toBe(true);
      expect((await store.get(job.id))?.attempts).toBe(2);
    });

    it('refuses every write fenced to an attempt the job was taken from; the new attempt writes', async () => {
      const job = await store.insert(newJob());
      const first = await store.claim(job.id, T0 + 10, 3);
      expect(first).toMatchObject({ claimed: { attempts: 1 } });
      const stale = { attempt: 1 };
      // The first worker froze past its lock: the job was taken back and claimed again.
      expect(await store.requeue(job.id, 'counted')).toBe(true);
      expect(await store.claim(job.id, T0 + 20, 3)).toMatchObject({ claimed: { attempts: 2 } });
      const fresh = { attempt: 2 };
      await store.setProgress(job.id, progress(6), fresh);
      const before = await store.get(job.id);

      const review = { findings: [], qualityGate: { strict: false, passed: true, failing: [] } };
      const chunk = { index: 0, count: 2, framesDone: 5, framesTotal: 15 };
      const error = { code: 'render_failed', message: 'stale' };
      expect(await store.setProgress(job.id, progress(29), stale)).toBe(false);
      expect(await store.setChunkProgress(job.id, chunk, stale)).toBe(false);
      expect(await store.setResolved(job.id, { kinoSpec: 1, stale: true }, 'stale()', stale)).toBe(false);
      expect(await store.setAuthoring(job.id, { stale: true }, ['/stale'], stale)).toBe(false);
      expect(await store.setReview(job.id, review, stale)).toBe(false);
      expect(await store.markStoring(job.id, stale)).toBe(false);
      expect(await store.succeed(job.id, outcome, T0 + 30, stale)).toBe(false);
      expect(await store.fail(job.id, error, T0 + 30, { spec: { stale: true }, code: 'x' }, stale)).toBe(
        false,
      );
      expect(await store.requeue(job.id, 'uncounted', stale)).toBe(false);
      expect(await store.requeue(job.id, 'counted', stale)).toBe(false);
      expect(await store.get(job.id)).toEqual(before);

      expect(await store.setResolved(job.id, { kinoSpec: 1 }, 'video()', fresh)).toBe(true);
      expect(await store.setAuthoring(job.id, { model: 'm' }, ['/scenes'], fresh)).toBe(true);
      expect(await store.setReview(job.id, review, fresh)).toBe(true);
      expect(await store.setChunkProgress(job.id, chunk, fresh)).toBe(true);
      expect(await store.markStoring(job.id, fresh)).toBe(true);
      expect(await store.get(job.id)).toMatchObject({
        status: 'running',
        attempts: 2,
        spec: { kinoSpec: 1 },
        code: 'video()',
        authoring: { model: 'm' },
        changes: ['/scenes'],
        review,
        progress: { stage: 'storing', framesDone: 5 },
      });
      expect(await store.succeed(job.id, outcome, T0 + 40, fresh)).toBe(true);
      expect(await store.get(job.id)).toMatchObject({ status: 'succeeded', video: outcome.video });

      // Taken over while still running (its worker's lock ran out), then failed or requeued.
      const other = await store.insert(newJob());
      await store.claim(other.id, T0 + 50, 3);
      expect(await store.claim(other.id, T0 + 60, 3)).toMatchObject({ claimed: { attempts: 2 } });
      expect(await store.fail(other.id, error, T0 + 70, undefined, stale)).toBe(false);
      expect(await store.requeue(other.id, 'counted', fresh)).toBe(true);
      expect(await store.claim(other.id, T0 + 80, 3)).toMatchObject({ claimed: { attempts: 3 } });
      expect(await store.fail(other.id, error, T0 + 90, undefined, fresh)).toBe(false);
      expect(await store.fail(other.id, error, T0 + 90, undefined, { attempt: 3 })).toBe(true);
      expect(await store.get(other.id)).toMatchObject({ status: 'failed', error, attempts: 3 });
      // Unfenced, as the API and the user write: a canceled job refuses every fence.
      const canceled = await store.insert(newJob());
      await store.claim(canceled.id, T0 + 100, 3);
      expect(await store.cancel(canceled.id, T0 + 110)).toBe(true);
      expect(await store.setProgress(canceled.id, progress(1), { attempt: 1 })).toBe(false);
      expect(await store.setAuthoring(canceled.id, { model: 'm' }, null, { attempt: 1 })).toBe(false);
    });

    it('at start, requeues interrupted jobs with attempts left and fails the rest as worker_lost', async () => {
      const a = await store.insert(newJob());
      const b = await store.insert(newJob());
      const c = await store.insert(newJob());
      await store.claimNext(T0 + 10); // a: attempt 1
      await store.claimNext(T0 + 11); // b: attempt 1; c stays queued
      await store.setProgress(a.id, progress(7));
      // The process dies; the next one opens the same data.
      await store.close();
      store = await backend.reopen();
      let recovered = await store.recoverInterrupted(2, T0 + 20);
      expect(recovered).toEqual({ requeued: [a.id, b.id], failed: [] });
      for (const id of [a.id, b.id]) {
        expect(await store.get(id)).toMatchObject({
          status: 'queued',
          attempts: 1,
          startedAt: null,
          progress: null,
          error: null,
        });
      }
      expect(await store.get(c.id)).toMatchObject({ status: 'queued', attempts: 0 });

      // All three run, and the process dies again: a and b are at the limit, c is not.
      const ids = [];
      for (const i of [1, 2, 3]) ids.push((await store.claimNext(T0 + 30 + i))?.id);
      expect(ids).toEqual([a.id, b.id, c.id]);
      recovered = await store.recoverInterrupted(2, T0 + 40);
      expect(recovered).toEqual({ requeued: [c.id], failed: [a.id, b.id] });
      for (const id of [a.id, b.id]) {
        const job = (await store.get(id))!;
        expect(job).toMatchObject({ status: 'failed', finishedAt: T0 + 40, attempts: 2 });
        expect(job.error?.code).toBe('worker_lost');
        expect(job.error?.message).toMatch(/stopped during this render 2 times/);
        expect(job.error?.message).toMatch(/RENDER_MAX_ATTEMPTS=2/);
      }
      expect(await store.get(c.id)).toMatchObject({ status: 'queued', attempts: 1 });
      expect(await store.countByStatus('running')).toBe(0);
    });

    it('fails an interrupted job at once when RENDER_MAX_ATTEMPTS is 1', async () => {
      const job = await store.insert(newJob());
      await store.claimNext(T0 + 10);
      const recovered = await store.recoverInterrupted(1, T0 + 20);
      expect(recovered).toEqual({ requeued: [], failed: [job.id] });
      const failed = (await store.get(job.id))!;
      expect(failed).toMatchObject({ status: 'failed', finishedAt: T0 + 20 });
      expect(failed.error).toEqual({
        code: 'worker_lost',
        message: expect.stringMatching(/stopped during this render 1 time;.*RENDER_MAX_ATTEMPTS=1/),
      });
      // Nothing else is touched, and a second recovery finds nothing.
      expect(await store.recoverInterrupted(1, T0 + 30)).toEqual({ requeued: [], failed: [] });
    });

    it('starts the ttl over when a job ends, however long it ran', async () => {
      const done = await store.insert(newJob({ createdAt: T0, ttlMs: HOUR }));
      const failed = await store.insert(newJob({ createdAt: T0 + 1, ttlMs: HOUR }));
      const canceled = await store.insert(newJob({ createdAt: T0 + 2, ttlMs: HOUR }));
      expect(done.expiresAt).toBe(T0 + HOUR);
      await store.claimNext(T0 + 10);
      await store.claimNext(T0 + 10);
      expect(await store.succeed(done.id, outcome, T0 + 3 * HOUR)).toBe(true);
      expect(await store.fail(failed.id, { code: 'render_failed', message: 'x' }, T0 + 2 * HOUR)).toBe(true);
      expect(await store.cancel(canceled.id, T0 + 5)).toBe(true);
      expect((await store.get(done.id))!.expiresAt).toBe(T0 + 4 * HOUR);
      expect((await store.get(failed.id))!.expiresAt).toBe(T0 + 3 * HOUR);
      expect((await store.get(canceled.id))!.expiresAt).toBe(T0 + 5 + HOUR);
    });

    it('lists expired jobs, oldest expiry first, whatever their status', async () => {
      const later = await store.insert(newJob({ createdAt: T0, ttlMs: 5000 }));
      const sooner = await store.insert(newJob({ createdAt: T0, ttlMs: 1000 }));
      const notYet = await store.insert(newJob({ createdAt: T0, ttlMs: 9000 }));
      const running = await store.insert(newJob({ createdAt: T0 - 1, ttlMs: 3001 }));
      await store.claimNext(T0 + 1);
      expect((await store.get(running.id))?.status).toBe('running');

      expect(await store.expired(T0 + 999)).toEqual([]);
      expect((await store.expired(T0 + 1000)).map((job) => job.id)).toEqual([sooner.id]);
      expect((await store.expired(T0 + 5000)).map((job) => job.id)).toEqual([
        sooner.id,
        running.id,
        later.id,
      ]);
      expect((await store.expired(T0 + 5000, 2)).map((job) => job.id)).toEqual([sooner.id, running.id]);
      expect((await store.expired(T0 + 9000)).map((job) => job.id)).toContain(notYet.id);
    });

    it('removes a job and remembers its id as removed', async () => {
      const job = await store.insert(newJob());
      const other = await store.insert(newJob());
      expect(await store.lookup(job.id)).toEqual({ found: await store.get(job.id) });
      expect(await store.lookup('rnd_neverexistedneverexisted')).toBeUndefined();

      await store.remove(job.id, T0 + 100);
      expect(await store.get(job.id)).toBeUndefined();
      expect(await store.lookup(job.id)).toEqual({ removed: true });
      expect(await store.count()).toBe(1);
      expect(await store.lookup(other.id)).toMatchObject({ found: { id: other.id } });
      // Removing twice is harmless.
      await store.remove(job.id, T0 + 200);
      expect(await store.lookup(job.id)).toEqual({ removed: true });
    });

    it('forgets removed ids older than the cutoff only', async () => {
      const old = await store.insert(newJob());
      const recent = await store.insert(newJob());
      await store.remove(old.id, T0 + 100);
      await store.remove(recent.id, T0 + 500);

      await store.forgetRemoved(T0 + 100); // strictly before: nothing yet
      expect(await store.lookup(old.id)).toEqual({ removed: true });
      await store.forgetRemoved(T0 + 101);
      expect(await store.lookup(old.id)).toBeUndefined();
      expect(await store.lookup(recent.id)).toEqual({ removed: true });
    });

    it('opens a database made before receipts were kept: its jobs have none, new ones do', async (context) => {
      if (backend.name !== 'SQLite') context.skip();
      await store.close();
      const oldFile = path.join(dir, 'old.sqlite');
      const old = new DatabaseSync(oldFile);
      old.exec(`CREATE TABLE jobs (
      id TEXT PRIMARY KEY, status TEXT NOT NULL, input_json TEXT NOT NULL, options_json TEXT NOT NULL,
      visibility TEXT NOT NULL, created_at INTEGER NOT NULL, started_at INTEGER, finished_at INTEGER,
      expires_at INTEGER NOT NULL, ttl_ms INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
      progress_json TEXT, spec_json TEXT, code TEXT, video_json TEXT, poster_json TEXT, error_json TEXT
    ) STRICT`);
      old
        .prepare(
          `INSERT INTO jobs (id, status, input_json, options_json, visibility, created_at, expires_at, ttl_ms)
         VALUES ('rnd_oldoldoldoldoldoldold', 'queued', '{"kind":"key","key":"stats"}',
                 '{"format":"mp4","quality":"draft"}', 'private', ?, ?, ?)`,
        )
        .run(T0, T0 + HOUR, HOUR);
      old.close();
      store = new SqliteJobStore(oldFile);
      expect(await store.get('rnd_oldoldoldoldoldoldold')).toMatchObject({ status: 'queued', receipt: null });
      await store.claimNext(T0 + 1);
      expect(await store.succeed('rnd_oldoldoldoldoldoldold', outcome, T0 + 2)).toBe(true);
      expect((await store.get('rnd_oldoldoldoldoldoldold'))?.receipt).toEqual(outcome.receipt);
      await store.close();
      // Opening it again finds the column there and leaves it be.
      store = new SqliteJobStore(oldFile);
      expect((await store.get('rnd_oldoldoldoldoldoldold'))?.receipt).toEqual(outcome.receipt);
    });

    it('keeps queued jobs and tombstones across a reopen (a restart)', async () => {
      const queued = await store.insert(newJob());
      const removed = await store.insert(newJob());
      await store.remove(removed.id, T0 + 10);
      await store.close();
      await store.close(); // closing twice is harmless
      store = await backend.reopen();
      expect((await store.get(queued.id))?.status).toBe('queued');
      expect(await store.lookup(removed.id)).toEqual({ removed: true });
      expect((await store.claimNext(T0 + 20))?.id).toBe(queued.id);
    });
  });

  describe('idempotency keys', () => {
    it('claims a key once; a second claim sees the first in progress, then its job', async () => {
      expect(await store.claimIdempotencyKey('s', 'k', 'f1', T0, 24 * HOUR)).toEqual({ state: 'claimed' });
      expect(await store.claimIdempotencyKey('s', 'k', 'f1', T0 + 1, 24 * HOUR)).toEqual({
        state: 'in_progress',
      });
      await store.completeIdempotencyKey('s', 'k', 'rnd_x');
      expect(await store.claimIdempotencyKey('s', 'k', 'f1', T0 + 2, 24 * HOUR)).toEqual({
        state: 'done',
        jobId: 'rnd_x',
      });
      expect(await store.claimIdempotencyKey('s', 'k', 'f2', T0 + 3, 24 * HOUR)).toEqual({
        state: 'mismatch',
      });
      // Another scope (token) has its own keys.
      expect(await store.claimIdempotencyKey('other', 'k', 'f2', T0 + 4, 24 * HOUR)).toEqual({
        state: 'claimed',
      });
    });

    it('forgets a key after its time, and a released claim can be made again', async () => {
      await store.claimIdempotencyKey('s', 'k', 'f1', T0, 24 * HOUR);
      await store.completeIdempotencyKey('s', 'k', 'rnd_x');
      expect(await store.claimIdempotencyKey('s', 'k', 'f2', T0 + 24 * HOUR, 24 * HOUR)).toEqual({
        state: 'claimed',
      });
      await store.releaseIdempotencyKey('s', 'k');
      expect(await store.claimIdempotencyKey('s', 'k', 'f3', T0 + 24 * HOUR + 1, 24 * HOUR)).toEqual({
        state: 'claimed',
      });
    });
  });

  describe('webhook deliveries', () => {
    it('enqueues one delivery per ended job, keeps the job from cleanup until it is settled', async () => {
      const webhook = { url: 'https://hooks.example.com/k', events: ['render.succeeded' as const] };
      const job = await store.insert(newJob({ webhook, ttlMs: 1000 }));
      const skipped = await store.insert(newJob({ webhook, ttlMs: 1000 }));
      await store.claimNext(T0 + 10);
      await store.claimNext(T0 + 11);
      await store.succeed(job.id, outcome, T0 + 20);
      await store.fail(skipped.id, { code: 'render_failed', message: 'x' }, T0 + 20);
      const later = T0 + 10_000;
      // Ended and expired, but the delivery is not made yet: cleanup leaves them.
      expect((await store.expired(later)).map((j) => j.id)).toEqual([]);
      expect(await store.enqueueWebhookEvents(later)).toBe(2);
      expect(await store.enqueueWebhookEvents(later)).toBe(0);
      expect((await store.get(skipped.id))!.webhook!.state).toBe('skipped');
      expect((await store.expired(later)).map((j) => j.id)).toEqual([skipped.id]);
      expect(await store.dueWebhooks(later, 10)).toEqual([
        { jobId: job.id, url: webhook.url, event: 'render.succeeded', attempts: 0 },
      ]);
      await store.recordWebhookAttempt(
        job.id,
        { at: later, status: 500, error: 'HTTP 500' },
        false,
        later + 5000,
      );
      expect(await store.dueWebhooks(later + 1, 10)).toEqual([]);
      expect((await store.expired(later + 1)).map((j) => j.id)).toEqual([skipped.id]);
      await store.recordWebhookAttempt(job.id, { at: later + 5000, status: 200, error: null }, true, null);
      expect((await store.get(job.id))!.webhook).toMatchObject({
        state: 'delivered',
        deliveries: [{ status: 500 }, { status: 200 }],
      });
      expect((await store.expired(later + 6000)).map((j) => j.id).sort()).toEqual(
        [job.id, skipped.id].sort(),
      );
    });

    it('frees an Idempotency-Key claim a dead process left after a minute', async () => {
      expect(await store.claimIdempotencyKey('s', 'k', 'f', T0, 24 * HOUR)).toEqual({ state: 'claimed' });
      expect(await store.claimIdempotencyKey('s', 'k', 'f', T0 + 30_000, 24 * HOUR)).toEqual({
        state: 'in_progress',
      });
      expect(await store.claimIdempotencyKey('s', 'k', 'f', T0 + 61_000, 24 * HOUR)).toEqual({
        state: 'claimed',
      });
    });
  });
});
