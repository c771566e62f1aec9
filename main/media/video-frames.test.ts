import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from './media-error.ts';
import { frameNumberOf, makeCounterClip } from './test-clips.fixture.ts';
import { VideoFrameSource } from './video-frames.ts';
import type { VideoFrameSourceOptions } from './video-frames.ts';

let dir: string;
/** 4 s at 30 fps: frames 0..119, each showing its own number. */
let clip: string;
const open: VideoFrameSource[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kino-frames-'));
  clip = await makeCounterClip(dir, { seconds: 4, fps: 30, width: 320, height: 240 });
});

afterAll(async () => {
  for (const source of open) source.close();
  await rm(dir, { recursive: true, force: true });
});

async function source(options: Partial<VideoFrameSourceOptions> = {}): Promise<VideoFrameSource> {
  const opened = await VideoFrameSource.open({
    path: clip,
    fps: 30,
    sourceStartSeconds: 0,
    rate: 1,
    loop: false,
    durationSeconds: 10,
    ...options,
  });
  open.push(opened);
  return opened;
}

/** The source frame numbers shown for output frames `indices`, read in order. */
async function shown(video: VideoFrameSource, indices: number[]): Promise<number[]> {
  const numbers: number[] = [];
  for (const n of indices) numbers.push(frameNumberOf(await video.frameAt(n)));
  return numbers;
}

const range = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);

describe('VideoFrameSource', () => {
  it('plays every source frame in order at rate 1', async () => {
    const video = await source();
    expect(await shown(video, range(0, 120))).toEqual(range(0, 120));
    expect([video.width, video.height]).toEqual([320, 240]);
  });

  it('skips every other source frame at rate 2', async () => {
    const video = await source({ rate: 2 });
    expect(await shown(video, range(0, 60))).toEqual(range(0, 60).map((n) => 2 * n));
  });

  it('shows each source frame twice at rate 0.5, up to the very last one', async () => {
    const video = await source({ rate: 0.5, sourceStartSeconds: 3 });
    expect(await shown(video, range(0, 70))).toEqual(
      range(0, 70).map((n) => (n < 60 ? 90 + Math.floor(n / 2) : 119)),
    );
  });

  it('plays at a fractional rate', async () => {
    const video = await source({ rate: 1.5 });
    expect(await shown(video, range(0, 80))).toEqual(range(0, 80).map((n) => Math.floor(n * 1.5)));
  });

  it('loops a slowed-down part with the right length', async () => {
    const video = await source({ sourceStartSeconds: 3.5, rate: 0.5, loop: true });
    expect(await shown(video, range(0, 65))).toEqual(range(0, 65).map((n) => 105 + Math.floor((n % 30) / 2)));
  });

  it('converts to a different output frame rate by showing the frame on screen at each instant', async () => {
    const at24 = await source({ fps: 24 });
    expect(await shown(at24, range(0, 48))).toEqual(range(0, 48).map((n) => Math.floor((n * 30) / 24)));
    const at60 = await source({ fps: 60 });
    expect(await shown(at60, range(0, 40))).toEqual(range(0, 40).map((n) => Math.floor(n / 2)));
  });

  it('starts at the trim start, also between keyframes', async () => {
    const video = await source({ sourceStartSeconds: 1.5 });
    expect(await shown(video, range(0, 30))).toEqual(range(45, 75));
  });

  it('holds the last frame past the end of the source', async () => {
    const video = await source({ sourceStartSeconds: 3 });
    expect(await shown(video, [0, 29, 30, 31, 45, 80])).toEqual([90, 119, 119, 119, 119, 119]);
  });

  it('holds the last frame of the trimmed part past the trim end', async () => {
    const video = await source({ sourceStartSeconds: 1, sourceEndSeconds: 2 });
    expect(await shown(video, [0, 29, 30, 50])).toEqual([30, 59, 59, 59]);
  });

  it('loops the trimmed part', async () => {
    const video = await source({ sourceStartSeconds: 1, sourceEndSeconds: 2, loop: true });
    expect(await shown(video, range(0, 75))).toEqual(range(0, 75).map((n) => 30 + (n % 30)));
  });

  it('loops the whole clip from the trim start to the end of the file', async () => {
    const video = await source({ sourceStartSeconds: 3, loop: true, rate: 2 });
    expect(await shown(video, range(0, 40))).toEqual(range(0, 40).map((n) => 90 + 2 * (n % 15)));
  });

  it('seeks on a long jump forward instead of decoding every frame', async () => {
    const video = await source();
    expect(await shown(video, [0, 100, 101])).toEqual([0, 100, 101]);
    const looping = await source({ loop: true, durationSeconds: 60 });
    expect(await shown(looping, [0, 250, 251])).toEqual([0, 250 % 120, 251 % 120]);
    const pastEnd = await source();
    expect(await shown(pastEnd, [0, 290])).toEqual([0, 119]);
  });

  it('entered mid-way (a chunk of a render), shows the very frames a run from the start shows', async () => {
    // 25 fps into 30 with a trim start between pictures and odd rates: a plain seek numbers the
    // source's timestamps from another picture and shows the neighbouring picture on some frames.
    const odd = await makeCounterClip(dir, { seconds: 6, fps: 25, width: 160, height: 120, name: 'odd.mp4' });
    const uses: Partial<VideoFrameSourceOptions>[] = [
      { sourceStartSeconds: 0.37, rate: 1.3 },
      { sourceStartSeconds: 1.01, rate: 0.7 },
      // Loops whose pass ends a frame before its nominal length, entered in later passes.
      { sourceStartSeconds: 0.5, sourceEndSeconds: 3.1, loop: true, durationSeconds: 30 },
      { sourceStartSeconds: 0.2, rate: 1.5, loop: true, durationSeconds: 30 },
    ];
    for (const use of uses) {
      const whole = await shown(await source({ path: odd, ...use }), range(0, 240));
      for (const start of [7, 101, 175, 233]) {
        const entered = await shown(await source({ path: odd, ...use }), range(start, start + 4));
        expect(entered, `${JSON.stringify(use)} from ${start}`).toEqual(whole.slice(start, start + 4));
      }
    }
    // Entered past the end of a clip that holds its last picture: that picture, not none.
    const held = await shown(await source({ path: odd, sourceStartSeconds: 0.37, rate: 1.3 }), [250]);
    expect(held).toEqual([149]);
  });

  it('starts at a frame other than 0', async () => {
    const video = await source();
    expect(await shown(video, [37, 38])).toEqual([37, 38]);
  });

  it('returns the same frame when asked twice and refuses to go back', async () => {
    const video = await source();
    expect(await shown(video, [5, 5])).toEqual([5, 5]);
    await expect(video.frameAt(4)).rejects.toThrow(RangeError);
  });

  it('holds the last frame of the element lifetime', async () => {
    const video = await source({ durationSeconds: 1 });
    expect(await shown(video, [0, 29, 30, 100])).toEqual([0, 29, 29, 29]);
  });

  it('downscales to fit a box, keeping the aspect ratio', async () => {
    const video = await source({ width: 160, height: 1000 });
    expect([video.width, video.height]).toEqual([160, 120]);
    expect(await shown(video, [0, 1, 77])).toEqual([0, 1, 77]);
  });

  it('decodes rotated clips at their display size', async () => {
    const rotated = await makeCounterClip(dir, { seconds: 1, fps: 30, width: 320, height: 240, rotate: 90 });
    const video = await source({ path: rotated });
    expect([video.width, video.height]).toEqual([240, 320]);
    const frame = await video.frameAt(3);
    expect([frame.width, frame.height]).toEqual([240, 320]);
  });

  it('draws into a canvas context', async () => {
    const { createCanvas } = await import('@napi-rs/canvas');
    const video = await source();
    const frame = await video.frameAt(17);
    const target = createCanvas(320, 240);
    const ctx = target.getContext('2d');
    ctx.drawImage(frame as unknown as Parameters<typeof ctx.drawImage>[0], 0, 0);
    expect(frameNumberOf(target as unknown as typeof frame)).toBe(17);
  });

  it('refuses HLS and concat playlists', async () => {
    const playlist = join(dir, 'list.m3u8');
    await writeFile(playlist, `#EXTM3U\n#EXTINF:4,\n${clip}\n#EXT-X-ENDLIST\n`);
    await expect(source({ path: playlist, source: 'asset:list.m3u8' })).rejects.toMatchObject({
      code: 'media_unsafe_format',
    });
    const concat = join(dir, 'list.ffconcat');
    await writeFile(concat, `ffconcat version 1.0\nfile '${clip}'\n`);
    await expect(source({ path: concat })).rejects.toMatchObject({ code: 'media_unsafe_format' });
  });

  it('names a missing file', async () => {
    const error = await source({ path: join(dir, 'nope.mp4'), source: 'clips/nope.mp4' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MediaError);
    expect((error as MediaError).code).toBe('missing_asset');
    expect((error as MediaError).message).toContain('clips/nope.mp4');
  });

  it('refuses a trim start past the end of the clip', async () => {
    await expect(source({ sourceStartSeconds: 9, source: 'clip.mp4' })).rejects.toThrow(/past the end/);
  });

  it('fails clearly after close', async () => {
    const video = await source();
    await video.frameAt(0);
    video.close();
    await expect(video.frameAt(1)).rejects.toThrow(/closed/);
  });
});
