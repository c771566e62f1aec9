import { perHost } from '../canvas/host-cache.ts';
import { paintStyle, roundedRectPath } from '../canvas/paint.ts';
import type { Box, Ctx2D, DrawEnv } from '../canvas/types.ts';
import { resolveLength, resolvePosition } from '../layout/length.ts';
import type { Paint, Stroke } from '../spec/primitives.ts';
import { grownBox } from './definition.ts';
import type { ElementDrawArgs, Ink, InkArgs } from './definition.ts';
import type { EllipseElement, LineElement, PathElement, RectElement } from '../spec/shape-elements.ts';
import { canvasColor } from '../spec/color.ts';

function lengthContext(env: DrawEnv) {
  return { frame: env.size, scale: env.scale };
}

function fillAndStroke(
  ctx: Ctx2D,
  box: Box,
  env: DrawEnv,
  fill: Paint | undefined,
  stroke: Stroke | undefined,
  path?: Path2D,
): void {
  if (fill) {
    ctx.fillStyle = paintStyle(ctx, fill, box);
    if (path) ctx.fill(path);
    else ctx.fill();
  }
  if (stroke) {
    ctx.strokeStyle = canvasColor(stroke.color);
    ctx.lineWidth = resolveLength(stroke.width, Math.min(box.width, box.height), lengthContext(env));
    ctx.setLineDash((stroke.dash ?? []).map((d) => d * env.scale));
    if (path) ctx.stroke(path);
    else ctx.stroke();
    ctx.setLineDash([]);
  }
}

function keyframedFill(args: ElementDrawArgs<{ fill?: Paint | undefined }>): Paint | undefined {
  const value = args.state.props.fill;
  return typeof value === 'string' ? value : args.element.fill;
}

export function drawRect(args: ElementDrawArgs<RectElement>): void {
  const { ctx, element, box, env, state } = args;
  const keyed = state.props.radius;
  const radius =
    typeof keyed === 'number'
      ? keyed * env.scale
      : element.radius === undefined
        ? 0
        : resolveLength(element.radius, Math.min(box.width, box.height), lengthContext(env));
  ctx.beginPath();
  roundedRectPath(ctx, box, radius);
  fillAndStroke(ctx, box, env, keyframedFill(args), element.stroke);
}

export function drawEllipse(args: ElementDrawArgs<EllipseElement>): void {
  const { ctx, element, box, env } = args;
  ctx.beginPath();
  ctx.ellipse(
    box.x + box.width / 2,
    box.y + box.height / 2,
    box.width / 2,
    box.height / 2,
    0,
    0,
    Math.PI * 2,
  );
  fillAndStroke(ctx, box, env, keyframedFill(args), element.stroke);
}

/**
 * A rectangle's or an ellipse's ink: its box and the stroke centred on its edge, a full stroke width
 * out so a mitred corner (half a width times √2) is inside too.
 */
export function shapeInkArea({ element, box, env }: InkArgs<RectElement | EllipseElement>): Ink {
  const stroke = element.stroke;
  const width = stroke ? resolveLength(stroke.width, Math.min(box.width, box.height), lengthContext(env)) : 0;
  return { box: grownBox(box, Math.max(0, width)), spread: 0 };
}

/** A line's ink: the span between its points and a stroke width around it (round or square caps). */
export function lineInkArea({ element, box, env }: InkArgs<LineElement>): Ink {
  const width = resolveLength(element.stroke.width, Math.hypot(box.width, box.height), lengthContext(env));
  const x = Math.min(box.x, box.x + box.width);
  const y = Math.min(box.y, box.y + box.height);
  const span = { x, y, width: Math.abs(box.width), height: Math.abs(box.height) };
  return { box: grownBox(span, Math.max(0, width)), spread: 0 };
}

/**
 * A line's box spans its two points; (x, y) and (x2, y2) are resolved in the containing box, so the
 * layout engine hands us the box from start to end.
 */
export function drawLine(args: ElementDrawArgs<LineElement>): void {
  const { ctx, element, box, env, state } = args;
  const keyed = state.props.progress;
  const progress = Math.min(1, Math.max(0, typeof keyed === 'number' ? keyed : (element.progress ?? 1)));
  if (progress <= 0) return;
  const x1 = box.x;
  const y1 = box.y;
  const x2 = box.x + box.width;
  const y2 = box.y + box.height;
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 + (x2 - x1) * progress, y1 + (y2 - y1) * progress);
  ctx.lineCap = element.cap ?? 'round';
  ctx.strokeStyle = canvasColor(element.stroke.color);
  ctx.lineWidth = resolveLength(element.stroke.width, Math.hypot(box.width, box.height), lengthContext(env));
  ctx.setLineDash((element.stroke.dash ?? []).map((d) => d * env.scale));
  ctx.stroke();
  ctx.setLineDash([]);
}

/** Line endpoints in real pixels inside a containing box, for the layout engine. */
export function lineEndpoints(
  element: LineElement,
  container: Box,
  env: DrawEnv,
): { x1: number; y1: number; x2: number; y2: number } {
  const context = lengthContext(env);
  return {
    x1: resolvePosition(element.x ?? 0.5, container.x, container.width, context),
    y1: resolvePosition(element.y ?? 0.5, container.y, container.height, context),
    x2: resolvePosition(element.x2, container.x, container.width, context),
    y2: resolvePosition(element.y2, container.y, container.height, context),
  };
}

const pathsOf = perHost(() => new Map<string, Path2D>());

function cachedPath(env: DrawEnv, d: string): Path2D {
  const paths = pathsOf(env);
  let path = paths.get(d);
  if (!path) {
    path = env.createPath(d);
    paths.set(d, path);
  }
  return path;
}

export function drawPath(args: ElementDrawArgs<PathElement>): void {
  const { ctx, element, box, env } = args;
  const path = cachedPath(env, element.d);
  const view = element.viewBox ?? { width: 100, height: 100 };
  ctx.save();
  ctx.translate(box.x, box.y);
  ctx.scale(box.width / view.width, box.height / view.height);
  const local = { x: 0, y: 0, width: view.width, height: view.height };
  // Stroke widths are given in frame pixels; undo the path scaling for them.
  const stroke = element.stroke
    ? {
        ...element.stroke,
        width: resolveLength(element.stroke.width, 0, lengthContext(env)) / (box.width / view.width),
      }
    : undefined;
  fillAndStroke(ctx, local, { ...env, scale: 1 }, keyframedFill(args), stroke, path);
  ctx.restore();
}
