// Keyframed properties: values at times from the element start, eased segment by segment.
import { formatRgba, mixColors, parseColor } from '../spec/color.ts';
import type { Keyframe, Keyframes } from '../spec/primitives.ts';
import { timeToSeconds } from '../spec/time.ts';
import { easingFunction } from './easing.ts';
import type { AnimatedState } from './state.ts';

function interpolate(from: number | string, to: number | string, t: number): number | string {
  if (typeof from === 'number' && typeof to === 'number') return from + (to - from) * t;
  if (typeof from === 'string' && typeof to === 'string') {
    const a = parseColor(from);
    const b = parseColor(to);
    if (a && b) return formatRgba(mixColors(a, b, t));
  }
  // A number next to a color cannot blend: hold the earlier value until the later one is reached.
  return t >= 1 ? to : from;
}

/**
 * The value of one property `seconds` after the element start: the first value before the first
 * keyframe, the last after the last, and in between eased by the later keyframe's easing (default
 * "smooth"). Two keyframes at the same time make a jump.
 */
export function keyframeValue(keyframes: readonly Keyframe[], seconds: number, fps: number): number | string {
  const timed = keyframes
    .map((keyframe) => ({ keyframe, at: timeToSeconds(keyframe.at, fps) }))
    .sort((a, b) => a.at - b.at);
  const first = timed[0];
  if (!first) throw new Error('a keyframed property needs at least one keyframe');
  if (seconds < first.at) return first.keyframe.value;
  for (let i = timed.length - 1; i >= 0; i--) {
    const from = timed[i]!;
    if (seconds < from.at) continue;
    const to = timed[i + 1];
    if (!to) return from.keyframe.value;
    const progress = (seconds - from.at) / (to.at - from.at);
    const eased = easingFunction(to.keyframe.easing ?? 'smooth')(progress);
    return interpolate(from.keyframe.value, to.keyframe.value, eased);
  }
  return first.keyframe.value;
}

/** Writes every keyframed property's current value into state.props, where layout and drawers read it. */
export function applyKeyframes(
  state: AnimatedState,
  keyframes: Keyframes | undefined,
  elementSeconds: number,
  fps: number,
): void {
  if (!keyframes) return;
  for (const [property, track] of Object.entries(keyframes)) {
    if (track && track.length > 0) state.props[property] = keyframeValue(track, elementSeconds, fps);
  }
}
