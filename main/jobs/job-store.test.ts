import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RenderReceipt } from '../../shared/protocol/receipt.ts';
import { JobStore } from './job-store.ts';
import type { JobOutcome, JobProgress, NewRenderJob } from './job-store.ts';

const T0 = Date.UTC(2030, 0, 1);
const HOUR = 3_600_000;

let dir: string;
let file: string;
let store: JobStore;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kino-job-store-'));
  file = path.join(dir, 'jobs.sqlite');
  store = new JobStore(file);
});

afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

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

describe('JobStore', () => {
  it('inserts a queued job and reads back every field', () => {
    const input = newJob({
      input: { kind: 'spec', spec: { kinoSpec: 1, scenes: [{ duration: '1s' }] } },
      options: { format: 'mov', quality: 'high', aspect: 'square', poster: '1.5s' },
      visibility: 'public',
    });
    const inserted = store.insert(input);
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
    expect(store.get(input.id)).toEqual(inserted);
    expect(store.get('rnd_unknownunknownunknown')).toBeUndefined();
    expect(store.count()).toBe(1);
    expect(store.countByStatus('queued')).toBe(1);
  });

  it('keeps the spec and code known at submit from the start', () => {
    const job = store.insert(newJob({ spec: { kinoSpec: 1, scenes: [] }, code: 'export default video()' }));
    expect(job.spec).toEqual({ kinoSpec: 1, scenes: [] });
    expect(job.code).toBe('export default video()');
    expect(store.insert(newJob()).spec).toBeNull();
  });

  it('rejects a second job with the same id', () => {
    const job = newJob();
    store.insert(job);
    expect(() => store.insert(job)).toThrow();
    expect(store.count()).toBe(1);
  });

  it('claims the oldest queued job first, each job once', () => {
    // Inserted out of order: the claim order follows createdAt, then insertion for equal times.
    const late = store.insert(newJob({ createdAt: T0 + 300 }));
    const early = store.insert(newJob({ createdAt: T0 + 100 }));
    const tieA = store.insert(newJob({ createdAt: T0 + 200 }));
    const tieB = store.insert(newJob({ createdAt: T0 + 200 }));

    const claimed = [1, 2, 3, 4].map((i) => store.claimNext(T0 + 1000 + i));
    expect(claimed.map((job) => job?.id)).toEqual([early.id, tieA.id, tieB.id, late.id]);
    expect(store.claimNext(T0 + 2000)).toBeUndefined();

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
    expect(store.countByStatus('running')).toBe(4);
    expect(store.countByStatus('queued')).toBe(0);
  });

  it('does not claim jobs that are not queued', () => {
    const canceled = store.insert(newJob());
    store.cancel(canceled.id, T0 + 10);
    const queued = store.insert(newJob());
    expect(store.claimNext(T0 + 20)?.id).toBe(queued.id);
    expect(store.claimNext(T0 + 30)).toBeUndefined();
  });

  it('records progress only while a job runs', () => {
    const job = store.insert(newJob());
    store.setProgress(job.id, progress(3));
    expect(store.get(job.id)?.progress).toBeNull();

    store.claimNext(T0 + 10);
    store.setProgress(job.id, progress(5));
    expect(store.get(job.id)?.progress).toEqual(progress(5));
    store.setProgress(job.id, progress(12));
    expect(store.get(job.id)?.progress).toEqual(progress(12));

    expect(store.succeed(job.id, outcome, T0 + 20)).toBe(true);
    const finished = store.get(job.id)!.progress;
    store.setProgress(job.id, progress(1));
    expect(store.get(job.id)?.progress).toEqual(finished);
  });

  it('succeeds a running job with its outcome, keeping the last progress at 100%', () => {
    const job = store.insert(newJob());
    store.claimNext(T0 + 10);
    store.setProgress(job.id, progress(30));
    store.markStoring(job.id);
    expect(store.get(job.id)!.progress).toEqual({
      ...progress(30),
      stage: 'storing',
      percent: 98,
      etaSeconds: 0,
    });
    expect(store.succeed(job.id, outcome, T0 + 50)).toBe(true);
    const done = store.get(job.id)!;
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
    expect(store.succeed(job.id, outcome, T0 + 60)).toBe(false);
    expect(store.get(job.id)?.finishedAt).toBe(T0 + 50);
  });

  it('does not succeed a job that is queued or was canceled meanwhile', () => {
    const queued = store.insert(newJob());
    expect(store.succeed(queued.id, outcome, T0 + 10)).toBe(false);
    expect(store.get(queued.id)?.status).toBe('queued');

    store.claimNext(T0 + 20);
    expect(store.cancel(queued.id, T0 + 30)).toBe(true);
    expect(store.succeed(queued.id, outcome, T0 + 40)).toBe(false);
    expect(store.get(queued.id)).toMatchObject({ status: 'canceled', video: null });
  });

  it('fails queued or running jobs, keeping what was resolved, but never a terminal one', () => {
    const running = store.insert(newJob());
    store.claimNext(T0 + 10);
    const error = { code: 'render_failed', message: 'boom' };
    expect(store.fail(running.id, error, T0 + 20, { spec: { kinoSpec: 1 }, code: 'video()' })).toBe(true);
    expect(store.get(running.id)).toMatchObject({
      status: 'failed',
      finishedAt: T0 + 20,
      error,
      spec: { kinoSpec: 1 },
      code: 'video()',
    });
    expect(store.fail(running.id, { code: 'other', message: 'again' }, T0 + 30)).toBe(false);
    expect(store.get(running.id)?.error).toEqual(error);

    const queued = store.insert(newJob());
    expect(store.fail(queued.id, error, T0 + 40)).toBe(true);
    expect(store.get(queued.id)).toMatchObject({ status: 'failed', spec: null, code: null });

    const succeeded = store.insert(newJob());
    store.claimNext(T0 + 50);
    store.succeed(succeeded.id, outcome, T0 + 60);
    expect(store.fail(succeeded.id, error, T0 + 70)).toBe(false);
    expect(store.get(succeeded.id)?.status).toBe('succeeded');
  });

  it('cancels queued and running jobs; a terminal job cannot be canceled', () => {
    const queued = store.insert(newJob());
    const running = store.insert(newJob());
    store.claimNext(T0 + 5); // claims `queued` (the older one)
    store.claimNext(T0 + 6); // claims `running`
    store.requeue(queued.id);

    expect(store.cancel(queued.id, T0 + 10)).toBe(true);
    expect(store.cancel(running.id, T0 + 11)).toBe(true);
    for (const [id, at] of [
      [queued.id, T0 + 10],
      [running.id, T0 + 11],
    ] as const) {
      expect(store.get(id)).toMatchObject({
        status: 'canceled',
        finishedAt: at,
        error: { code: 'canceled', message: 'the render was canceled' },
      });
    }
    expect(store.cancel(queued.id, T0 + 20)).toBe(false);
    expect(store.get(queued.id)?.finishedAt).toBe(T0 + 10);

    const succeeded = store.insert(newJob());
    store.claimNext(T0 + 30);
    store.succeed(succeeded.id, outcome, T0 + 40);
    expect(store.cancel(succeeded.id, T0 + 50)).toBe(false);
    expect(store.get(succeeded.id)?.status).toBe('succeeded');

    const failed = store.insert(newJob());
    store.fail(failed.id, { code: 'x', message: 'y' }, T0 + 60);
    expect(store.cancel(failed.id, T0 + 70)).toBe(false);
    expect(store.get(failed.id)?.status).toBe('failed');
  });

  it('requeues a running job without counting the attempt', () => {
    const job = store.insert(newJob());
    store.claimNext(T0 + 10);
    store.setProgress(job.id, progress(4));
    expect(store.requeue(job.id)).toBe(true);
    expect(store.get(job.id)).toMatchObject({
      status: 'queued',
      startedAt: null,
      progress: null,
      attempts: 0,
    });
    // Only a running job goes back to the queue.
    expect(store.requeue(job.id)).toBe(false);
    const again = store.claimNext(T0 + 20)!;
    expect(again).toMatchObject({ id: job.id, attempts: 1, startedAt: T0 + 20 });
    store.succeed(job.id, outcome, T0 + 30);
    expect(store.requeue(job.id)).toBe(false);
    expect(store.get(job.id)?.status).toBe('succeeded');
  });

  it('at start, requeues interrupted jobs with attempts left and fails the rest as worker_lost', () => {
    const a = store.insert(newJob());
    const b = store.insert(newJob());
    const c = store.insert(newJob());
    store.claimNext(T0 + 10); // a: attempt 1
    store.claimNext(T0 + 11); // b: attempt 1; c stays queued
    store.setProgress(a.id, progress(7));
    // The process dies; the next one opens the same file.
    store.close();
    store = new JobStore(file);
    let recovered = store.recoverInterrupted(2, T0 + 20);
    expect(recovered).toEqual({ requeued: [a.id, b.id], failed: [] });
    for (const id of [a.id, b.id]) {
      expect(store.get(id)).toMatchObject({
        status: 'queued',
        attempts: 1,
        startedAt: null,
        progress: null,
        error: null,
      });
    }
    expect(store.get(c.id)).toMatchObject({ status: 'queued', attempts: 0 });

    // All three run, and the process dies again: a and b are at the limit, c is not.
    expect([1, 2, 3].map((i) => store.claimNext(T0 + 30 + i)?.id)).toEqual([a.id, b.id, c.id]);
    recovered = store.recoverInterrupted(2, T0 + 40);
    expect(recovered).toEqual({ requeued: [c.id], failed: [a.id, b.id] });
    for (const id of [a.id, b.id]) {
      const job = store.get(id)!;
      expect(job).toMatchObject({ status: 'failed', finishedAt: T0 + 40, attempts: 2 });
      expect(job.error?.code).toBe('worker_lost');
      expect(job.error?.message).toMatch(/stopped during this render 2 times/);
      expect(job.error?.message).toMatch(/RENDER_MAX_ATTEMPTS=2/);
    }
    expect(store.get(c.id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(store.countByStatus('running')).toBe(0);
  });

  it('fails an interrupted job at once when RENDER_MAX_ATTEMPTS is 1', () => {
    const job = store.insert(newJob());
    store.claimNext(T0 + 10);
    const recovered = store.recoverInterrupted(1, T0 + 20);
    expect(recovered).toEqual({ requeued: [], failed: [job.id] });
    const failed = store.get(job.id)!;
    expect(failed).toMatchObject({ status: 'failed', finishedAt: T0 + 20 });
    expect(failed.error).toEqual({
      code: 'worker_lost',
      message: expect.stringMatching(/stopped during this render 1 time;.*RENDER_MAX_ATTEMPTS=1/),
    });
    // Nothing else is touched, and a second recovery finds nothing.
    expect(store.recoverInterrupted(1, T0 + 30)).toEqual({ requeued: [], failed: [] });
  });

  it('starts the ttl over when a job ends, however long it ran', () => {
    const done = store.insert(newJob({ createdAt: T0, ttlMs: HOUR }));
    const failed = store.insert(newJob({ createdAt: T0 + 1, ttlMs: HOUR }));
    const canceled = store.insert(newJob({ createdAt: T0 + 2, ttlMs: HOUR }));
    expect(done.expiresAt).toBe(T0 + HOUR);
    store.claimNext(T0 + 10);
    store.claimNext(T0 + 10);
    expect(store.succeed(done.id, outcome, T0 + 3 * HOUR)).toBe(true);
    expect(store.fail(failed.id, { code: 'render_failed', message: 'x' }, T0 + 2 * HOUR)).toBe(true);
    expect(store.cancel(canceled.id, T0 + 5)).toBe(true);
    expect(store.get(done.id)!.expiresAt).toBe(T0 + 4 * HOUR);
    expect(store.get(failed.id)!.expiresAt).toBe(T0 + 3 * HOUR);
    expect(store.get(canceled.id)!.expiresAt).toBe(T0 + 5 + HOUR);
  });

  it('lists expired jobs, oldest expiry first, whatever their status', () => {
    const later = store.insert(newJob({ createdAt: T0, ttlMs: 5000 }));
    const sooner = store.insert(newJob({ createdAt: T0, ttlMs: 1000 }));
    const notYet = store.insert(newJob({ createdAt: T0, ttlMs: 9000 }));
    const running = store.insert(newJob({ createdAt: T0 - 1, ttlMs: 3001 }));
    store.claimNext(T0 + 1);
    expect(store.get(running.id)?.status).toBe('running');

    expect(store.expired(T0 + 999)).toEqual([]);
    expect(store.expired(T0 + 1000).map((job) => job.id)).toEqual([sooner.id]);
    expect(store.expired(T0 + 5000).map((job) => job.id)).toEqual([sooner.id, running.id, later.id]);
    expect(store.expired(T0 + 5000, 2).map((job) => job.id)).toEqual([sooner.id, running.id]);
    expect(store.expired(T0 + 9000).map((job) => job.id)).toContain(notYet.id);
  });

  it('removes a job and remembers its id as removed', () => {
    const job = store.insert(newJob());
    const other = store.insert(newJob());
    expect(store.lookup(job.id)).toEqual({ found: store.get(job.id) });
    expect(store.lookup('rnd_neverexistedneverexisted')).toBeUndefined();

    store.remove(job.id, T0 + 100);
    expect(store.get(job.id)).toBeUndefined();
    expect(store.lookup(job.id)).toEqual({ removed: true });
    expect(store.count()).toBe(1);
    expect(store.lookup(other.id)).toMatchObject({ found: { id: other.id } });
    // Removing twice is harmless.
    store.remove(job.id, T0 + 200);
    expect(store.lookup(job.id)).toEqual({ removed: true });
  });

  it('forgets removed ids older than the cutoff only', () => {
    const old = store.insert(newJob());
    const recent = store.insert(newJob());
    store.remove(old.id, T0 + 100);
    store.remove(recent.id, T0 + 500);

    store.forgetRemoved(T0 + 100); // strictly before: nothing yet
    expect(store.lookup(old.id)).toEqual({ removed: true });
    store.forgetRemoved(T0 + 101);
    expect(store.lookup(old.id)).toBeUndefined();
    expect(store.lookup(recent.id)).toEqual({ removed: true });
  });

  it('opens a database made before receipts were kept: its jobs have none, new ones do', () => {
    store.close();
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
    store = new JobStore(oldFile);
    expect(store.get('rnd_oldoldoldoldoldoldold')).toMatchObject({ status: 'queued', receipt: null });
    store.claimNext(T0 + 1);
    expect(store.succeed('rnd_oldoldoldoldoldoldold', outcome, T0 + 2)).toBe(true);
    expect(store.get('rnd_oldoldoldoldoldoldold')?.receipt).toEqual(outcome.receipt);
    store.close();
    // Opening it again finds the column there and leaves it be.
    store = new JobStore(oldFile);
    expect(store.get('rnd_oldoldoldoldoldoldold')?.receipt).toEqual(outcome.receipt);
  });

  it('keeps queued jobs and tombstones across a reopen (a restart)', () => {
    const queued = store.insert(newJob());
    const removed = store.insert(newJob());
    store.remove(removed.id, T0 + 10);
    store.close();
    store.close(); // closing twice is harmless
    store = new JobStore(file);
    expect(store.get(queued.id)?.status).toBe('queued');
    expect(store.lookup(removed.id)).toEqual({ removed: true });
    expect(store.claimNext(T0 + 20)?.id).toBe(queued.id);
  });
});

describe('idempotency keys', () => {
  it('claims a key once; a second claim sees the first in progress, then its job', () => {
    expect(store.claimIdempotencyKey('s', 'k', 'f1', T0, 24 * HOUR)).toEqual({ state: 'claimed' });
    expect(store.claimIdempotencyKey('s', 'k', 'f1', T0 + 1, 24 * HOUR)).toEqual({ state: 'in_progress' });
    store.completeIdempotencyKey('s', 'k', 'rnd_x');
    expect(store.claimIdempotencyKey('s', 'k', 'f1', T0 + 2, 24 * HOUR)).toEqual({
      state: 'done',
      jobId: 'rnd_x',
    });
    expect(store.claimIdempotencyKey('s', 'k', 'f2', T0 + 3, 24 * HOUR)).toEqual({ state: 'mismatch' });
    // Another scope (token) has its own keys.
    expect(store.claimIdempotencyKey('other', 'k', 'f2', T0 + 4, 24 * HOUR)).toEqual({ state: 'claimed' });
  });

  it('forgets a key after its time, and a released claim can be made again', () => {
    store.claimIdempotencyKey('s', 'k', 'f1', T0, 24 * HOUR);
    store.completeIdempotencyKey('s', 'k', 'rnd_x');
    expect(store.claimIdempotencyKey('s', 'k', 'f2', T0 + 24 * HOUR, 24 * HOUR)).toEqual({
      state: 'claimed',
    });
    store.releaseIdempotencyKey('s', 'k');
    expect(store.claimIdempotencyKey('s', 'k', 'f3', T0 + 24 * HOUR + 1, 24 * HOUR)).toEqual({
      state: 'claimed',
    });
  });
});

describe('webhook deliveries', () => {
  it('enqueues one delivery per ended job, keeps the job from cleanup until it is settled', () => {
    const webhook = { url: 'https://hooks.example.com/k', events: ['render.succeeded' as const] };
    const job = store.insert(newJob({ webhook, ttlMs: 1000 }));
    const skipped = store.insert(newJob({ webhook, ttlMs: 1000 }));
    store.claimNext(T0 + 10);
    store.claimNext(T0 + 11);
    store.succeed(job.id, outcome, T0 + 20);
    store.fail(skipped.id, { code: 'render_failed', message: 'x' }, T0 + 20);
    const later = T0 + 10_000;
    // Ended and expired, but the delivery is not made yet: cleanup leaves them.
    expect(store.expired(later).map((j) => j.id)).toEqual([]);
    expect(store.enqueueWebhookEvents(later)).toBe(2);
    expect(store.enqueueWebhookEvents(later)).toBe(0);
    expect(store.get(skipped.id)!.webhook!.state).toBe('skipped');
    expect(store.expired(later).map((j) => j.id)).toEqual([skipped.id]);
    expect(store.dueWebhooks(later, 10)).toEqual([
      { jobId: job.id, url: webhook.url, event: 'render.succeeded', attempts: 0 },
    ]);
    store.recordWebhookAttempt(job.id, { at: later, status: 500, error: 'HTTP 500' }, false, later + 5000);
    expect(store.dueWebhooks(later + 1, 10)).toEqual([]);
    expect(store.expired(later + 1).map((j) => j.id)).toEqual([skipped.id]);
    store.recordWebhookAttempt(job.id, { at: later + 5000, status: 200, error: null }, true, null);
    expect(store.get(job.id)!.webhook).toMatchObject({
      state: 'delivered',
      deliveries: [{ status: 500 }, { status: 200 }],
    });
    expect(
      store
        .expired(later + 6000)
        .map((j) => j.id)
        .sort(),
    ).toEqual([job.id, skipped.id].sort());
  });

  it('frees an Idempotency-Key claim a dead process left after a minute', () => {
    expect(store.claimIdempotencyKey('s', 'k', 'f', T0, 24 * HOUR)).toEqual({ state: 'claimed' });
    expect(store.claimIdempotencyKey('s', 'k', 'f', T0 + 30_000, 24 * HOUR)).toEqual({
      state: 'in_progress',
    });
    expect(store.claimIdempotencyKey('s', 'k', 'f', T0 + 61_000, 24 * HOUR)).toEqual({ state: 'claimed' });
  });
});
