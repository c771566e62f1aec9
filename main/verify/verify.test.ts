import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../ffmpeg/binaries.ts';
import { runTool } from '../ffmpeg/run.ts';
import type { ProbeResult } from '../../shared/protocol/receipt.ts';
import { assertVerified, compareProbe, VerificationError, verifyOutput } from './verify.ts';
import type { ExpectedOutput } from './verify.ts';

const probe: ProbeResult = {
  formatName: 'mov,mp4,m4a,3gp,3g2,mj2',
  durationSeconds: 2,
  sizeBytes: 1000,
  video: {
    codec: 'h264',
    width: 1080,
    height: 1920,
    fps: 30,
    frames: 60,
    pixFmt: 'yuv420p',
    hasAlpha: false,
  },
  audio: { codec: 'aac', channels: 2, sampleRate: 48000 },
};
const expected: ExpectedOutput = {
  format: 'mp4',
  width: 1080,
  height: 1920,
  fps: 30,
  frames: 60,
  durationSeconds: 2,
  alpha: false,
  audio: true,
};

const failed = (e: Partial<ExpectedOutput>, p: ProbeResult = probe) =>
  compareProbe(p, { ...expected, ...e })
    .filter((c) => !c.ok)
    .map((c) => c.name);

describe('compareProbe', () => {
  it('passes a file that matches', () => {
    expect(failed({})).toEqual([]);
  });

  it('allows one frame and one frame-time of difference, not two', () => {
    expect(failed({ frames: 61, durationSeconds: 2.033 })).toEqual([]);
    expect(failed({ frames: 62 })).toEqual(['frames']);
    expect(failed({ durationSeconds: 2.07 })).toEqual(['duration']);
  });

  it('flags each mismatch by name', () => {
    expect(failed({ width: 720, fps: 25, audio: false, alpha: true })).toEqual([
      'width',
      'fps',
      'alpha',
      'audio stream',
    ]);
    expect(failed({ format: 'transparent' })).toEqual(['video codec', 'audio codec']);
    expect(failed({}, { ...probe, video: undefined })).toEqual(['video stream']);
  });

  it('checks the pixel format when the render chose one', () => {
    expect(failed({ pixelFormat: 'yuv420p' })).toEqual([]);
    expect(failed({ pixelFormat: 'yuv444p' })).toEqual(['pixel format']);
  });

  it('does not judge GIF alpha, which its stream cannot show', () => {
    const gif: ProbeResult = {
      ...probe,
      audio: undefined,
      video: { ...probe.video!, codec: 'gif', fps: 15, hasAlpha: false },
    };
    const checks = compareProbe(gif, {
      ...expected,
      format: 'gif',
      fps: 15,
      frames: undefined,
      alpha: true,
      audio: false,
    });
    expect(checks.map((c) => c.name)).not.toContain('alpha');
    expect(checks.every((c) => c.ok)).toBe(true);
  });
});

describe('the fps check of a GIF', () => {
  const gifExpected = { ...expected, format: 'gif' as const, fps: 15, frames: undefined, audio: false };
  const gifAt = (fps: number): ProbeResult => ({
    ...probe,
    audio: undefined,
    video: { ...probe.video!, codec: 'gif', fps, hasAlpha: false },
  });
  const fpsOk = (fps: number) => compareProbe(gifAt(fps), gifExpected).find((c) => c.name === 'fps')!.ok;

  it('takes the rate a short GIF’s centisecond delays give for the one asked', () => {
    // Six frames at 15 fps are stored as 7+7+6+7+7+7 cs; ffprobe reads 91/6.
    expect(fpsOk(91 / 6)).toBe(true);
    expect(fpsOk(181 / 12)).toBe(true);
    expect(fpsOk(15)).toBe(true);
  });

  it('still refuses another rate', () => {
    expect(fpsOk(12.5)).toBe(false);
    expect(fpsOk(20)).toBe(false);
  });
});

describe('verifyOutput', () => {
  let dir: string;
  let path: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kino-verify-'));
    path = join(dir, 'v.mp4');
    await runTool(ffmpegPath(), [
      '-f',
      'lavfi',
      '-i',
      'testsrc2=s=320x240:r=30:d=2',
      '-c:v',
      'libx264',
      '-pix_fmt',
      'yuv420p',
      path,
    ]);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('probes, hashes and checks a real file', async () => {
    const result = await verifyOutput(path, { ...expected, width: 320, height: 240, audio: false });
    const bytes = await readFile(path);
    expect(result.bytes).toBe(bytes.byteLength);
    expect(result.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(result.probe.video?.frames).toBe(60);
    expect(result.ok).toBe(true);
    expect(() => assertVerified(result)).not.toThrow();
  });

  it('throws a VerificationError listing expected against actual', async () => {
    const result = await verifyOutput(path, { ...expected, audio: true });
    expect(result.ok).toBe(false);
    expect(() => assertVerified(result)).toThrow(VerificationError);
    expect(() => assertVerified(result)).toThrow(
      /width expected 1080, got 320; height expected 1920, got 240; audio stream expected true, got false/,
    );
  });
});
