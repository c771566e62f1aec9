// What an element may see of its scene while it draws: its container, the frame, and the boxes of
// the scene's elements with ids as they are placed this frame. Annotations point with it (a callout
// at a moving element, a spotlight following one).
import type { AnimatedState } from '../animation/state.ts';
import { transformedBounds } from '../canvas/device-rect.ts';
import type { Box, Ctx2D, DrawEnv } from '../canvas/types.ts';
import type { SceneLookup } from '../elements/definition.ts';
import { placeResolved } from '../elements/reflow.ts';
import type { ModelElement } from '../spec/model.ts';
import { animatedState } from '../timeline/evaluate.ts';
import type { ResolvedElement } from '../timeline/types.ts';

/** An element's box and the canvas transform it is drawn under, in the frame's device pixels. */
interface Located {
  box: Box;
  matrix: DOMMatrix;
}

export type ApplyElementTransform = (
  ctx: Ctx2D,
  element: ModelElement,
  box: Box,
  state: AnimatedState,
) => void;

export interface SceneLayout {
  ctx: Ctx2D;
  env: DrawEnv;
  elements: readonly ResolvedElement[];
  sceneSeconds: number;
  /** The container of a top-level element: the frame or the safe area. */
  containerOf(element: ModelElement): Box;
  /** The same transform drawing applies, so a box found here is where the element lands. */
  transform: ApplyElementTransform;
}

/**
 * Boxes of a scene's id'd elements at one instant, found the way drawing places them (groups
 * included), computed once on the first question and shared by every element of the frame.
 */
export function sceneBoxes(layout: SceneLayout): () => ReadonlyMap<string, Located> {
  let located: Map<string, Located> | undefined;
  const base = layout.ctx.getTransform();
  const walk = (elements: readonly ResolvedElement[], container: Box | undefined) => {
    const { ctx, env, sceneSeconds } = layout;
    for (const resolved of elements) {
      const element = resolved.element;
      if (element.id === undefined && element.type !== 'group') continue;
      const state = animatedState(resolved, sceneSeconds, { scale: env.scale, size: env.size, fps: env.fps });
      const { box } = placeResolved(resolved, container ?? layout.containerOf(element), env, state);
      ctx.save();
      layout.transform(ctx, element, box, state);
      if (element.id !== undefined) located!.set(element.id, { box, matrix: ctx.getTransform() });
      if (resolved.children.length > 0) walk(resolved.children, box);
      ctx.restore();
    }
  };
  return () => {
    if (!located) {
      located = new Map();
      layout.ctx.save();
      layout.ctx.setTransform(base);
      walk(layout.elements, undefined);
      layout.ctx.restore();
    }
    return located;
  };
}

/** The bounds of `box` carried through `matrix`, as a box. */
function mapBox(matrix: DOMMatrix, box: Box): Box {
  const { x0, y0, x1, y1 } = transformedBounds(box, matrix);
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * The lookup handed to one element's drawer. It maps into the drawer's coordinates when asked,
 * under whatever transform the element is then drawn with.
 */
export function sceneLookup(
  ctx: Ctx2D,
  boxes: () => ReadonlyMap<string, Located>,
  frameBase: DOMMatrix,
  frameSize: { width: number; height: number },
  container: Box,
): SceneLookup {
  const toLocal = (matrix: DOMMatrix) => ctx.getTransform().inverse().multiply(matrix);
  return {
    container,
    frame: () => mapBox(toLocal(frameBase), { x: 0, y: 0, ...frameSize }),
    boxOf: (id) => {
      const found = boxes().get(id);
      return found && mapBox(toLocal(found.matrix), found.box);
    },
  };
}
