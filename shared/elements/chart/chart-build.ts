// A chart's build over time: axes, gridlines and legend fade in first, briefly; then each item (a
// bar group, a series' line, the pie's sweep, a point) builds, one after another by `stagger`.
import { easingFunction } from '../../animation/easing.ts';
import type { EasingFunction } from '../../animation/easing.ts';
import type { ChartElement } from '../../spec/chart-element.ts';
import { timeToSeconds } from '../../spec/time.ts';

export const DEFAULT_BUILD_SECONDS = 1.2;
export const DEFAULT_STAGGER_SECONDS = 0.08;
/** The frame of the chart fades in over this long... */
export const CHROME_FADE_SECONDS = 0.4;
/** ...and the data starts building this long after it. */
export const DATA_LEAD_SECONDS = 0.2;
/** However many points a scatter has, they all start popping within this long. */
export const MAX_SCATTER_SPREAD_SECONDS = 1.5;

export interface ChartBuild {
  /** Opacity of axes, gridlines, ticks and legend. */
  chrome: number;
  /** Eased build progress of item `index` of `count` (0 before it starts, 1 once built). */
  item(index: number, count?: number): number;
  /** The same, with the element's easing swapped for another (a point's pop overshoots). */
  itemWith(easing: EasingFunction, index: number, count?: number): number;
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

export function chartBuild(element: ChartElement, elementSeconds: number, fps: number): ChartBuild {
  const delay = element.buildDelay === undefined ? 0 : timeToSeconds(element.buildDelay, fps);
  const duration =
    element.buildDuration === undefined ? DEFAULT_BUILD_SECONDS : timeToSeconds(element.buildDuration, fps);
  const stagger =
    element.stagger === undefined ? DEFAULT_STAGGER_SECONDS : timeToSeconds(element.stagger, fps);
  const t = elementSeconds - delay;
  if (duration <= 0) return { chrome: 1, item: () => 1, itemWith: () => 1 };
  const easing = easingFunction(element.easing ?? 'out');
  const itemWith = (ease: EasingFunction, index: number, count = 1) => {
    const spacing =
      element.kind === 'scatter' && count > 1
        ? Math.min(stagger, MAX_SCATTER_SPREAD_SECONDS / count)
        : stagger;
    const linear = clamp01((t - DATA_LEAD_SECONDS - index * spacing) / duration);
    return linear >= 1 ? 1 : ease(linear);
  };
  return {
    chrome: easingFunction('out')(clamp01(t / CHROME_FADE_SECONDS)),
    item: (index, count) => itemWith(easing, index, count),
    itemWith,
  };
}

/**
 * Seconds from the element start until the chart is fully built: its last item (by its index, which
 * may be fractional, of `itemCount`) has finished.
 */
export function buildEndSeconds(
  element: ChartElement,
  lastItem: number,
  itemCount: number,
  fps: number,
): number {
  const delay = element.buildDelay === undefined ? 0 : timeToSeconds(element.buildDelay, fps);
  const duration =
    element.buildDuration === undefined ? DEFAULT_BUILD_SECONDS : timeToSeconds(element.buildDuration, fps);
  if (duration <= 0) return delay;
  const stagger =
    element.stagger === undefined ? DEFAULT_STAGGER_SECONDS : timeToSeconds(element.stagger, fps);
  const spacing =
    element.kind === 'scatter' && itemCount > 1
      ? Math.min(stagger, MAX_SCATTER_SPREAD_SECONDS / itemCount)
      : stagger;
  return delay + DATA_LEAD_SECONDS + Math.max(0, lastItem) * spacing + duration;
}
