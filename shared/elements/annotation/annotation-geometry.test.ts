import { describe, expect, it } from 'vitest';
import {
  arrowCurve,
  boxEdgePoint,
  calloutPointer,
  curveLength,
  curveStretch,
  headAngle,
  pointOnCurve,
  sampleCurve,
} from './annotation-geometry.ts';

describe('arrow geometry', () => {
  it('a straight arrow is as long as its chord and its head points along it', () => {
    const curve = arrowCurve({ x: 100, y: 100 }, { x: 400, y: 500 }, 0);
    expect(curveLength(sampleCurve(curve))).toBeCloseTo(500, 6);
    expect(headAngle(curve, 'end')).toBeCloseTo(Math.atan2(400, 300), 9);
    expect(headAngle(curve, 'start')).toBeCloseTo(Math.atan2(-400, -300), 9);
  });

  it('a bent arrow bows sideways by curve × length, to the left of travel for a positive curve', () => {
    // Travelling right along y = 0, left of travel on screen is up (smaller y).
    const curve = arrowCurve({ x: 0, y: 0 }, { x: 1000, y: 0 }, 0.25);
    const peak = pointOnCurve(curve, 0.5);
    expect(peak.x).toBeCloseTo(500, 9);
    expect(peak.y).toBeCloseTo(-250, 9);
    const length = curveLength(sampleCurve(curve));
    // A parabola 1000 wide and 250 high is about 1147.9 long (closed form of the arc length).
    expect(length).toBeGreaterThan(1145);
    expect(length).toBeLessThan(1149);
    // It arrives heading down-right: the tangent at the tip runs from the control point (500, -500).
    expect(headAngle(curve, 'end')).toBeCloseTo(Math.atan2(500, 500), 9);
  });

  it('a partial stretch starts and ends at the asked distances along the curve', () => {
    const sampled = sampleCurve(arrowCurve({ x: 0, y: 0 }, { x: 600, y: 0 }, 0));
    const half = curveStretch(sampled, 0, 300);
    expect(half[0]).toEqual({ x: 0, y: 0 });
    expect(half[half.length - 1]!.x).toBeCloseTo(300, 6);
    const middle = curveStretch(sampled, 150, 450);
    expect(middle[0]!.x).toBeCloseTo(150, 6);
    expect(middle[middle.length - 1]!.x).toBeCloseTo(450, 6);
    expect(curveStretch(sampled, 200, 200)).toEqual([]);
  });
});

describe('callout pointer', () => {
  const callout = { x: 900, y: 100, width: 300, height: 100 }; // centre (1050, 150)

  it('leaves the box where the line to the target crosses its edge', () => {
    // Straight below the centre: leaves through the bottom edge.
    expect(boxEdgePoint(callout, { x: 1050, y: 600 })).toEqual({ x: 1050, y: 200 });
    // Far to the left: leaves through the left edge, on the line to the point.
    const left = boxEdgePoint(callout, { x: 50, y: 250 })!;
    expect(left.x).toBeCloseTo(900, 9);
    expect(left.y).toBeCloseTo(150 + 100 * (150 / 1000), 9);
    expect(boxEdgePoint(callout, { x: 1000, y: 150 })).toBeUndefined();
  });

  it('ends on the near edge of a target box, or at a target point', () => {
    const target = { x: 200, y: 500, width: 200, height: 200 }; // centre (300, 600)
    const pointer = calloutPointer(callout, target)!;
    // From (300, 600) towards (1050, 150): |dx| 750 × 100/750 < |dy| 450 × 100/450, so the right edge.
    expect(pointer.to.x).toBeCloseTo(400, 9);
    expect(pointer.to.y).toBeCloseTo(600 - 450 * (100 / 750), 9);
    expect(calloutPointer(callout, { x: 10, y: 20 })!.to).toEqual({ x: 10, y: 20 });
    expect(calloutPointer(callout, { x: 950, y: 120, width: 10, height: 10 })).toBeUndefined();
  });
});
