// Checks that a rendered file is what was asked for, by reading it back with ffprobe: the proof a
// render hands to its user, with a checksum to identify the exact bytes.
import { stat } from 'node:fs/promises';
import { FORMATS } from '../../shared/output/formats.ts';
import type { OutputFormat } from '../../shared/output/formats.ts';
import { probeFile } from '../ffmpeg/probe.ts';
import { sha256File } from '../fs/hash-file.ts';
import type { ProbeResult } from '../../shared/protocol/receipt.ts';
import type { VerificationCheck } from '../../shared/protocol/receipt.ts';

export interface ExpectedOutput {
  format: OutputFormat;
  width: number;
  height: number;
  /** The encoded rate: for a GIF its capped rate (gifFps). */
  fps: number;
  frames?: number | undefined;
  durationSeconds?: number | undefined;
  alpha: boolean;
  audio: boolean;
  /** The stream's pixel format (ffprobe's pix_fmt), when the render chose one. */
  pixelFormat?: string | undefined;
}

export interface VerifiedOutput {
  path: string;
  bytes: number;
  sha256: string;
  probe: ProbeResult;
  checks: VerificationCheck[];
  ok: boolean;
}

export class VerificationError extends Error {
  override name = 'VerificationError';
  readonly output: VerifiedOutput;

  constructor(output: VerifiedOutput) {
    const failed = output.checks.filter((c) => !c.ok);
    super(
      `${output.path} is not what was rendered: ${failed.map((c) => `${c.name} expected ${c.expected}, got ${c.actual}`).join('; ')}.`,
    );
    this.output = output;
  }
}

function check(
  name: string,
  expected: string | number | boolean,
  actual: string | number | boolean,
  ok?: boolean,
): VerificationCheck {
  return { name, expected: String(expected), actual: String(actual), ok: ok ?? expected === actual };
}

/**
 * A GIF stores each frame's delay in hundredths of a second, so 15 fps is written 7, 7, 6 … and
 * ffprobe reads a short GIF's rate from the delays it holds (91/6 for six frames). Its rate is the
 * one asked for when each frame's delay is within that hundredth.
 */
const GIF_DELAY_STEP_SECONDS = 0.01;

function fpsMatches(format: ExpectedOutput['format'], actual: number, expected: number): boolean {
  if (format === 'gif') return Math.abs(1 / actual - 1 / expected) <= GIF_DELAY_STEP_SECONDS;
  return Math.abs(actual - expected) < 0.01;
}

function round(value: number, digits = 3): number {
  return Number(value.toFixed(digits));
}

/** The checks, from what ffprobe read. Tolerances: one frame, and for durations one frame's time. */
export function compareProbe(probe: ProbeResult, expected: ExpectedOutput): VerificationCheck[] {
  const info = FORMATS[expected.format];
  const video = probe.video;
  const checks: VerificationCheck[] = [];
  checks.push(check('video stream', true, video !== undefined));
  if (video) {
    checks.push(check('video codec', info.videoCodec, video.codec));
    checks.push(check('width', expected.width, video.width));
    checks.push(check('height', expected.height, video.height));
    checks.push(
      check(
        'fps',
        round(expected.fps),
        round(video.fps),
        fpsMatches(expected.format, video.fps, expected.fps),
      ),
    );
    if (expected.frames !== undefined) {
      checks.push(
        check('frames', expected.frames, video.frames, Math.abs(video.frames - expected.frames) <= 1),
      );
    }
    // A GIF's picture transparency is not readable from its stream (see streamHasAlpha).
    if (expected.format !== 'gif') checks.push(check('alpha', expected.alpha, video.hasAlpha));
    if (expected.pixelFormat !== undefined) {
      checks.push(check('pixel format', expected.pixelFormat, video.pixFmt));
    }
  }
  if (expected.durationSeconds !== undefined) {
    const tolerance = 1 / expected.fps + 1e-3;
    checks.push(
      check(
        'duration',
        `${round(expected.durationSeconds)}s`,
        `${round(probe.durationSeconds)}s`,
        Math.abs(probe.durationSeconds - expected.durationSeconds) <= tolerance,
      ),
    );
  }
  checks.push(check('audio stream', expected.audio, probe.audio !== undefined));
  if (expected.audio && probe.audio && info.audioCodec) {
    checks.push(check('audio codec', info.audioCodec, probe.audio.codec));
  }
  return checks;
}

export async function verifyOutput(path: string, expected: ExpectedOutput): Promise<VerifiedOutput> {
  const { size } = await stat(path);
  const [probe, digest] = await Promise.all([probeFile(path), sha256File(path)]);
  const checks = [check('non-empty file', true, size > 0), ...compareProbe(probe, expected)];
  return { path, bytes: size, sha256: digest, probe, checks, ok: checks.every((c) => c.ok) };
}

export function assertVerified(output: VerifiedOutput): void {
  if (!output.ok) throw new VerificationError(output);
}
