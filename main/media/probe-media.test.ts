import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from './media-error.ts';
import { probeMedia } from './probe-media.ts';
import { makeCounterClip } from './test-clips.fixture.ts';

let dir: string;
let clip: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kino-probe-'));
  clip = await makeCounterClip(dir, { seconds: 2, fps: 30, width: 320, height: 240, withAudio: true });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(path: string, source?: string): Promise<MediaError> {
  const error = await probeMedia(path, source).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MediaError);
  return error as MediaError;
}

describe('probeMedia', () => {
  it('reads duration, size, frame rate and streams', async () => {
    const probe = await probeMedia(clip);
    expect(probe.durationSeconds).toBeCloseTo(2, 1);
    expect(probe).toMatchObject({ width: 320, height: 240, fps: 30, hasVideo: true, hasAudio: true });
    expect(probe.formatName.split(',')).toContain('mp4');
  });

  it('reports the display size of a rotated clip', async () => {
    const rotated = await makeCounterClip(dir, { seconds: 1, fps: 10, width: 320, height: 240, rotate: 90 });
    expect(await probeMedia(rotated)).toMatchObject({ width: 240, height: 320 });
  });

  it('reports audio-only files as having no video', async () => {
    const { execFile } = await import('node:child_process');
    const { ffmpegPath } = await import('../ffmpeg/binaries.ts');
    const audio = join(dir, 'tone.m4a');
    await new Promise<void>((resolve, reject) =>
      execFile(
        ffmpegPath(),
        ['-y', '-loglevel', 'error', '-f', 'lavfi', '-i', 'sine=duration=1', '-c:a', 'aac', audio],
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    const probe = await probeMedia(audio);
    expect(probe).toMatchObject({ hasVideo: false, hasAudio: true });
    expect(probe.width).toBeUndefined();
  });

  it('refuses an HLS playlist before ffprobe follows it', async () => {
    const playlist = join(dir, 'list.m3u8');
    await writeFile(playlist, `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n${clip}\n#EXT-X-ENDLIST\n`);
    const error = await failure(playlist, 'asset:list.m3u8');
    expect(error.code).toBe('media_unsafe_format');
    expect(error.message).toContain('asset:list.m3u8');
    expect(error.message).toContain('HLS');
  });

  it('refuses a playlist disguised with a video extension', async () => {
    const disguised = join(dir, 'disguised.mp4');
    await writeFile(disguised, `\ufeff#EXTM3U\n#EXTINF:1,\nfile:///etc/passwd\n`);
    expect((await failure(disguised)).code).toBe('media_unsafe_format');
  });

  it('refuses an ffconcat list', async () => {
    const list = join(dir, 'list.txt');
    await writeFile(list, `ffconcat version 1.0\nfile '${clip}'\n`);
    expect((await failure(list)).code).toBe('media_unsafe_format');
  });

  it('names a missing file', async () => {
    const error = await failure(join(dir, 'gone.mp4'), 'clips/gone.mp4');
    expect(error.code).toBe('missing_asset');
    expect(error.message).toContain('clips/gone.mp4');
  });

  it('explains a file that is not media', async () => {
    const junk = join(dir, 'junk.mp4');
    await writeFile(junk, Buffer.from('definitely not a video file'.repeat(20)));
    const error = await failure(junk, 'junk.mp4');
    expect(error.code).toBe('media_probe_failed');
    expect(error.message).toContain('junk.mp4');
  });
});
