import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from './binaries.ts';
import { FfmpegError, runTool } from './run.ts';
import { probeFile, streamHasAlpha } from './probe.ts';

let dir: string;

async function make(name: string, args: string[]): Promise<string> {
  const path = join(dir, name);
  await runTool(ffmpegPath(), [
    '-hide_banner',
    '-loglevel',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=s=64x48:r=25:d=1',
    ...args,
    path,
  ]);
  return path;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kino-probe-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('probeFile', () => {
  it('reads an H.264 + AAC mp4', async () => {
    const path = join(dir, 'a.mp4');
    await runTool(ffmpegPath(), [
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=64x48:r=25:d=1',
      '-f',
      'lavfi',
      '-i',
      'sine=d=1:sample_rate=48000',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-ac',
      '2',
      '-shortest',
      path,
    ]);
    const probe = await probeFile(path);
    expect(probe.formatName).toContain('mp4');
    expect(probe.sizeBytes).toBeGreaterThan(0);
    expect(probe.durationSeconds).toBeGreaterThan(0.95);
    expect(probe.video).toEqual({
      codec: 'h264',
      width: 64,
      height: 48,
      fps: 25,
      frames: 25,
      pixFmt: 'yuv420p',
      hasAlpha: false,
    });
    expect(probe.audio).toEqual({ codec: 'aac', channels: 2, sampleRate: 48000 });
  });

  it('sees VP9 alpha through the WebM alpha_mode tag, and counts frames WebM does not store', async () => {
    const alpha = await probeFile(
      await make('alpha.webm', [
        '-vf',
        'format=yuva420p',
        '-c:v',
        'libvpx-vp9',
        '-auto-alt-ref',
        '0',
        '-deadline',
        'realtime',
        '-cpu-used',
        '8',
      ]),
    );
    expect(alpha.video).toMatchObject({
      codec: 'vp9',
      pixFmt: 'yuv420p',
      hasAlpha: true,
      frames: 25,
      fps: 25,
    });
    expect(alpha.audio).toBeUndefined();
    const opaque = await probeFile(
      await make('opaque.webm', ['-c:v', 'libvpx-vp9', '-deadline', 'realtime', '-cpu-used', '8']),
    );
    expect(opaque.video?.hasAlpha).toBe(false);
  });

  it('reads ProRes 4444 alpha from its pixel format', async () => {
    const probe = await probeFile(
      await make('a.mov', ['-c:v', 'prores_ks', '-profile:v', '4', '-pix_fmt', 'yuva444p10le']),
    );
    expect(probe.video?.codec).toBe('prores');
    expect(probe.video?.pixFmt).toMatch(/^yuva444p/);
    expect(probe.video?.hasAlpha).toBe(true);
  });

  it('counts GIF frames and reads its base rate, not the centisecond-rounded average', async () => {
    const probe = await probeFile(await make('a.gif', ['-vf', 'fps=15']));
    expect(probe.video).toMatchObject({ codec: 'gif', fps: 15, frames: 15, hasAlpha: false });
  });

  it("fails with ffprobe's words on a file that is not media", async () => {
    const path = join(dir, 'notes.mp4');
    await writeFile(path, 'just text');
    const error = await probeFile(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FfmpegError);
    expect((error as Error).message).toMatch(/^ffprobe failed/);
    expect((error as Error).message).toContain('Invalid data found when processing input');
  });
});

describe('streamHasAlpha', () => {
  it('reads alpha from pixel formats and the alpha_mode tag, in any case', () => {
    expect(streamHasAlpha({ codec_name: 'prores', pix_fmt: 'yuva444p12le' })).toBe(true);
    expect(streamHasAlpha({ codec_name: 'png', pix_fmt: 'rgba' })).toBe(true);
    expect(streamHasAlpha({ codec_name: 'vp9', pix_fmt: 'yuv420p', tags: { ALPHA_MODE: '1' } })).toBe(true);
    expect(streamHasAlpha({ codec_name: 'vp9', pix_fmt: 'yuv420p' })).toBe(false);
    expect(streamHasAlpha({ codec_name: 'h264', pix_fmt: 'yuv420p' })).toBe(false);
    expect(streamHasAlpha({ codec_name: 'gif', pix_fmt: 'bgra' })).toBe(false);
  });
});
