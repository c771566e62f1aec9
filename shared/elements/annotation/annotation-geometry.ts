// Pure geometry of annotations, apart from drawing so it can be checked by numbers: an arrow's curve,
// its length, a part of it and its head angles; where a callout's pointer leaves its box; a
// spotlight's hole around a box.
import type { Box } from '../../canvas/types.ts';

export interface Point {
  x: number;
  y: number;
}

/** A quadratic Bézier from `start` to `end` bent towards `control`. */
export interface ArrowCurve {
  start: Point;
  control: Point;
  end: Point;
}

/** Enough segments that a bent arrow's polyline is smooth at any size on screen. */
const CURVE_SEGMENTS = 64;

/**
 * The arrow's curve: `bend` moves the control point off the middle of the chord, sideways by that
 * fraction of the chord's length (twice the curve's own bow, as a quadratic peaks halfway there).
 * Positive bends to the left of travel, which on a y-down screen is the chord's normal (dy, -dx).
 */
export function arrowCurve(start: Point, end: Point, bend: number): ArrowCurve {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  const mid = { x: (start.x + end.x) / 2, y: (start.y + end.y) / 2 };
  return { start, end, control: { x: mid.x + dy * bend * 2, y: mid.y - dx * bend * 2 } };
}

export function pointOnCurve({ start, control, end }: ArrowCurve, t: number): Point {
  const u = 1 - t;
  return {
    x: u * u * start.x + 2 * u * t * control.x + t * t * end.x,
    y: u * u * start.y + 2 * u * t * control.y + t * t * end.y,
  };
}

/** The curve as a polyline with the distance along it at each point. */
export interface SampledCurve {
  points: Point[];
  /** Cumulative length at each point; the last is the curve's length. */
  lengths: number[];
}

export function sampleCurve(curve: ArrowCurve, segments = CURVE_SEGMENTS): SampledCurve {
  const points: Point[] = [];
  const lengths: number[] = [];
  for (let i = 0; i <= segments; i++) {
    const point = pointOnCurve(curve, i / segments);
    const previous = points[i - 1];
    lengths.push(previous ? lengths[i - 1]! + Math.hypot(point.x - previous.x, point.y - previous.y) : 0);
    points.push(point);
  }
  return { points, lengths };
}

export function curveLength(sampled: SampledCurve): number {
  return sampled.lengths[sampled.lengths.length - 1] ?? 0;
}

function pointAtLength(sampled: SampledCurve, distance: number): Point {
  const { points, lengths } = sampled;
  const i = lengths.findIndex((length) => length >= distance);
  if (i <= 0) return i === 0 ? points[0]! : points[points.length - 1]!;
  const a = points[i - 1]!;
  const b = points[i]!;
  const span = lengths[i]! - lengths[i - 1]!;
  const f = span > 0 ? (distance - lengths[i - 1]!) / span : 0;
  return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
}

/** The stretch of the curve between two distances along it, as a polyline. */
export function curveStretch(sampled: SampledCurve, from: number, to: number): Point[] {
  if (to <= from) return [];
  const inside = sampled.points.filter((_, i) => sampled.lengths[i]! > from && sampled.lengths[i]! < to);
  return [pointAtLength(sampled, from), ...inside, pointAtLength(sampled, to)];
}

/**
 * The direction a head points, in radians (0 = right, π/2 = down): along the travel at the tip, and
 * backwards at the tail. A quadratic's tangent at its ends runs along the control point's legs.
 */
export function headAngle({ start, control, end }: ArrowCurve, at: 'start' | 'end'): number {
  const [from, to] = at === 'end' ? [control, end] : [control, start];
  // A straight arrow's control point is its middle, so both legs still have a direction.
  return Math.atan2(to.y - from.y, to.x - from.x);
}

/**
 * Where a line from the box's centre towards `toward` crosses the box's edge; undefined when the
 * point is inside the box (there is nothing to point across).
 */
export function boxEdgePoint(box: Box, toward: Point): Point | undefined {
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  const dx = toward.x - cx;
  const dy = toward.y - cy;
  const halfW = Math.abs(box.width) / 2;
  const halfH = Math.abs(box.height) / 2;
  if (Math.abs(dx) <= halfW && Math.abs(dy) <= halfH) return undefined;
  const scale = Math.min(
    dx === 0 ? Infinity : halfW / Math.abs(dx),
    dy === 0 ? Infinity : halfH / Math.abs(dy),
  );
  return { x: cx + dx * scale, y: cy + dy * scale };
}

export function boxCenter(box: Box): Point {
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/**
 * A callout's pointer: from where it leaves the callout's box to the target, which is a point or
 * the near edge of the target's box. Undefined when the two overlap.
 */
export function calloutPointer(callout: Box, target: Point | Box): { from: Point; to: Point } | undefined {
  const targetPoint = 'width' in target ? boxCenter(target) : target;
  const from = boxEdgePoint(callout, targetPoint);
  if (!from) return undefined;
  const to = 'width' in target ? boxEdgePoint(target, boxCenter(callout)) : targetPoint;
  if (!to) return undefined;
  return { from, to };
}

export function padBox(box: Box, padding: number): Box {
  return {
    x: box.x - padding,
    y: box.y - padding,
    width: box.width + 2 * padding,
    height: box.height + 2 * padding,
  };
}

/** A box grown (or shrunk) about its centre by a factor. */
export function scaleBox(box: Box, factor: number): Box {
  const center = boxCenter(box);
  return {
    x: center.x - (box.width * factor) / 2,
    y: center.y - (box.height * factor) / 2,
    width: box.width * factor,
    height: box.height * factor,
  };
}
