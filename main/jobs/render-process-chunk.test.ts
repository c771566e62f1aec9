// One chunk of a split render, rendered by a real render job process into a real store: the chunk's
// progress reaches the job with the chunk's estimate, so the job shows an ETA while chunks draw.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStorage } from '../storage/local-storage.ts';
import type { ChunkProgress, Fence, JobProgress } from './job-store.ts';
import { RenderProcess } from './render-process.ts';
import { SqliteJobStore } from './sqlite-job-store.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
const SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 30,
  scenes: [
    { duration: '4s', elements: [{ type: 'text', text: 'Chunk', animate: [{ preset: 'slideFadeIn' }] }] },
  ],
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kino-chunk-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The SQLite store, keeping each chunk report and the job's progress it left. */
class WatchedStore extends SqliteJobStore {
  readonly reported: ChunkProgress[] = [];
  readonly seen: JobProgress[] = [];
  override async setChunkProgress(id: string, chunk: ChunkProgress, fence?: Fence): Promise<boolean> {
    this.reported.push(chunk);
    const written = await super.setChunkProgress(id, chunk, fence);
    this.seen.push((await this.get(id))!.progress!);
    return written;
  }
}

describe('a chunk of a split render', () => {
  it("reports the chunk's ETA, and the job's progress carries one while its frames draw", async () => {
    const store = new WatchedStore(path.join(dir, 'jobs.sqlite'));
    const now = Date.now();
    await store.insert({
      id: 'rnd_chunkEtaTest0000000000001',
      input: { kind: 'spec', spec: SPEC },
      options: { format: 'mp4', quality: 'draft' },
      visibility: 'private',
      createdAt: now,
      ttlMs: 3_600_000,
    });
    const job = (await store.claimNext(now))!;
    // The split's progress, as the queue worker writes it: two chunks of 60 frames.
    const chunks = [
      { framesDone: 0, framesTotal: 60 },
      { framesDone: 0, framesTotal: 60 },
    ];
    await store.setProgress(job.id, {
      stage: 'rendering',
      framesDone: 0,
      framesTotal: 120,
      percent: 2,
      etaSeconds: null,
      chunks,
    });
    const render = new RenderProcess(
      job,
      path.join(dir, 'work'),
      {
        store,
        storage: new LocalStorage(path.join(dir, 'storage')),
        renderProject: path.join(REPO_ROOT, 'examples'),
        timeoutMs: 0,
        maxAttempts: 1,
        cores: 1,
        log: pino({ level: 'silent' }),
        now: Date.now,
      },
      { kind: 'chunk', index: 0, count: 2, start: 0, end: 60 },
    );
    expect(await render.done).toMatchObject({ kind: 'chunk', frames: 60 });
    const drawing = store.reported.filter((chunk) => chunk.framesDone > 0 && chunk.framesDone < 60);
    expect(drawing.length).toBeGreaterThan(0);
    // Every report while drawing carries an ETA; near the end it may round to 0.0 s on a fast machine.
    for (const chunk of drawing) expect(chunk.etaSeconds).toBeGreaterThanOrEqual(0);
    expect(drawing[0]!.etaSeconds).toBeGreaterThan(0);
    // While chunk 0 draws (chunk 1 not started), the job's ETA covers both chunks' frames.
    const midway = store.seen.filter((progress) => progress.framesDone > 0 && progress.framesDone < 60);
    expect(midway.length).toBeGreaterThan(0);
    for (const progress of midway) expect(progress.etaSeconds).toBeGreaterThan(0);
    await store.close();
  }, 120_000);
});
