import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LocalStorage } from '../storage/local-storage.ts';
import { Cleanup } from './cleanup.ts';
import type { JobStores } from './job-stores.ts';
import { SqliteJobStore } from './sqlite-job-store.ts';
import type { RenderJob } from './job-store.ts';

const T0 = Date.UTC(2030, 0, 1);
const MINUTE = 60_000;
const DAY = 86_400_000;

let dir: string;
let filesDir: string;
let store: JobStores;
let storage: LocalStorage;
let now: number;
let cleanup: Cleanup;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kino-cleanup-'));
  filesDir = path.join(dir, 'files');
  store = new SqliteJobStore(path.join(dir, 'jobs.sqlite'));
  storage = new LocalStorage(filesDir);
  now = T0;
  cleanup = new Cleanup({ store, storage, log: pino({ level: 'silent' }), now: () => now });
});

afterEach(async () => {
  await cleanup.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  vi.useRealTimers();
});

let serial = 0;
const nextId = () => `rnd_cleanup${String(++serial).padStart(4, '0')}abcdefghijklmn`;

/** Writes a scratch file of `bytes` bytes and moves it into storage, as the runner does. */
async function storeFile(id: string, kind: 'video' | 'poster', extension: string, bytes: number) {
  const source = path.join(dir, `scratch-${id}-${kind}${extension}`);
  writeFileSync(source, Buffer.alloc(bytes, kind === 'video' ? 1 : 2));
  return storage.put({ id, kind, extension }, source);
}

/** A succeeded render with a video (and a poster unless posterBytes is 0) expiring at `expiresAt`. */
async function succeededRender(expiresAt: number, videoBytes = 1000, posterBytes = 200): Promise<RenderJob> {
  const id = nextId();
  await store.insert({
    id,
    input: { kind: 'key', key: 'launch' },
    options: { format: 'mp4', quality: 'draft' },
    visibility: 'public',
    createdAt: now - MINUTE + serial,
    // The ttl restarts when the render succeeds (at `now` below).
    ttlMs: expiresAt - now,
  });
  expect((await store.claimNext(now))?.id).toBe(id);
  const video = await storeFile(id, 'video', '.mp4', videoBytes);
  const poster = posterBytes > 0 ? await storeFile(id, 'poster', '.png', posterBytes) : undefined;
  await store.succeed(
    id,
    {
      spec: null,
      code: null,
      video: {
        extension: '.mp4',
        bytes: video.bytes,
        contentType: 'video/mp4',
        width: 2,
        height: 2,
        durationSeconds: 1,
        sha256: '0'.repeat(64),
      },
      poster: poster ? { extension: '.png', bytes: poster.bytes, contentType: 'image/png' } : null,
    },
    now,
  );
  return (await store.get(id))!;
}

async function queuedJob(expiresAt: number): Promise<RenderJob> {
  return await store.insert({
    id: nextId(),
    input: { kind: 'key', key: 'launch' },
    options: { format: 'mp4', quality: 'draft' },
    visibility: 'private',
    createdAt: now - MINUTE + serial,
    ttlMs: expiresAt - (now - MINUTE + serial),
  });
}

const renderDir = (id: string) => path.join(filesDir, id);

describe('Cleanup', () => {
  it('leaves renders alone before their expiry', async () => {
    const job = await succeededRender(T0 + 10 * MINUTE);
    for (const dryRun of [true, false]) {
      expect(await cleanup.run({ dryRun })).toEqual({
        scanned: 0,
        deletedFiles: 0,
        deletedJobs: 0,
        freedBytes: 0,
        dryRun,
      });
    }
    expect((await store.get(job.id))?.status).toBe('succeeded');
    expect(existsSync(path.join(renderDir(job.id), 'video.mp4'))).toBe(true);
  });

  it('counts in a dry run without deleting anything', async () => {
    const a = await succeededRender(T0 + MINUTE, 1000, 200);
    const b = await succeededRender(T0 + 2 * MINUTE, 5000, 0);
    const later = await succeededRender(T0 + 60 * MINUTE, 777, 0);
    now = T0 + 5 * MINUTE;
    const report = await cleanup.run({ dryRun: true });
    expect(report).toEqual({ scanned: 2, deletedFiles: 3, deletedJobs: 2, freedBytes: 6200, dryRun: true });
    for (const job of [a, b, later]) {
      expect((await store.get(job.id))?.status).toBe('succeeded');
      expect(existsSync(path.join(renderDir(job.id), 'video.mp4'))).toBe(true);
    }
    expect(existsSync(path.join(renderDir(a.id), 'poster.png'))).toBe(true);
    // A dry run is repeatable: it reports the same again.
    expect(await cleanup.run({ dryRun: true })).toEqual(report);
  });

  it('deletes the files and jobs of expired renders and remembers their ids', async () => {
    const a = await succeededRender(T0 + MINUTE, 1000, 200);
    const b = await succeededRender(T0 + 2 * MINUTE, 5000, 0);
    const later = await succeededRender(T0 + 60 * MINUTE, 777, 0);
    now = T0 + 5 * MINUTE;
    expect(await cleanup.run({ dryRun: false })).toEqual({
      scanned: 2,
      deletedFiles: 3,
      deletedJobs: 2,
      freedBytes: 6200,
      dryRun: false,
    });
    for (const job of [a, b]) {
      expect(existsSync(renderDir(job.id))).toBe(false);
      expect(await store.get(job.id)).toBeUndefined();
      expect(await store.lookup(job.id)).toEqual({ removed: true });
    }
    expect((await store.get(later.id))?.status).toBe('succeeded');
    expect(existsSync(path.join(renderDir(later.id), 'video.mp4'))).toBe(true);
    // Nothing is left to remove.
    expect(await cleanup.run({ dryRun: false })).toEqual({
      scanned: 0,
      deletedFiles: 0,
      deletedJobs: 0,
      freedBytes: 0,
      dryRun: false,
    });
  });

  it('counts a render expiring exactly now as expired', async () => {
    const job = await succeededRender(T0 + MINUTE, 10, 0);
    now = T0 + MINUTE;
    expect(await cleanup.run({ dryRun: false })).toMatchObject({
      scanned: 1,
      deletedJobs: 1,
      freedBytes: 10,
    });
    expect(await store.lookup(job.id)).toEqual({ removed: true });
  });

  it('never touches queued or running jobs, even past their expiry', async () => {
    const done = await succeededRender(T0 + MINUTE, 100, 0);
    const queued = await queuedJob(T0 + MINUTE);
    const running = await queuedJob(T0 + MINUTE);
    // claimNext takes the oldest (queued) first: claim both, then put the first back.
    await store.claimNext(now);
    await store.claimNext(now);
    await store.requeue(queued.id);
    expect((await store.get(queued.id))?.status).toBe('queued');
    expect((await store.get(running.id))?.status).toBe('running');
    // A running render may already have a file in storage (it is being stored).
    await storeFile(running.id, 'video', '.mp4', 321);

    now = T0 + 10 * MINUTE;
    for (const dryRun of [true, false]) {
      const report = await cleanup.run({ dryRun });
      expect(report.scanned).toBe(3);
      expect(report.deletedJobs).toBe(1);
      expect(report.freedBytes).toBe(100);
    }
    expect((await store.get(queued.id))?.status).toBe('queued');
    expect((await store.get(running.id))?.status).toBe('running');
    expect(existsSync(path.join(renderDir(running.id), 'video.mp4'))).toBe(true);
    expect(await store.lookup(done.id)).toEqual({ removed: true });

    // Once the running render ends, its ttl starts over; when that passes, the next run removes it.
    await store.fail(running.id, { code: 'render_failed', message: 'x' }, now);
    await store.cancel(queued.id, now);
    expect((await cleanup.run({ dryRun: true })).deletedJobs).toBe(0);
    now = T0 + 30 * MINUTE;
    expect(await cleanup.run({ dryRun: false })).toEqual({
      scanned: 2,
      deletedFiles: 1,
      deletedJobs: 2,
      freedBytes: 321,
      dryRun: false,
    });
    expect(existsSync(renderDir(running.id))).toBe(false);
    expect(await store.count()).toBe(0);
  });

  it('removes failed and canceled jobs that have no files', async () => {
    const failed = await queuedJob(T0 + MINUTE);
    await store.fail(failed.id, { code: 'render_failed', message: 'x' }, now);
    const canceled = await queuedJob(T0 + MINUTE);
    await store.cancel(canceled.id, now);
    now = T0 + 2 * MINUTE;
    expect(await cleanup.run({ dryRun: false })).toEqual({
      scanned: 2,
      deletedFiles: 0,
      deletedJobs: 2,
      freedBytes: 0,
      dryRun: false,
    });
    expect(await store.lookup(failed.id)).toEqual({ removed: true });
    expect(await store.lookup(canceled.id)).toEqual({ removed: true });
  });

  it('does not double-delete when runs overlap', async () => {
    const jobs = await Promise.all([
      succeededRender(T0 + MINUTE, 1000, 200),
      succeededRender(T0 + MINUTE, 2000, 0),
      succeededRender(T0 + MINUTE, 3000, 0),
    ]);
    now = T0 + 2 * MINUTE;
    const removeRender = vi.spyOn(storage, 'removeRender');
    const reports = await Promise.all([
      cleanup.run({ dryRun: false }),
      cleanup.run({ dryRun: false }),
      cleanup.run({ dryRun: true }),
      cleanup.run({ dryRun: false }),
    ]);
    expect(reports.reduce((sum, r) => sum + r.deletedJobs, 0)).toBe(3);
    expect(reports.filter((r) => !r.dryRun).reduce((sum, r) => sum + r.freedBytes, 0)).toBe(6200);
    expect(reports.reduce((sum, r) => sum + r.deletedFiles, 0)).toBe(4);
    // The first run took everything; the ones queued behind it found nothing.
    expect(reports[0]).toMatchObject({ scanned: 3, deletedJobs: 3, deletedFiles: 4, freedBytes: 6200 });
    for (const report of reports.slice(1)) expect(report).toMatchObject({ scanned: 0, deletedJobs: 0 });
    expect(removeRender).toHaveBeenCalledTimes(3);
    expect(new Set(removeRender.mock.calls.map(([id]) => id)).size).toBe(3);
    for (const job of jobs) expect(await store.lookup(job.id)).toEqual({ removed: true });
  });

  it('skips a render it cannot remove, and removes it on a later run', async () => {
    const job = await succeededRender(T0 + MINUTE, 50, 0);
    now = T0 + 2 * MINUTE;
    const removeRender = vi
      .spyOn(storage, 'removeRender')
      .mockRejectedValueOnce(Object.assign(new Error('EBUSY'), { code: 'EBUSY' }));
    // One render that cannot be removed is logged and skipped; the run itself completes.
    expect(await cleanup.run({ dryRun: false })).toMatchObject({ scanned: 1, deletedJobs: 0, freedBytes: 0 });
    // The job stays (its files may still be there) and the next run removes it.
    expect((await store.get(job.id))?.status).toBe('succeeded');
    expect(await cleanup.run({ dryRun: false })).toMatchObject({ deletedJobs: 1, freedBytes: 50 });
    expect(removeRender).toHaveBeenCalledTimes(2);
    expect(await store.lookup(job.id)).toEqual({ removed: true });
  });

  it('forgets removed ids after 30 days', async () => {
    const job = await succeededRender(T0 + MINUTE, 10, 0);
    now = T0 + 2 * MINUTE;
    await cleanup.run({ dryRun: false });
    expect(await store.lookup(job.id)).toEqual({ removed: true });
    now = T0 + 2 * MINUTE + 29 * DAY;
    await cleanup.run({ dryRun: false });
    expect(await store.lookup(job.id)).toEqual({ removed: true });
    // A dry run forgets nothing.
    now = T0 + 2 * MINUTE + 31 * DAY;
    await cleanup.run({ dryRun: true });
    expect(await store.lookup(job.id)).toEqual({ removed: true });
    await cleanup.run({ dryRun: false });
    expect(await store.lookup(job.id)).toBeUndefined();
  });

  it('runs on its timer until stopped, and not at all with an interval of 0', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const run = vi.spyOn(cleanup, 'run');
    cleanup.startTimer(0);
    await vi.advanceTimersByTimeAsync(10 * MINUTE);
    expect(run).not.toHaveBeenCalled();

    const job = await succeededRender(T0 + MINUTE, 10, 0);
    cleanup.startTimer(15 * MINUTE);
    await vi.advanceTimersByTimeAsync(15 * MINUTE - 1);
    expect(run).not.toHaveBeenCalled();
    now = T0 + 2 * MINUTE;
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    expect(run).toHaveBeenLastCalledWith({ dryRun: false });
    await cleanup.stop();
    expect(await store.lookup(job.id)).toEqual({ removed: true });
    await vi.advanceTimersByTimeAsync(60 * MINUTE);
    expect(run).toHaveBeenCalledTimes(1);
  });
});
