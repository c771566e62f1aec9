// The motion presets share: directions as unit vectors, distances in real pixels, and waves that
// start and end exactly at rest.
import { resolveLength } from '../layout/length.ts';
import type { Direction } from '../spec/primitives.ts';
import type { EasingFunction } from './easing.ts';
import type { PresetMoment } from './preset-definition.ts';
import type { AnimatedState } from './state.ts';

export const UNIT: Record<Direction, { x: number; y: number }> = {
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
  up: { x: 0, y: -1 },
  down: { x: 0, y: 1 },
};

export const OPPOSITE: Record<Direction, Direction> = {
  left: 'right',
  right: 'left',
  up: 'down',
  down: 'up',
};

/** Whether a direction runs along the horizontal axis. */
export function isHorizontal(direction: Direction): boolean {
  return UNIT[direction].y === 0;
}

/** The animation's distance in real pixels; a percentage is of the frame along the axis of motion. */
export function distance(moment: PresetMoment, designDefault: number, direction: Direction): number {
  const { animation, context } = moment;
  if (animation.distance === undefined) return designDefault * context.scale;
  const along = isHorizontal(direction) ? context.size.width : context.size.height;
  return resolveLength(animation.distance, along, { frame: context.size, scale: context.scale });
}

/**
 * Offsets along `direction`, the way the element moves: a slide "up" moves upward, so a slideIn "up"
 * starts below its place and a slideOut "up" leaves upward.
 */
export function translate(state: AnimatedState, direction: Direction, pixels: number): void {
  state.dx += UNIT[direction].x * pixels;
  state.dy += UNIT[direction].y * pixels;
}

/**
 * A periodic wave in [-1, 1] that starts at 0 heading up: each half swing between the extremes follows
 * the easing, so "gentle" (sine in-out) gives a pure sine and "smooth" lingers a little at the peaks.
 */
export function swingWave(phase: number, ease: EasingFunction): number {
  // Exactly at rest at the ends of a cycle, not off by rounding, so a finished loop leaves no trace.
  if (phase <= 0 || phase >= 1) return 0;
  const q = (phase + 0.25) % 1;
  return q < 0.5 ? -1 + 2 * ease(q * 2) : 1 - 2 * ease(q * 2 - 1);
}

/** A periodic swell in [0, 1]: from nothing up to full halfway through the cycle and back, eased. */
export function swellWave(phase: number, ease: EasingFunction): number {
  if (phase <= 0 || phase >= 1) return 0;
  return phase < 0.5 ? ease(phase * 2) : ease(2 - phase * 2);
}

/** An entrance's fade, over only the first `share` of it, so the rest of the motion is seen whole. */
export function quickFade(moment: PresetMoment, share: number): number {
  return Math.min(1, moment.linear / share);
}
