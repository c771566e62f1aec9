// The Timeline's arithmetic, kept pure for tests: zoom to pixels, pixels to frames, in/out points to
// the range playback stays in, and the J/K/L shuttle's rates.
import type { PlaybackSettings } from '../../player/playback-clock.ts';

export const MIN_ZOOM = 1;
/** At most this many pixels per frame, however long the video. */
export const MAX_PIXELS_PER_FRAME = 24;
export const ZOOM_STEP = 1.5;
export const SPEEDS = [0.25, 0.5, 1, 2] as const;
/** J steps left along these, L right; a paused preview starts at −1 or 1. */
export const SHUTTLE_RATES = [-8, -4, -2, -1, 1, 2, 4, 8] as const;

/** Zoom 1 fits the whole video in `width`; zoom n shows 1/n of it. */
export function pixelsPerFrame(width: number, total: number, zoom: number): number {
  return (Math.max(1, width) / Math.max(1, total)) * zoom;
}

/** The largest zoom worth having: MAX_PIXELS_PER_FRAME (never below fitting the video). */
export function maxZoom(width: number, total: number): number {
  return Math.max(MIN_ZOOM, MAX_PIXELS_PER_FRAME / pixelsPerFrame(width, total, 1));
}

export function clampZoom(zoom: number, width: number, total: number): number {
  return Math.min(maxZoom(width, total), Math.max(MIN_ZOOM, zoom));
}

/** The frame under `x` pixels from the timeline's start. */
export function frameAtX(x: number, perFrame: number, total: number): number {
  return Math.min(total - 1, Math.max(0, Math.floor(x / perFrame)));
}

/** The scroll that keeps `frame` under the pointer at `pointerX` (from the view's left) after a zoom. */
export function scrollKeeping(frame: number, pointerX: number, perFrame: number): number {
  return Math.max(0, frame * perFrame - pointerX);
}

export interface Marks {
  /** First frame played (inclusive). */
  inPoint: number | undefined;
  /** Last frame played (inclusive). */
  outPoint: number | undefined;
}

/** An in point after the out point drops the out point, and the other way round (as editors do). */
export function markIn(marks: Marks, frame: number): Marks {
  return {
    inPoint: frame,
    outPoint: marks.outPoint !== undefined && marks.outPoint < frame ? undefined : marks.outPoint,
  };
}

export function markOut(marks: Marks, frame: number): Marks {
  return {
    outPoint: frame,
    inPoint: marks.inPoint !== undefined && marks.inPoint > frame ? undefined : marks.inPoint,
  };
}

/** What the player is told: the rate, the loop, and the marks as a range (none: the whole video). */
export function playbackOf(marks: Marks, loop: boolean, rate: number, total: number): PlaybackSettings {
  const range =
    marks.inPoint === undefined && marks.outPoint === undefined
      ? undefined
      : { start: marks.inPoint ?? 0, end: (marks.outPoint ?? total - 1) + 1 };
  return { rate, range, loop };
}

/** J (back) and L (forward): one step along SHUTTLE_RATES from the rate playing; paused, ∓1. */
export function shuttleRate(rate: number, playing: boolean, direction: 'back' | 'forward'): number {
  if (!playing) return direction === 'forward' ? 1 : -1;
  if (direction === 'forward') return SHUTTLE_RATES.find((r) => r > rate) ?? SHUTTLE_RATES.at(-1)!;
  return [...SHUTTLE_RATES].reverse().find((r) => r < rate) ?? SHUTTLE_RATES[0];
}

/** "2×", "0.25×", "◀ 1×" for playing backwards. */
export function formatRate(rate: number): string {
  return `${rate < 0 ? '◀ ' : ''}${Math.abs(rate)}×`;
}
