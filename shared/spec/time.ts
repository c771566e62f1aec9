// Time values in a spec: seconds as a number, or "2s", "500ms", "45f" (frames at the video's fps).
import { z } from 'zod';

export const TIME_PATTERN = /^(\d+(?:\.\d+)?)(ms|s|f)$/;

export const TimeSchema = z
  .union([
    z.number().finite().nonnegative(),
    z.string().regex(TIME_PATTERN, 'expected a time like "2s", "500ms", "45f" or a number of seconds'),
  ])
  .describe('A time: seconds as a number, or a string like "2s", "500ms" or "45f" (frames).');

export type Time = z.infer<typeof TimeSchema>;

/** Converts a spec time to seconds. Frames are counted at `fps`. */
export function timeToSeconds(time: Time, fps: number): number {
  if (typeof time === 'number') return time;
  const match = TIME_PATTERN.exec(time);
  if (!match) throw new Error(`invalid time "${time}"`);
  const value = Number(match[1]);
  switch (match[2]) {
    case 'ms':
      return value / 1000;
    case 'f':
      return value / fps;
    default:
      return value;
  }
}

/** The frame on which a time falls: frames are sampled at their start, so 1s at 30 fps is frame 30. */
export function timeToFrame(time: Time, fps: number): number {
  // Round away floating error before flooring so "0.1s" at 30 fps is frame 3, not 2.
  return Math.floor(timeToSeconds(time, fps) * fps + 1e-6);
}

/** A whole number of frames covering a duration, at least one. */
export function durationToFrames(time: Time, fps: number): number {
  return Math.max(1, Math.round(timeToSeconds(time, fps) * fps));
}

/** Prints seconds as the shortest readable spec time ("2s", "1.5s", "250ms"). */
export function formatTime(seconds: number): string {
  if (seconds > 0 && seconds < 1 && Number.isInteger(Math.round(seconds * 1e6) / 1e3)) {
    return `${Math.round(seconds * 1000)}ms`;
  }
  return `${Math.round(seconds * 1000) / 1000}s`;
}

export const SIGNED_TIME_PATTERN = /^(-?\d+(?:\.\d+)?)(ms|s|f)$/;

/** A time that may be negative: a shift earlier or later. */
export const SignedTimeSchema = z
  .union([
    z.number().finite(),
    z
      .string()
      .regex(SIGNED_TIME_PATTERN, 'expected a time like "-0.5s", "250ms", "-3f" or a number of seconds'),
  ])
  .describe('A shift in time: seconds as a number, or "-0.5s", "250ms", "-3f"; negative is earlier.');
export type SignedTime = z.infer<typeof SignedTimeSchema>;

export function signedTimeToSeconds(time: SignedTime, fps: number): number {
  if (typeof time === 'number') return time;
  const negative = time.startsWith('-');
  const seconds = timeToSeconds(negative ? time.slice(1) : time, fps);
  return negative ? -seconds : seconds;
}
