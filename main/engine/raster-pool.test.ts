import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planMedia } from '../../shared/timeline/media-plan.ts';
import { MediaError } from '../media/media-error.ts';
import { Yuv420pConverter } from '../encoder/yuv420p/yuv420p-kernel.ts';
import { yuv420pBytes } from '../encoder/yuv420p/yuv420p-reference.ts';
import { compositionSource, resolveRenderInput } from '../project/resolve-input.ts';
import { DrawingSession } from './drawing-session.ts';
import { MediaSession } from './media-session.ts';
import { resolveForOutput } from './output-video.ts';
import { projectContext } from './project-context.ts';
import { rasterInParallel } from './raster-pool.ts';
import { rasterThreads } from './raster-threads.ts';

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;
const OUTPUT = { format: 'mp4', quality: 'draft' } as const;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function load(key: string) {
  const input = await resolveRenderInput(key, EXAMPLES);
  return { input, project: await projectContext(input.project) };
}

/** Every frame's hash drawn on this thread, the way a one-thread render draws: all of them, or those given. */
async function hashesOnOneThread(key: string, frames: number | readonly number[]): Promise<string[]> {
  const { input, project } = await load(key);
  const session = await DrawingSession.open({
    model: input.model,
    project,
    resolve: (model) => resolveForOutput(model, OUTPUT),
  });
  const hashes: string[] = [];
  for (const frame of typeof frames === 'number' ? Array.from({ length: frames }, (_, i) => i) : frames) {
    await session.draw(frame);
    hashes.push(sha(session.rgba()));
  }
  session.close();
  return hashes;
}

/** The hashes of frames first..first+frames-1 drawn on `threads` worker threads. */
async function hashesInParallel(key: string, frames: number, threads: number, first = 0): Promise<string[]> {
  const { input, project } = await load(key);
  const plan = rasterThreads(
    threads,
    { count: frames, width: 540, height: 960 },
    {
      model: input.model,
      composition: compositionSource(input),
    },
  );
  expect(plan.count).toBe(threads);
  const video = resolveForOutput(input.model, OUTPUT);
  // As a render does: this thread decodes the video clips once, in order, and relays their pictures.
  const media = await MediaSession.open(planMedia(video), video.fps, project.media, undefined, undefined, {
    decodeImages: false,
    videoFrames: 'relay',
  });
  const prepare = (frame: number) => media.relayFrame(frame);
  const hashes: string[] = [];
  await rasterInParallel(
    { threads, source: plan.source, project, output: OUTPUT, ...video.size, prepare, first },
    frames,
    async (frame, pixels) => {
      expect(frame).toBe(first + hashes.length);
      hashes.push(sha(pixels));
      // A slow consumer: later frames finish first and wait in their slots.
      await new Promise((resolve) => setTimeout(resolve, frame % 7 === 0 ? 30 : 0));
    },
  );
  media.close();
  return hashes;
}

describe('rasterInParallel', () => {
  it('draws every frame bit-identical to one thread, in order (spec model cloned into 3 threads)', async () => {
    const frames = 40;
    const [one, three] = await Promise.all([
      hashesOnOneThread('chart-story', frames),
      hashesInParallel('chart-story', frames, 3),
    ]);
    expect(three).toEqual(one);
    expect(new Set(one).size).toBeGreaterThan(10);
  }, 120_000);

  it('converts to yuv420p in the threads as one thread does, and hands back one frame in RGBA', async () => {
    const frames = 12;
    const posterFrame = 5;
    const { input, project } = await load('chart-story');
    const video = resolveForOutput(input.model, OUTPUT);
    const { width, height } = video.size;
    const session = await DrawingSession.open({
      model: input.model,
      project,
      resolve: (model) => resolveForOutput(model, OUTPUT),
    });
    const converter = new Yuv420pConverter();
    const one: string[] = [];
    let posterOnOne = '';
    for (let frame = 0; frame < frames; frame++) {
      await session.draw(frame);
      const rgba = session.rgba();
      if (frame === posterFrame) posterOnOne = sha(rgba);
      one.push(sha(converter.convert(rgba, width, height, new Uint8Array(yuv420pBytes(width, height)))));
    }
    session.close();
    const three: string[] = [];
    const rgbaFrames: number[] = [];
    let posterInThreads = '';
    await rasterInParallel(
      {
        threads: 3,
        source: { kind: 'model', model: input.model },
        project,
        output: OUTPUT,
        ...video.size,
        pixelFormat: 'yuv420p',
        rgbaFrame: posterFrame,
      },
      frames,
      async (frame, pixels, rgba) => {
        expect(pixels.byteLength).toBe(yuv420pBytes(width, height));
        three.push(sha(pixels));
        if (rgba) {
          rgbaFrames.push(frame);
          posterInThreads = sha(rgba);
        }
      },
    );
    expect(three).toEqual(one);
    expect(rgbaFrames).toEqual([posterFrame]);
    expect(posterInThreads).toBe(posterOnOne);
  }, 120_000);

  it('loads a composition with custom drawing in each thread and draws the same frames', async () => {
    const { input } = await load('data-story');
    expect(rasterThreads(2, { count: 100, width: 540, height: 960 }, { model: input.model }).count).toBe(1);
    const frames = 30;
    const one = await hashesOnOneThread('data-story', frames);
    expect(await hashesInParallel('data-story', frames, 2)).toEqual(one);
  }, 120_000);

  it('relays video clips decoded once, in order, and draws them identical to one thread', async () => {
    // travel: a looping video background at 0.75× after an image and a colour scene, 405 frames.
    const { input } = await load('travel');
    const frames = resolveForOutput(input.model, OUTPUT).durationFrames;
    const one = await hashesOnOneThread('travel', frames);
    expect(await hashesInParallel('travel', frames, 3)).toEqual(one);
  }, 180_000);

  it('draws product-launch’s noise, blur and zoom transition identical to one thread', async () => {
    // Each thread paints its own noise variants (the grain cycles through six) and draws blurred text
    // through bounded layers and a transition through offscreen scenes: none of it may depend on
    // which frames the thread drew before. One thread draws the three runs in a row, skipping between.
    const runs = [
      { first: 0, frames: 8 }, // the noise background's variants, and maskRevealIn
      { first: 40, frames: 6 }, // blurIn on "Sound, reshaped."
      { first: 164, frames: 6 }, // the zoom transition into the last scene
    ];
    const one = await hashesOnOneThread(
      'product-launch',
      runs.flatMap(({ first, frames }) => Array.from({ length: frames }, (_, i) => first + i)),
    );
    const three: string[] = [];
    for (const { first, frames } of runs)
      three.push(...(await hashesInParallel('product-launch', frames, 3, first)));
    expect(three).toEqual(one);
    expect(new Set(one).size).toBe(one.length);
  }, 120_000);

  it('stops the threads and rejects when the render is aborted', async () => {
    const { input, project } = await load('chart-story');
    const video = resolveForOutput(input.model, OUTPUT);
    const abort = new AbortController();
    let written = 0;
    const run = rasterInParallel(
      {
        threads: 2,
        source: { kind: 'model', model: input.model },
        project,
        output: OUTPUT,
        ...video.size,
        signal: abort.signal,
      },
      200,
      async () => {
        if (++written === 5) abort.abort(new Error('render canceled'));
      },
    );
    await expect(run).rejects.toThrow('render canceled');
    expect(written).toBe(5);
  }, 60_000);

  it('keeps a media error’s class and code when it happens in a thread', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kino-pool-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'assets', 'bad.png'), randomBytes(4000));
    const spec = {
      kinoSpec: 1,
      scenes: [{ duration: 2, elements: [{ type: 'image', src: 'asset:bad.png', width: 300, height: 300 }] }],
    };
    await writeFile(join(dir, 'bad.json'), JSON.stringify(spec));
    const input = await resolveRenderInput(join(dir, 'bad.json'), dir);
    const run = rasterInParallel(
      {
        threads: 2,
        source: { kind: 'model', model: input.model },
        project: await projectContext(input.project),
        output: OUTPUT,
        width: 540,
        height: 960,
      },
      30,
      async () => undefined,
    );
    const error = await run.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MediaError);
    expect(error).toMatchObject({ code: 'media_corrupt_image', source: 'asset:bad.png' });
    expect((error as Error).message).toMatch(/image "asset:bad.png" could not be decoded/);
    await rm(dir, { recursive: true, force: true });
  }, 60_000);

  it('refuses a thread that mounted another video than the render planned', async () => {
    const { input, project } = await load('chart-story');
    const run = rasterInParallel(
      {
        threads: 2,
        source: { kind: 'model', model: input.model },
        project,
        output: OUTPUT,
        width: 720,
        height: 960,
      },
      30,
      async () => undefined,
    );
    await expect(run).rejects.toThrow(
      /mounted a different video \(960×540, 336 frames; the render has 720×960, 30 frames\)/,
    );
  }, 60_000);

  it('fails with the thread’s own error when a composition cannot load there', async () => {
    const { project } = await load('chart-story');
    const run = rasterInParallel(
      {
        threads: 2,
        source: { kind: 'composition', path: `${EXAMPLES}compositions/missing.ts` },
        project,
        output: OUTPUT,
        width: 540,
        height: 960,
      },
      30,
      async () => undefined,
    );
    await expect(run).rejects.toThrow(/missing\.ts/);
  }, 60_000);
});
