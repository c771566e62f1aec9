// Where an element lands on a frame, without drawing it: its box placed in its groups' boxes under the
// transforms the drawing applies (shared/draw/frame.ts), composed on a canvas context so the
// arithmetic is the canvas's own. For checks that judge an element at times no sample was drawn.
import type { AnimatedState } from '../../shared/animation/state.ts';
import type { Box, Ctx2D, DrawEnv, Transform2D } from '../../shared/canvas/types.ts';
import { transformElement } from '../../shared/draw/frame.ts';
import { frameBox, safeBox } from '../../shared/elements/place.ts';
import { placeResolved } from '../../shared/elements/reflow.ts';
import { animatedState } from '../../shared/timeline/evaluate.ts';
import type { ElementIndex, ElementTiming } from './element-timing.ts';
import { layerSecondsAt, withGroups } from './element-timing.ts';

export interface Placement {
  /** The element's box before its transform, in output pixels. */
  box: Box;
  /** Its transform and its groups'. */
  transform: Transform2D;
  state: AnimatedState;
}

export function placementAt(
  ctx: Ctx2D,
  env: DrawEnv,
  index: ElementIndex,
  timing: ElementTiming,
  frame: number,
): Placement {
  const chain = withGroups(index, timing).reverse();
  const seconds = layerSecondsAt(timing.layer, frame, env.fps);
  const context = { scale: env.scale, size: env.size, fps: env.fps };
  let container = chain[0]!.resolved.element.box === 'frame' ? frameBox(env) : safeBox(env);
  let placed: { box: Box; state: AnimatedState } | undefined;
  ctx.save();
  try {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    for (const at of chain) {
      const state = animatedState(at.resolved, seconds, context);
      const { element, box } = placeResolved(at.resolved, container, env, state);
      transformElement(ctx, element, box, state);
      placed = { box, state };
      container = box;
    }
    const m = ctx.getTransform();
    return { ...placed!, transform: { a: m.a, b: m.b, c: m.c, d: m.d, e: m.e, f: m.f } };
  } finally {
    ctx.restore();
  }
}
