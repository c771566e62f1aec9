// The built-in entrance and exit of annotation and titling elements: where an element is in each at a
// moment, and the staggered beats inside them. An exit ends as the element ends, so it never cuts.
import { easingFunction } from '../animation/easing.ts';
import type { EasingFunction } from '../animation/easing.ts';
import type { Time } from '../spec/time.ts';
import { timeToSeconds } from '../spec/time.ts';
import type { ElementTime } from './definition.ts';

export interface BuildTiming {
  enterDuration?: Time | undefined;
  exitDuration?: Time | undefined;
}

export interface BuildPhase {
  /** Linear progress of the entrance, 0 (not started) .. 1 (fully in). */
  enter: number;
  /** Linear progress of the exit, 0 (still in) .. 1 (gone). */
  exit: number;
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}

/** Seconds of the entrance and of the exit. */
export interface BuildSpans {
  enter: number;
  exit: number;
}

/**
 * How long the entrance and exit last in an element living `lifetime` seconds: its own durations or
 * the defaults, shortened in proportion when both do not fit.
 */
export function buildSpans(
  element: BuildTiming,
  lifetime: number,
  fps: number,
  defaults: BuildSpans,
): BuildSpans {
  const enter =
    element.enterDuration === undefined ? defaults.enter : timeToSeconds(element.enterDuration, fps);
  const exit = element.exitDuration === undefined ? defaults.exit : timeToSeconds(element.exitDuration, fps);
  const total = enter + exit;
  const shrink = total > lifetime && total > 0 ? Math.max(0, lifetime) / total : 1;
  return { enter: enter * shrink, exit: exit * shrink };
}

/**
 * Where the element is in its entrance and exit. When both do not fit in its lifetime they are
 * shortened in proportion, so the exit still finishes by the element's end.
 */
export function buildPhase(
  element: BuildTiming,
  time: Pick<ElementTime, 'elementSeconds' | 'elementDuration'>,
  fps: number,
  defaults: BuildSpans,
): BuildPhase {
  const lifetime = Math.max(0, time.elementDuration);
  const { enter, exit } = buildSpans(element, lifetime, fps, defaults);
  const t = time.elementSeconds;
  return {
    enter: enter <= 0 ? 1 : clamp01(t / enter),
    // The exit's last frame lands one frame before the end, so the element is gone as it ends.
    exit: exit <= 0 ? 0 : clamp01((t - (lifetime - exit) + 1 / fps) / exit),
  };
}

/** Progress of one beat that runs from `start` to `end` (fractions of a phase), eased. */
export function beat(progress: number, start: number, end: number, ease: EasingFunction = EASE_OUT): number {
  if (end <= start) return progress >= end ? 1 : 0;
  return ease(clamp01((progress - start) / (end - start)));
}

/** A quick, settling curve for things arriving: most of the move early, a long soft landing. */
export const EASE_OUT: EasingFunction = easingFunction({ cubicBezier: [0.16, 1, 0.3, 1] });
/** For things leaving: a slow start that accelerates away. */
export const EASE_IN: EasingFunction = easingFunction({ cubicBezier: [0.7, 0, 0.84, 0] });
/** A pop with a little overshoot, for heads and dots. */
export const EASE_POP: EasingFunction = easingFunction('back');

/** How visible a part is: its entrance beat times one minus its exit beat. */
export function shown(enterBeat: number, exitBeat: number): number {
  return enterBeat * (1 - exitBeat);
}
