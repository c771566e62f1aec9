// Lines drawn along their length: d3-shape's curve written into a recorder that flattens its Bézier
// segments into short straight ones, so the path's length can be measured and the path cut at any
// length (a line that draws itself on).
import { curveLinear, curveMonotoneX, curveStepAfter, line } from 'd3-shape';
import type { CurveFactory } from 'd3-shape';

export interface XY {
  x: number;
  y: number;
}

/** Straight pieces per Bézier segment: below a pixel of error for chart-sized curves. */
const BEZIER_STEPS = 16;

export const CURVES: Record<'linear' | 'smooth' | 'step', CurveFactory> = {
  linear: curveLinear,
  // Monotone: smooth, and never overshoots a data point (a plain spline would invent peaks).
  smooth: curveMonotoneX,
  step: curveStepAfter,
};

/** The subset of CanvasPath that d3-shape's line curves call. */
class FlatteningRecorder {
  readonly points: XY[] = [];

  moveTo(x: number, y: number): void {
    this.points.push({ x, y });
  }

  lineTo(x: number, y: number): void {
    this.points.push({ x, y });
  }

  bezierCurveTo(x1: number, y1: number, x2: number, y2: number, x: number, y: number): void {
    const start = this.points.at(-1) ?? { x, y };
    for (let step = 1; step <= BEZIER_STEPS; step++) {
      const t = step / BEZIER_STEPS;
      const u = 1 - t;
      this.points.push({
        x: u * u * u * start.x + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x,
        y: u * u * u * start.y + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y,
      });
    }
  }

  closePath(): void {}
}

/** The curve through `points`, as a polyline. */
export function flattenCurve(points: readonly XY[], curve: CurveFactory): XY[] {
  const recorder = new FlatteningRecorder();
  line<XY>()
    .x((point) => point.x)
    .y((point) => point.y)
    .curve(curve)
    .context(recorder as unknown as CanvasRenderingContext2D)(points as XY[]);
  return recorder.points;
}

export function polylineLength(points: readonly XY[]): number {
  let length = 0;
  for (let i = 1; i < points.length; i++)
    length += Math.hypot(points[i]!.x - points[i - 1]!.x, points[i]!.y - points[i - 1]!.y);
  return length;
}

/** The polyline's first `length` pixels (its end interpolated inside the segment it falls in). */
export function polylinePrefix(points: readonly XY[], length: number): XY[] {
  if (points.length === 0) return [];
  const prefix: XY[] = [points[0]!];
  let left = length;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1]!;
    const b = points[i]!;
    const segment = Math.hypot(b.x - a.x, b.y - a.y);
    if (segment >= left) {
      const t = segment === 0 ? 0 : left / segment;
      prefix.push({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
      return prefix;
    }
    prefix.push(b);
    left -= segment;
  }
  return prefix;
}
