// A render split into chunks and stitched must be the file a single render makes: the same pictures
// (encoded losslessly, so they compare byte for byte), the same timestamps, the same sound.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VideoModel } from '../../shared/spec/model.ts';
import { ffmpegToolsOrWarn } from '../ffmpeg/tools.fixture.ts';
import { makeCounterClip } from '../media/test-clips.fixture.ts';
import { loadProject } from '../project/load.ts';
import { checkSpec } from '../project/resolve-input.ts';
import { projectContext } from './project-context.ts';
import type { RenderProjectContext } from './project-context.ts';
import { buildRenderReceipt } from './receipt.ts';
import { chunkRanges, renderFramePlan } from './render-chunks.ts';
import { renderVideo } from './render-video.ts';
import type { RenderOptions, RenderProgress, RenderResult } from './render-video.ts';
import { concatList, stitchVideo } from './stitch-video.ts';

const run = promisify(execFile);
const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;

const found = ffmpegToolsOrWarn('the chunked render and stitching tests');

// 2.4 s at 15 fps (36 frames, 160×160 at draft): animated text and shapes, a crossfade, a video
// clip with sound running across two chunk boundaries, music with fades, a sound effect across a
// boundary; overlays on the video's clock (a progress bar filling, a badge fading in across the
// first boundary), which each chunk must draw at the video's time, not its own.
const SPEC = {
  kinoSpec: 1,
  fps: 15,
  aspect: { width: 320, height: 320 },
  audio: [
    { src: 'asset:music-loop.m4a', volume: 0.6, loop: true, fadeIn: '300ms', fadeOut: '500ms' },
    { src: 'asset:whoosh.wav', start: '600ms', volume: 0.8 },
  ],
  scenes: [
    {
      id: 'one',
      duration: '1.8s',
      background: { type: 'linear', colors: ['#1d2b64', '#f8cdda'], angle: 30, animate: true },
      elements: [
        {
          type: 'text',
          id: 'title',
          text: 'Chunks',
          size: 120,
          color: '#ffffff',
          animate: [{ preset: 'slideFadeIn', direction: 'up', duration: '500ms' }],
        },
        {
          type: 'clip',
          id: 'waves',
          // 25 fps into 15, from between two pictures: the later chunks enter it mid-way, and a
          // plain seek there would show a neighbouring picture.
          src: 'counter-25fps.mp4',
          trim: { start: '359ms' },
          rate: 1.3,
          start: '200ms',
          duration: '1.6s',
          width: '60%',
          height: '40%',
          y: 0.75,
          volume: 0.7,
        },
      ],
    },
    {
      id: 'two',
      duration: '1s',
      transition: { type: 'crossFade', duration: '400ms' },
      background: { type: 'color', color: '#14110f' },
      elements: [
        {
          type: 'ellipse',
          id: 'dot',
          width: '30vmin',
          height: '30vmin',
          fill: '#ff5a36',
          animate: [
            { preset: 'scaleIn', duration: '600ms' },
            { preset: 'drift', direction: 'left', distance: 40 },
          ],
        },
      ],
    },
  ],
  overlays: [
    {
      type: 'progressBar',
      y: 1,
      anchor: 'bottom',
      width: '100%',
      box: 'frame',
      thickness: 24,
      enterDuration: 0,
    },
    {
      type: 'text',
      text: 'LIVE',
      size: 60,
      x: 0.2,
      y: 0.15,
      color: '#ffe600',
      start: '600ms',
      animate: [{ preset: 'fadeIn', duration: '400ms' }],
    },
  ],
};

/** Lossless x264, so that a picture encoded in a chunk and in a single render decode the same. */
const OPTIONS: RenderOptions = { format: 'mp4', quality: 'draft', encoder: { crf: 0 }, concurrency: 1 };

async function output(binary: string, args: string[]): Promise<Buffer> {
  const { stdout } = await run(binary, args, { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 });
  return stdout;
}

/** Every decoded picture as RGB. */
async function pictures(path: string, width: number, height: number): Promise<Buffer[]> {
  const rgb = await output(found!.ffmpeg, [
    '-v',
    'error',
    '-i',
    path,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  const size = width * height * 3;
  return Array.from({ length: rgb.length / size }, (_, i) => rgb.subarray(i * size, (i + 1) * size));
}

/** The decoded sound, as 16-bit samples. */
async function samples(path: string): Promise<Int16Array> {
  const pcm = await output(found!.ffmpeg, ['-v', 'error', '-i', path, '-map', '0:a:0', '-f', 's16le', '-']);
  return new Int16Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 2);
}

/** The video packets' timestamps in presentation order, and the stream's and file's durations. */
async function timing(
  path: string,
): Promise<{ pts: number[]; frames: string; duration: string; format: string }> {
  const text = (
    await output(found!.ffprobe, [
      '-v',
      'error',
      '-select_streams',
      'v:0',
      '-show_entries',
      'packet=pts:stream=nb_frames,duration,time_base:format=duration',
      '-of',
      'json',
      path,
    ])
  ).toString('utf8');
  const probe = JSON.parse(text) as {
    packets: { pts: number }[];
    streams: { nb_frames: string; duration: string; time_base: string }[];
    format: { duration: string };
  };
  return {
    pts: probe.packets.map((packet) => packet.pts).sort((a, b) => a - b),
    frames: probe.streams[0]!.nb_frames,
    duration: `${probe.streams[0]!.duration} in ${probe.streams[0]!.time_base}`,
    format: probe.format.duration,
  };
}

describe.skipIf(!found)('a render in chunks, stitched', () => {
  let work: string;
  let model: VideoModel;
  let project: RenderProjectContext;
  let whole: RenderResult;
  let stitched: RenderResult;
  let chunks: RenderResult[];
  const chunkProgress: RenderProgress[] = [];
  // Chunk lengths that are no whole number of milliseconds (11 frames at 15 fps is 0.7333… s).
  const ranges = [
    { start: 0, end: 11 },
    { start: 11, end: 23 },
    { start: 23, end: 36 },
  ];

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'kino-stitch-test-'));
    const checked = checkSpec(SPEC);
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    model = checked.spec;
    // The examples' assets, and a project root holding a generated clip.
    const examples = await projectContext(await loadProject(EXAMPLES));
    project = { ...examples, root: work, media: { ...examples.media, root: work } };
    await makeCounterClip(work, {
      seconds: 3,
      fps: 25,
      width: 96,
      height: 64,
      withAudio: true,
      name: 'counter-25fps.mp4',
    });
    const options = { ...OPTIONS, poster: '20f', posterPath: join(work, 'poster-whole.png') };
    whole = await renderVideo({ model, project, outputPath: join(work, 'whole.mp4'), options });
    chunks = [];
    for (const [index, chunk] of ranges.entries()) {
      chunks.push(
        await renderVideo({
          model,
          project,
          outputPath: join(work, `chunk-${index}.mp4`),
          // The middle chunk is drawn by two threads (the pool starts at the chunk's first frame).
          options: {
            ...options,
            posterPath: join(work, 'poster.png'),
            chunk,
            concurrency: index === 1 ? 2 : 1,
          },
          onProgress: index === 1 ? (progress) => chunkProgress.push(progress) : undefined,
        }),
      );
    }
    stitched = await stitchVideo({
      model,
      project,
      options,
      chunks: chunks.map((chunk) => chunk.output.path),
      outputPath: join(work, 'stitched.mp4'),
      poster: chunks.find((chunk) => chunk.poster)?.poster,
    });
  }, 240_000);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('renders each chunk as a verified video-only mp4 of its frames, with progress of its own', async () => {
    for (const [index, chunk] of chunks.entries()) {
      expect(chunk.output.ok).toBe(true);
      expect(chunk.chunk).toEqual(ranges[index]);
      const frames = ranges[index]!.end - ranges[index]!.start;
      expect(chunk.frames).toBe(frames);
      expect(chunk.framesTotal).toBe(36);
      expect(chunk.output.probe.video?.frames).toBe(frames);
      expect(chunk.output.probe.video?.pixFmt).toBe('yuv420p');
      expect(chunk.output.probe.audio).toBeUndefined();
      expect(chunk.inputs.some((input) => input.role === 'audio')).toBe(false);
    }
    const rendering = chunkProgress.filter((progress) => progress.stage === 'rendering');
    expect(rendering.at(-1)).toMatchObject({ framesDone: 12, framesTotal: 12 });
    expect(chunkProgress.every((progress) => progress.framesTotal === 12)).toBe(true);
  });

  it('writes the poster from the chunk holding its frame only', async () => {
    expect(chunks.map((chunk) => chunk.poster?.frame)).toEqual([undefined, 20, undefined]);
    expect(stitched.poster).toEqual(chunks[1]!.poster);
    expect((await stat(join(work, 'poster.png'))).size).toBe(whole.poster!.bytes);
  });

  it('stitches the same pictures as a single render, at the chunk boundaries and everywhere else', async () => {
    const { width, height } = whole;
    const [one, joined] = await Promise.all([
      pictures(whole.output.path, width, height),
      pictures(stitched.output.path, width, height),
    ]);
    expect(one).toHaveLength(36);
    expect(joined).toHaveLength(36);
    // Last frame of a chunk, first of the next, and a few others; then all of them.
    for (const frame of [10, 11, 22, 23, 0, 5, 20, 35]) {
      expect(joined[frame]!.equals(one[frame]!), `frame ${frame}`).toBe(true);
    }
    expect(
      joined.map((picture, frame) => (picture.equals(one[frame]!) ? -1 : frame)).filter((f) => f >= 0),
    ).toEqual([]);
  });

  it('has the frame count, timestamps and duration of a single render', async () => {
    const [one, joined] = await Promise.all([timing(whole.output.path), timing(stitched.output.path)]);
    expect(one.frames).toBe('36');
    expect(joined).toEqual(one);
    expect(stitched.frames).toBe(whole.frames);
    expect(stitched.durationSeconds).toBe(whole.durationSeconds);
    expect(stitched.output.ok).toBe(true);
    expect(stitched.output.probe.video).toEqual(whole.output.probe.video);
  });

  it('mixes the sound once: the same samples as a single render, no gap at the boundaries', async () => {
    const [one, joined] = await Promise.all([samples(whole.output.path), samples(stitched.output.path)]);
    expect(stitched.output.probe.audio).toEqual(whole.output.probe.audio);
    expect(one.length).toBeGreaterThan(2.4 * 48_000 * 2);
    expect(joined.length).toBe(one.length);
    // The same filter graph and AAC encoder over the same length: identical samples, so nothing
    // was cut or doubled where the chunks meet (at 0.733 s and 1.533 s).
    expect(Buffer.from(joined.buffer).equals(Buffer.from(one.buffer))).toBe(true);
  });

  it('gives what a receipt needs, as a single render does', async () => {
    expect(stitched.inputs).toEqual(whole.inputs);
    expect(stitched.aspect).toBe(whole.aspect);
    const receipt = await buildRenderReceipt({
      maker: 'cli',
      subject: { kind: 'spec', specText: JSON.stringify(SPEC) },
      request: {},
      options: { ...OPTIONS, poster: '20f' },
      result: stitched,
      toolchain: { kino: 't', node: 't', ffmpeg: 't', ffprobe: 't', canvas: 't', esbuild: 't' },
    });
    expect(receipt.options).toMatchObject({
      frames: 36,
      framesTotal: 36,
      encoder: { crf: 0, audioCodec: 'aac' },
    });
    expect(receipt.poster?.frame).toBe(20);
    expect(receipt.verification.ok).toBe(true);
  });

  it('refuses chunks that do not make up the render', async () => {
    const stitch = (paths: string[]) =>
      stitchVideo({ model, project, options: OPTIONS, chunks: paths, outputPath: join(work, 'bad.mp4') });
    const [first, second, third] = chunks.map((chunk) => chunk.output.path) as [string, string, string];
    await expect(stitch([first, third])).rejects.toThrow(
      /the 2 chunks hold 24 frames \(11 \+ 13\); the render has 36/,
    );
    await expect(stitch([first, second, second])).rejects.toThrow(/was given twice/);
    await expect(stitch([first, second, join(work, 'missing.mp4')])).rejects.toThrow(
      /cannot be read: ENOENT/,
    );
    await expect(stitch([first, second, work])).rejects.toThrow(/is not a file/);
    await expect(stitch([first, second, whole.output.path])).rejects.toThrow(/one H.264 stream and no other/);
    await expect(stitch([])).rejects.toThrow(/no chunks/);
  });
});

describe('chunked render requests', () => {
  const model = checkSpec(SPEC);

  it('plans chunks over the frames a render draws, the poster frame a global one', () => {
    if (!model.ok) throw new Error('spec');
    expect(renderFramePlan(model.spec, { format: 'mp4', quality: 'draft', poster: '20f' })).toEqual({
      frames: 36,
      fps: 15,
      posterFrame: 20,
    });
    expect(renderFramePlan(model.spec, { format: 'mp4', quality: 'draft', frames: 10 }).frames).toBe(10);
    expect(chunkRanges(10, 4)).toEqual([
      { start: 0, end: 2 },
      { start: 2, end: 5 },
      { start: 5, end: 7 },
      { start: 7, end: 10 },
    ]);
    expect(chunkRanges(2, 5)).toEqual([
      { start: 0, end: 1 },
      { start: 1, end: 2 },
    ]);
    expect(() => chunkRanges(10, 0)).toThrow(/at least 1/);
  });

  it('refuses a chunk of another format than mp4, or outside the render', async () => {
    if (!model.ok) throw new Error('spec');
    const project = await projectContext(await loadProject(EXAMPLES));
    const render = (options: RenderOptions, outputPath = join(tmpdir(), 'never-written.mp4')) =>
      renderVideo({ model: model.spec, project, outputPath, options });
    await expect(
      render({ format: 'gif', quality: 'draft', chunk: { start: 0, end: 5 } }, join(tmpdir(), 'x.gif')),
    ).rejects.toThrow(/only mp4 renders can be split into chunks .*render gif whole/);
    await expect(
      render({ format: 'mov', quality: 'draft', chunk: { start: 0, end: 5 } }, join(tmpdir(), 'x.mov')),
    ).rejects.toThrow(/only mp4 renders can be split into chunks/);
    await expect(render({ format: 'mp4', quality: 'draft', chunk: { start: 30, end: 40 } })).rejects.toThrow(
      /chunk frames \[30, 40\) run past the render's end: it has 36 frames \(0–35\)/,
    );
    await expect(
      render({ format: 'mp4', quality: 'draft', frames: 20, chunk: { start: 10, end: 24 } }),
    ).rejects.toThrow(/it has 20 frames/);
    await expect(render({ format: 'mp4', quality: 'draft', chunk: { start: 5, end: 5 } })).rejects.toThrow(
      /0 <= start < end/,
    );
    await expect(render({ format: 'mp4', quality: 'draft', chunk: { start: 1.5, end: 5 } })).rejects.toThrow(
      /whole frame numbers/,
    );
    await expect(
      stitchVideo({
        model: model.spec,
        project,
        options: { format: 'transparent', quality: 'draft' },
        chunks: [],
        outputPath: join(tmpdir(), 'x.webm'),
      }),
    ).rejects.toThrow(/only mp4 renders can be split into chunks/);
  });

  it('writes the concat list with each path quoted and each duration exact to the microsecond', async () => {
    const list = concatList(
      [
        { path: "/tmp/it's a chunk.mp4", frames: 7 },
        { path: '/tmp/b.mp4', frames: 7 },
        { path: '/tmp/c.mp4', frames: 1 },
      ],
      30,
    );
    expect(list).toBe(
      [
        'ffconcat version 1.0',
        "file 'file:/tmp/it'\\''s a chunk.mp4'",
        'duration 0.233333',
        "file 'file:/tmp/b.mp4'",
        // 14 frames end at 466667 µs: the durations add up to each boundary, rounded once.
        'duration 0.233334',
        "file 'file:/tmp/c.mp4'",
        'duration 0.033333',
        '',
      ].join('\n'),
    );
    // The quoting as ffmpeg reads it: a file with a quote in its name is found.
    if (!found) return;
    const dir = await mkdtemp(join(tmpdir(), "kino-quote's-"));
    try {
      const path = join(dir, "it's.mp4");
      await run(found.ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'color=s=16x16:d=0.2:r=10', path]);
      const listPath = join(dir, 'list.ffconcat');
      await writeFile(listPath, concatList([{ path, frames: 2 }], 10));
      const probe = await output(found.ffprobe, [
        '-v',
        'error',
        '-f',
        'concat',
        '-safe',
        '0',
        '-protocol_whitelist',
        'file',
        '-count_packets',
        '-show_entries',
        'stream=nb_read_packets',
        '-of',
        'csv=p=0',
        `file:${listPath}`,
      ]);
      expect(probe.toString().trim()).toBe('2');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
