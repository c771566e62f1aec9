// A render that chooses its threads by cost draws its first frames on its own thread and may hand the
// rest to worker threads mid-render: the file must be the one a single thread makes.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegToolsOrWarn } from '../ffmpeg/tools.fixture.ts';
import { resolveRenderInput } from '../project/resolve-input.ts';
import { projectContext } from './project-context.ts';
import { renderVideo } from './render-video.ts';
import type { RenderOptions, RenderRequest, RenderResult } from './render-video.ts';
import { PROBE_FRAMES, PROBE_WARM_UP_FRAMES } from './threads-by-cost.ts';

const run = promisify(execFile);
const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;

const found = ffmpegToolsOrWarn('the thread hand-over render test')?.ffmpeg;

/** Each decoded picture's md5, in order. */
async function frameHashes(path: string): Promise<string[]> {
  const { stdout } = await run(found!, ['-v', 'error', '-i', path, '-an', '-f', 'framemd5', '-'], {
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(',').pop()!.trim());
}

describe.runIf(found)('a render choosing threads by cost', () => {
  let work: string;
  let request: Omit<RenderRequest, 'outputPath' | 'options'>;
  // travel: images, a colour scene and a looping video clip at 0.75×. 240 draft frames is the
  // least that chooses by cost (smaller renders draw on one thread without measuring).
  const options: RenderOptions = { format: 'mp4', quality: 'draft', frames: 240, poster: '7s' };
  let one: RenderResult;
  let handedOver: RenderResult;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kino-handover-'));
    const input = await resolveRenderInput('travel', EXAMPLES);
    request = { model: input.model, project: await projectContext(input.project) };
    one = await renderVideo({
      ...request,
      outputPath: join(work, 'one.mp4'),
      options: { ...options, concurrency: 1, posterPath: join(work, 'one.png') },
    });
    handedOver = await renderVideo({
      ...request,
      outputPath: join(work, 'handed-over.mp4'),
      options: { ...options, posterPath: join(work, 'handed-over.png') },
      chooseWorkers: () => ({ workers: 2, reason: 'pinned by the test' }),
    });
  }, 180_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('hands over to worker threads after measuring, and says so', () => {
    expect(one.drawing).toEqual({ workers: 0, reason: '1 thread asked for', fromFrame: undefined });
    expect(handedOver.drawing.workers).toBe(2);
    expect(handedOver.drawing.reason).toBe('pinned by the test');
    expect(handedOver.drawing.fromFrame).toBeGreaterThanOrEqual(PROBE_WARM_UP_FRAMES + PROBE_FRAMES);
    expect(handedOver.drawing.fromFrame).toBeLessThan(210);
  });

  it('gives the decoded frames and the poster of a one-thread render', async () => {
    const [a, b] = await Promise.all([frameHashes(one.output.path), frameHashes(handedOver.output.path)]);
    expect(a).toHaveLength(240);
    expect(b).toEqual(a);
    expect(handedOver.poster?.frame).toBe(210);
    expect(await readFile(join(work, 'handed-over.png'))).toEqual(await readFile(join(work, 'one.png')));
  });
});
