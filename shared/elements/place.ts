// Where an element sits: its box in real pixels inside a containing box (frame, safe area or group).
import type { AnimatedState } from '../animation/state.ts';
import type { Box, DrawEnv } from '../canvas/types.ts';
import { elementDrawer } from './registry.ts';
import { lineEndpoints } from './shapes-draw.ts';
import type { LineElement } from '../spec/shape-elements.ts';
import type { Anchor, Position } from '../spec/primitives.ts';
import type { ModelElement } from '../spec/model.ts';
import { safeAreaInsets } from '../spec/sizes.ts';
import { resolveLength, resolvePosition } from '../layout/length.ts';

export function frameBox(env: DrawEnv): Box {
  return { x: 0, y: 0, width: env.size.width, height: env.size.height };
}

export function safeBox(env: DrawEnv): Box {
  const insets = safeAreaInsets(env.size);
  const { width, height } = env.size;
  return {
    x: insets.left * width,
    y: insets.top * height,
    width: (1 - insets.left - insets.right) * width,
    height: (1 - insets.top - insets.bottom) * height,
  };
}

const ANCHOR_FRACTIONS: Record<Anchor, [number, number]> = {
  center: [0.5, 0.5],
  top: [0.5, 0],
  bottom: [0.5, 1],
  left: [0, 0.5],
  right: [1, 0.5],
  'top-left': [0, 0],
  'top-right': [1, 0],
  'bottom-left': [0, 1],
  'bottom-right': [1, 1],
};

function numberProp(state: AnimatedState, name: string): number | undefined {
  const value = state.props[name];
  return typeof value === 'number' ? value : undefined;
}

function positionProp(state: AnimatedState, name: string, fallback: Position): Position {
  return numberProp(state, name) ?? fallback;
}

/** The element's box. Keyframed x/y are positions (fractions); keyframed width/height are design px. */
export function placeElement(element: ModelElement, container: Box, env: DrawEnv, state: AnimatedState): Box {
  const context = { frame: env.size, scale: env.scale };
  if (element.type === 'line') {
    const { x1, y1, x2, y2 } = lineEndpoints(element as LineElement, container, env);
    return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
  }
  const drawer = element.type === 'custom' ? undefined : elementDrawer(element.type);
  if (drawer?.place) return drawer.place(element as never, container, env);
  const placement = drawer?.defaultPlacement;
  // Keyframed sizes are design pixels; the element's own are lengths.
  const side = (name: 'width' | 'height', reference: number): number | undefined => {
    const keyed = numberProp(state, name);
    if (keyed !== undefined) return keyed * env.scale;
    const length = element[name];
    return length === undefined ? undefined : resolveLength(length, reference, context);
  };
  let width = side('width', container.width);
  let height = side('height', container.height);
  if (width === undefined || height === undefined) {
    const natural = drawer?.intrinsicSize?.(
      element as never,
      env,
      width ?? container.width,
      height ?? container.height,
    ) ?? {
      width: container.width,
      height: container.height,
    };
    // Keep the natural aspect ratio when only one side was given.
    if (width !== undefined && natural.width > 0) {
      height ??=
        element.type === 'text' || drawer?.heightFollowsWidth
          ? natural.height
          : (natural.height * width) / natural.width;
    } else if (height !== undefined && natural.height > 0) {
      width ??= (natural.width * height) / natural.height;
    }
    width ??= natural.width;
    height ??= natural.height;
  }
  const x = resolvePosition(
    positionProp(state, 'x', element.x ?? placement?.x ?? 0.5),
    container.x,
    container.width,
    context,
  );
  const y = resolvePosition(
    positionProp(state, 'y', element.y ?? placement?.y ?? 0.5),
    container.y,
    container.height,
    context,
  );
  const [fx, fy] = ANCHOR_FRACTIONS[element.anchor ?? placement?.anchor ?? 'center'];
  return { x: x - fx * width, y: y - fy * height, width, height };
}
