// Pie and donut labels kept inside their ring. Slice labels sit on the ring's middle; on a small donut
// the ring is thinner than a label at the chart's text size, which then hung half over the hole and
// half off the edge. Labels shrink (all of one chart alike) and move along their radius until each
// one's text lies between the ring's inner and outer edge.

/** Below this share of the chart's text size a label is no longer worth drawing: it is left out. */
export const MIN_RING_LABEL_SCALE = 0.5;
const SEARCH_STEPS = 24;

export interface Ring {
  inner: number;
  outer: number;
  /** Room kept between a label and either edge. */
  margin: number;
}

/** A label's text at a share of the chart's text size: its width and height. */
export type LabelExtent = (scale: number) => { width: number; height: number };

/** The box's corner farthest from the centre, and the box's point nearest to it. */
function farthest(x: number, y: number, halfWidth: number, halfHeight: number): number {
  return Math.hypot(Math.abs(x) + halfWidth, Math.abs(y) + halfHeight);
}
function nearest(x: number, y: number, halfWidth: number, halfHeight: number): number {
  return Math.hypot(Math.max(0, Math.abs(x) - halfWidth), Math.max(0, Math.abs(y) - halfHeight));
}

/**
 * Where `test` turns from false to true in [low, high] (false at low, true at high): the last value
 * found false and the first found true.
 */
function boundary(low: number, high: number, test: (value: number) => boolean): [number, number] {
  for (let step = 0; step < SEARCH_STEPS; step++) {
    const middle = (low + high) / 2;
    if (test(middle)) high = middle;
    else low = middle;
  }
  return [low, high];
}

/**
 * The radii along `angle` (clockwise from twelve o'clock) at which the label, centred there at
 * `scale`, lies inside the ring; undefined where no radius does.
 */
function radii(
  ring: Ring,
  angle: number,
  extent: LabelExtent,
  scale: number,
): { low: number; high: number } | undefined {
  const dx = Math.sin(angle);
  const dy = -Math.cos(angle);
  const outer = ring.outer - ring.margin;
  const inner = ring.inner > 0 ? ring.inner + ring.margin : 0;
  const { width, height } = extent(scale);
  const far = (r: number) => farthest(r * dx, r * dy, width / 2, height / 2);
  const near = (r: number) => nearest(r * dx, r * dy, width / 2, height / 2);
  // Both distances grow with the radius: the label fits between the last radius inside the outer
  // edge and the first clear of the hole.
  if (far(0) > outer || near(ring.outer) < inner) return undefined;
  const high = far(ring.outer) <= outer ? ring.outer : boundary(0, ring.outer, (r) => far(r) > outer)[0];
  const low = near(0) >= inner ? 0 : boundary(0, ring.outer, (r) => near(r) >= inner)[1];
  return low <= high ? { low, high } : undefined;
}

/**
 * The largest share of the text size, 1 at most and MIN_RING_LABEL_SCALE at least, at which the
 * label fits in the ring somewhere along `angle`; undefined when not even the smallest does.
 */
export function ringLabelScale(ring: Ring, angle: number, extent: LabelExtent): number | undefined {
  if (radii(ring, angle, extent, 1)) return 1;
  if (!radii(ring, angle, extent, MIN_RING_LABEL_SCALE)) return undefined;
  const fits = (scale: number) => radii(ring, angle, extent, scale) !== undefined;
  // Fits at the low end, not at 1: the boundary's low side still fits.
  return boundary(MIN_RING_LABEL_SCALE, 1, (scale) => !fits(scale))[0];
}

/** The radius nearest `preferred` at which the label at `scale` (one that fits) lies in the ring. */
export function ringLabelRadius(
  ring: Ring,
  angle: number,
  extent: LabelExtent,
  scale: number,
  preferred: number,
): number {
  const span = radii(ring, angle, extent, scale);
  return span ? Math.min(span.high, Math.max(span.low, preferred)) : preferred;
}

/** Where along its slice a label is tried: the middle first, then out to this share of each half. */
const PLACEMENT_REACH = 0.7;
const PLACEMENT_TRIES = 8;

/** The angles a slice's label may take, nearest its middle first, within the slice's middle part. */
function labelAngles(startAngle: number, endAngle: number): number[] {
  const middle = (startAngle + endAngle) / 2;
  const half = ((endAngle - startAngle) / 2) * PLACEMENT_REACH;
  const angles = [middle];
  for (let step = 1; step <= PLACEMENT_TRIES; step++) {
    const offset = (half * step) / PLACEMENT_TRIES;
    angles.push(middle - offset, middle + offset);
  }
  return angles;
}

/** An angle along a slice (clockwise from twelve o'clock) and the largest label scale that fits there. */
export interface RingLabelFit {
  angle: number;
  scale: number;
}

/**
 * Where along its slice's middle part a label fits, nearest the middle first, each with the largest
 * scale that fits there; empty when it fits nowhere even at its smallest. On a thin ring a label
 * wider than the ring fits where the ring runs across it (near twelve or six o'clock), not along it.
 * The list stops at the first full-size fit: nothing farther from the middle is ever chosen over it.
 */
export function ringLabelFits(
  ring: Ring,
  startAngle: number,
  endAngle: number,
  extent: LabelExtent,
): RingLabelFit[] {
  const fits: RingLabelFit[] = [];
  for (const angle of labelAngles(startAngle, endAngle)) {
    const scale = ringLabelScale(ring, angle, extent);
    if (scale === undefined) continue;
    fits.push({ angle, scale });
    if (scale === 1) break;
  }
  return fits;
}
