// The reflow: a video drawn in an aspect it was not laid out for (a landscape spec as a reel) keeps
// its text inside the safe area. Lengths are design pixels in every aspect, so a headline 1600 wide
// and placed left of centre in landscape would run past both edges of a 1080-wide reel. Only text
// and counters move (pictures and shapes may bleed off the frame by design), and only those without
// overrides of their own for the aspect (the timeline marks them, ResolvedElement.reflow). The rule,
// decided once per element from its box at rest, so every frame and every chunk of a render agree:
//   1. wider than the safe area: narrowed to its width, so the text wraps (and a word wider than the
//      line on its own is set smaller until it fits, rather than broken between letters);
//   2. moved the least distance that puts its box inside the safe area, across and down; a box
//      taller than the safe area is centred on it.
// Animations and keyframes then play from the reflowed place, as they did from the written one.
import { restingState } from '../animation/state.ts';
import type { AnimatedState } from '../animation/state.ts';
import type { Box, DrawEnv } from '../canvas/types.ts';
import type { ModelElement } from '../spec/model.ts';
import type { TextElement } from '../spec/text-element.ts';
import type { ResolvedElement } from '../timeline/types.ts';
import { placeElement, safeBox } from './place.ts';
import { fontSizePx, textPadding, wordMeasure } from './text/text-measure.ts';
import { perHost } from '../canvas/host-cache.ts';

/** Element types whose text the reflow keeps inside the safe area. */
const REFLOWED_TYPES: ReadonlySet<string> = new Set(['text', 'counter']);

/** Overhangs below this are rounding, not a cut. */
const EPSILON_PX = 0.5;

/** A word set smaller to fit its line keeps this much room, so measuring and drawing agree. */
const WORD_FIT_MARGIN = 0.98;

export interface PlacedElement {
  /** What is drawn: the element itself, or as the reflow narrowed it. */
  element: ModelElement;
  box: Box;
}

interface Reflow {
  element: ModelElement;
  /** How far the box moves, in real pixels. */
  dx: number;
  dy: number;
}

/** How far a span must move to lie inside an area; centred on it when it is longer. */
function shiftInto(start: number, length: number, areaStart: number, areaLength: number): number {
  if (length > areaLength + EPSILON_PX) return areaStart + (areaLength - length) / 2 - start;
  if (start < areaStart - EPSILON_PX) return areaStart - start;
  const overhang = start + length - (areaStart + areaLength);
  return overhang > EPSILON_PX ? -overhang : 0;
}

/** The text's size in design pixels, lowered so its widest word fits `width` real pixels (if needed). */
function sizeForWidestWord(element: TextElement, env: DrawEnv, width: number): number | undefined {
  const { measure, display } = wordMeasure(element, env);
  const words = display(element.text).split(/\s+/).filter(Boolean);
  const widest = Math.max(0, ...words.map(measure));
  const room = width - 2 * textPadding(element, env).x;
  if (widest <= room + EPSILON_PX || widest === 0 || room <= 0) return undefined;
  return (fontSizePx(element, env) * (room / widest) * WORD_FIT_MARGIN) / env.scale;
}

function reflow(element: ModelElement, container: Box, env: DrawEnv): Reflow {
  const safe = safeBox(env);
  const rest = restingState();
  let fitted = element;
  let box = placeElement(fitted, container, env, rest);
  if (box.width > safe.width + EPSILON_PX) {
    fitted = { ...fitted, width: safe.width / env.scale };
    box = placeElement(fitted, container, env, rest);
  }
  if (fitted.type === 'text') {
    const size = sizeForWidestWord(fitted, env, box.width);
    if (size !== undefined) {
      fitted = { ...fitted, size };
      box = placeElement(fitted, container, env, rest);
    }
  }
  // A height written for the unwrapped lines gives way to the text's own, so no line spills out.
  if (fitted !== element && fitted.height !== undefined) {
    const own = placeElement({ ...fitted, height: undefined }, container, env, rest);
    if (own.height > box.height + EPSILON_PX) {
      fitted = { ...fitted, height: undefined };
      box = own;
    }
  }
  return {
    element: fitted,
    dx: shiftInto(box.x, box.width, safe.x, safe.width),
    dy: shiftInto(box.y, box.height, safe.y, safe.height),
  };
}

/**
 * Each element's reflow, kept per host with the container it was worked out in: it depends on nothing
 * else, and working it out measures the text a few times.
 */
const reflows = perHost(() => new WeakMap<ResolvedElement, { container: Box; reflow: Reflow }>());

function sameBox(a: Box, b: Box): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

function reflowOf(resolved: ResolvedElement, container: Box, env: DrawEnv): Reflow {
  const known = reflows(env).get(resolved);
  if (known && sameBox(known.container, container)) return known.reflow;
  const worked = reflow(resolved.element, container, env);
  reflows(env).set(resolved, { container: { ...container }, reflow: worked });
  return worked;
}

/**
 * Where a resolved element is drawn, and as what: placed from its own fields, or, marked for reflow,
 * from the reflowed ones and moved by the reflow's offset.
 */
export function placeResolved(
  resolved: ResolvedElement,
  container: Box,
  env: DrawEnv,
  state: AnimatedState,
): PlacedElement {
  const element = resolved.element;
  if (!resolved.reflow || !REFLOWED_TYPES.has(element.type)) {
    return { element, box: placeElement(element, container, env, state) };
  }
  const moved = reflowOf(resolved, container, env);
  const box = placeElement(moved.element, container, env, state);
  return { element: moved.element, box: { ...box, x: box.x + moved.dx, y: box.y + moved.dy } };
}
