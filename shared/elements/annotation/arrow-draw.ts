// The arrow: a straight or bent line from its `from` point to its `to` point with heads at either
// end. It draws on along its length and its head pops in; it leaves by retracting into its tip.
import { easingFunction } from '../../animation/easing.ts';
import type { Box, Ctx2D, DrawEnv } from '../../canvas/types.ts';
import { resolveLength, resolvePosition } from '../../layout/length.ts';
import type { ArrowElement } from '../../spec/annotation-elements.ts';
import { canvasColor } from '../../spec/color.ts';
import type { ArrowCurve, Point, SampledCurve } from './annotation-geometry.ts';
import { arrowCurve, curveLength, curveStretch, headAngle, sampleCurve } from './annotation-geometry.ts';
import { EASE_IN, EASE_POP, beat, buildPhase } from '../build-phase.ts';
import type { ElementDrawArgs } from '../definition.ts';

export const ARROW_ENTER_SECONDS = 0.7;
export const ARROW_EXIT_SECONDS = 0.4;
const DEFAULT_THICKNESS = 6;
const HEAD_LENGTH_PER_THICKNESS = 4.5;
/** Half the triangle head's base, per head length: a head a little longer than it is wide. */
const TRIANGLE_HALF_WIDTH = 0.42;
/** How far the line stops short of a triangle's tip, per head length, so its cap hides inside. */
const TRIANGLE_TRIM = 0.6;
const OPEN_HEAD_SPREAD = (28 * Math.PI) / 180;
const DOT_RADIUS = 0.3;
const DRAW_EASE = easingFunction({ cubicBezier: [0.65, 0, 0.35, 1] });

/** The box from `from` to `to` (width and height may be negative, like a line's). */
export function placeArrow(element: ArrowElement, container: Box, env: DrawEnv): Box {
  const context = { frame: env.size, scale: env.scale };
  const x1 = resolvePosition(element.from.x, container.x, container.width, context);
  const y1 = resolvePosition(element.from.y, container.y, container.height, context);
  const x2 = resolvePosition(element.to.x, container.x, container.width, context);
  const y2 = resolvePosition(element.to.y, container.y, container.height, context);
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

export function arrowCurveOf(element: ArrowElement, box: Box): ArrowCurve {
  return arrowCurve(
    { x: box.x, y: box.y },
    { x: box.x + box.width, y: box.y + box.height },
    element.curve ?? 0,
  );
}

/** How much of the arrow shows at a moment: the stretch of the line, and each head's scale. */
export interface ArrowReveal {
  /** The drawn stretch, as fractions of the line's length. */
  from: number;
  to: number;
  startHead: number;
  endHead: number;
}

export function arrowReveal(
  element: ArrowElement,
  args: Pick<ElementDrawArgs<ArrowElement>, 'state' | 'time'>,
  fps: number,
): ArrowReveal {
  const keyed = args.state.props.progress;
  if (typeof keyed === 'number') {
    const drawn = Math.min(1, Math.max(0, keyed));
    return {
      from: 0,
      to: drawn,
      startHead: beat(drawn, 0, 0.15, EASE_POP),
      endHead: beat(drawn, 0.85, 1, EASE_POP),
    };
  }
  const phase = buildPhase(element, args.time, fps, { enter: ARROW_ENTER_SECONDS, exit: ARROW_EXIT_SECONDS });
  return {
    from: beat(phase.exit, 0, 0.8, EASE_IN),
    to: beat(phase.enter, 0, 0.75, DRAW_EASE),
    startHead: beat(phase.enter, 0, 0.3, EASE_POP) * (1 - beat(phase.exit, 0, 0.3)),
    endHead: beat(phase.enter, 0.65, 1, EASE_POP) * (1 - beat(phase.exit, 0.55, 1, EASE_IN)),
  };
}

function strokePolyline(ctx: Ctx2D, points: readonly Point[]): void {
  if (points.length < 2) return;
  ctx.beginPath();
  ctx.moveTo(points[0]!.x, points[0]!.y);
  for (const point of points.slice(1)) ctx.lineTo(point.x, point.y);
  ctx.stroke();
}

function drawHead(
  ctx: Ctx2D,
  head: NonNullable<ArrowElement['head']>,
  tip: Point,
  angle: number,
  length: number,
  thickness: number,
): void {
  if (length <= 0) return;
  ctx.save();
  ctx.translate(tip.x, tip.y);
  ctx.rotate(angle);
  ctx.beginPath();
  switch (head) {
    case 'triangle':
      ctx.moveTo(thickness * 0.25, 0);
      ctx.lineTo(-length, -length * TRIANGLE_HALF_WIDTH);
      ctx.lineTo(-length * 0.82, 0);
      ctx.lineTo(-length, length * TRIANGLE_HALF_WIDTH);
      ctx.closePath();
      ctx.fill();
      break;
    case 'open': {
      const back = { x: -Math.cos(OPEN_HEAD_SPREAD) * length, y: Math.sin(OPEN_HEAD_SPREAD) * length };
      ctx.moveTo(back.x, -back.y);
      ctx.lineTo(0, 0);
      ctx.lineTo(back.x, back.y);
      ctx.lineWidth = thickness;
      ctx.stroke();
      break;
    }
    case 'dot':
      ctx.arc(0, 0, length * DOT_RADIUS, 0, Math.PI * 2);
      ctx.fill();
      break;
    case 'none':
      break;
  }
  ctx.restore();
}

export interface ArrowMetrics {
  thickness: number;
  headLength: number;
  /** How far the line stops short of each end, for the head there. */
  trimStart: number;
  trimEnd: number;
}

export function arrowMetrics(element: ArrowElement, env: DrawEnv, length: number): ArrowMetrics {
  const context = { frame: env.size, scale: env.scale };
  const thickness = resolveLength(element.thickness ?? DEFAULT_THICKNESS, length, context);
  const headLength =
    element.headSize === undefined
      ? thickness * HEAD_LENGTH_PER_THICKNESS
      : resolveLength(element.headSize, length, context);
  const head = element.head ?? 'triangle';
  const heads = element.heads ?? 'end';
  const trim = head === 'triangle' ? headLength * TRIANGLE_TRIM : 0;
  return {
    thickness,
    headLength,
    trimStart: heads === 'end' ? 0 : trim,
    trimEnd: heads === 'start' ? 0 : trim,
  };
}

export function drawArrow(args: ElementDrawArgs<ArrowElement>): void {
  const { ctx, element, box, env } = args;
  const curve = arrowCurveOf(element, box);
  const sampled: SampledCurve = sampleCurve(curve);
  const length = curveLength(sampled);
  if (length <= 0) return;
  const metrics = arrowMetrics(element, env, length);
  const reveal = arrowReveal(element, args, env.fps);
  const keyedColor = args.state.props.color;
  const color = canvasColor(typeof keyedColor === 'string' ? keyedColor : (element.color ?? '#ffffff'));
  ctx.strokeStyle = color;
  ctx.fillStyle = color;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.lineWidth = metrics.thickness;

  const usable = Math.max(0, length - metrics.trimStart - metrics.trimEnd);
  const from = metrics.trimStart + usable * reveal.from;
  const to = metrics.trimStart + usable * reveal.to;
  ctx.setLineDash((element.dash ?? []).map((d) => d * env.scale));
  strokePolyline(ctx, curveStretch(sampled, from, to));
  ctx.setLineDash([]);

  const head = element.head ?? 'triangle';
  const heads = element.heads ?? 'end';
  if (heads !== 'start') {
    drawHead(
      ctx,
      head,
      curve.end,
      headAngle(curve, 'end'),
      metrics.headLength * reveal.endHead,
      metrics.thickness,
    );
  }
  if (heads !== 'end') {
    drawHead(
      ctx,
      head,
      curve.start,
      headAngle(curve, 'start'),
      metrics.headLength * reveal.startHead,
      metrics.thickness,
    );
  }
}
