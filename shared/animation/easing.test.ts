import { describe, expect, it } from 'vitest';
import { EASING_NAMES } from '../spec/primitives.ts';
import type { Easing } from '../spec/primitives.ts';
import { cubicBezier, easingFunction, springSettleTime } from './easing.ts';

const samples = (n = 2000) => Array.from({ length: n + 1 }, (_, i) => i / n);

function isNonDecreasing(f: (t: number) => number): boolean {
  let previous = -Infinity;
  for (const t of samples()) {
    const value = f(t);
    if (value < previous - 1e-12) return false;
    previous = value;
  }
  return true;
}

const peak = (f: (t: number) => number) => Math.max(...samples().map(f));

/**
 * Reference spring: x'' = -(k x + c v) / m from x = -1 at rest, integrated with small RK4 steps;
 * `visit` sees the position after every step.
 */
function integrateSpring(
  stiffness: number,
  damping: number,
  mass: number,
  until: number,
  visit: (time: number, position: number) => void = () => {},
): number {
  const dt = 1e-4;
  let x = -1;
  let v = 0;
  const accel = (px: number, pv: number) => -(stiffness * px + damping * pv) / mass;
  for (let t = 0; t < until - 1e-12; t += dt) {
    const h = Math.min(dt, until - t);
    const k1x = v;
    const k1v = accel(x, v);
    const k2x = v + (h / 2) * k1v;
    const k2v = accel(x + (h / 2) * k1x, v + (h / 2) * k1v);
    const k3x = v + (h / 2) * k2v;
    const k3v = accel(x + (h / 2) * k2x, v + (h / 2) * k2v);
    const k4x = v + h * k3v;
    const k4v = accel(x + h * k3x, v + h * k3v);
    x += (h / 6) * (k1x + 2 * k2x + 2 * k3x + k4x);
    v += (h / 6) * (k1v + 2 * k2v + 2 * k3v + k4v);
    visit(t + h, 1 + x);
  }
  return 1 + x;
}

describe('easingFunction', () => {
  const all: Easing[] = [
    ...EASING_NAMES,
    { spring: {} },
    { spring: { stiffness: 300, damping: 8 } },
    { spring: { stiffness: 100, damping: 20 } },
    { spring: { stiffness: 100, damping: 60, mass: 2 } },
    { cubicBezier: [0.25, 0.1, 0.25, 1] },
    { cubicBezier: [0.68, -0.6, 0.32, 1.6] },
  ];

  it.each(all.map((easing) => [JSON.stringify(easing), easing]))(
    '%s is exactly 0 at 0 and 1 at 1',
    (_, easing) => {
      const f = easingFunction(easing as Easing);
      expect(f(0)).toBe(0);
      expect(f(1)).toBe(1);
      expect(f(-0.5)).toBe(0);
      expect(f(1.5)).toBe(1);
    },
  );

  it.each(['linear', 'smooth', 'snappy', 'gentle', 'in', 'out', 'inOut'] as const)(
    '%s never goes back',
    (name) => {
      const f = easingFunction(name);
      expect(isNonDecreasing(f)).toBe(true);
      expect(peak(f)).toBeLessThanOrEqual(1);
    },
  );

  it('symmetric in-out curves pass through the middle', () => {
    for (const name of ['linear', 'smooth', 'gentle', 'inOut'] as const) {
      expect(easingFunction(name)(0.5)).toBeCloseTo(0.5, 12);
    }
    expect(easingFunction('gentle')(0.25)).toBeCloseTo((1 - Math.cos(Math.PI / 4)) / 2, 12);
  });

  it('in is slow then fast, out the mirror image', () => {
    expect(easingFunction('in')(0.5)).toBeCloseTo(0.125, 12);
    expect(easingFunction('out')(0.5)).toBeCloseTo(0.875, 12);
  });

  it('snappy covers most of the distance early and settles slowly', () => {
    const snappy = easingFunction('snappy');
    expect(snappy(0.2)).toBeGreaterThan(0.6);
    expect(snappy(0.5)).toBeGreaterThan(0.9);
    expect(snappy(0.5)).toBeLessThan(1);
  });

  it('back, elastic and an underdamped spring overshoot; bounce stays inside', () => {
    expect(peak(easingFunction('back'))).toBeGreaterThan(1.05);
    expect(peak(easingFunction('elastic'))).toBeGreaterThan(1.05);
    expect(peak(easingFunction({ spring: { stiffness: 300, damping: 8 } }))).toBeGreaterThan(1.3);
    expect(peak(easingFunction('bounce'))).toBeLessThanOrEqual(1);
    expect(easingFunction('bounce')(0.5)).toBeGreaterThan(0.7);
  });

  it('critically and over-damped springs rise without overshoot', () => {
    const critical = { stiffness: 100, damping: 20, mass: 1 };
    const over = { stiffness: 100, damping: 60, mass: 2 };
    for (const spring of [critical, over]) {
      const f = easingFunction({ spring });
      expect(isNonDecreasing(f)).toBe(true);
      expect(peak(f)).toBeLessThanOrEqual(1);
    }
  });

  it.each([
    ['underdamped', { stiffness: 300, damping: 8, mass: 1 }],
    ['default', { stiffness: 170, damping: 26, mass: 1 }],
    ['critically damped', { stiffness: 100, damping: 20, mass: 1 }],
    ['overdamped', { stiffness: 100, damping: 60, mass: 2 }],
  ])('the %s spring matches a numerically integrated oscillator', (_, spring) => {
    const f = easingFunction({ spring });
    const settle = springSettleTime(spring);
    for (const fraction of [0.05, 0.13, 0.3, 0.5, 0.77, 0.95]) {
      expect(f(fraction)).toBeCloseTo(
        integrateSpring(spring.stiffness, spring.damping, spring.mass, fraction * settle),
        6,
      );
    }
  });

  it('maps t = 1 to the moment the spring stays within 0.1% of rest', () => {
    const spring = { stiffness: 300, damping: 8 };
    const f = easingFunction({ spring });
    // Just before t = 1 it is still at the tolerance's edge; after its last excursion it stays inside.
    expect(Math.abs(f(1 - 1e-7) - 1)).toBeGreaterThan(0.00095);
    const settle = springSettleTime(spring);
    let worstAfterSettling = 0;
    integrateSpring(300, 8, 1, settle * 3, (time, position) => {
      if (time >= settle) worstAfterSettling = Math.max(worstAfterSettling, Math.abs(position - 1));
    });
    expect(worstAfterSettling).toBeLessThanOrEqual(0.00101);
  });

  it('the named spring is the default spring', () => {
    const named = easingFunction('spring');
    const explicit = easingFunction({ spring: { stiffness: 170, damping: 26, mass: 1 } });
    for (const t of [0.1, 0.4, 0.8]) expect(named(t)).toBeCloseTo(explicit(t), 12);
  });
});

describe('cubicBezier', () => {
  /** Reference: sample the parametric curve densely and interpolate y at x. */
  function referenceBezier(x1: number, y1: number, x2: number, y2: number, x: number): number {
    const point = (s: number, a: number, b: number) =>
      3 * (1 - s) ** 2 * s * a + 3 * (1 - s) * s * s * b + s ** 3;
    const n = 200_000;
    let previous = { x: 0, y: 0 };
    for (let i = 1; i <= n; i++) {
      const s = i / n;
      const current = { x: point(s, x1, x2), y: point(s, y1, y2) };
      if (current.x >= x) {
        const t = current.x === previous.x ? 0 : (x - previous.x) / (current.x - previous.x);
        return previous.y + (current.y - previous.y) * t;
      }
      previous = current;
    }
    return 1;
  }

  it.each([
    [0.25, 0.1, 0.25, 1],
    [0.42, 0, 0.58, 1],
    [0.2, 0.9, 0.1, 1],
    [0.68, -0.6, 0.32, 1.6],
    [0, 0, 0, 1],
  ])('cubic-bezier(%s, %s, %s, %s) matches the sampled curve', (x1, y1, x2, y2) => {
    const f = cubicBezier(x1, y1, x2, y2);
    for (const x of [0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99]) {
      expect(f(x)).toBeCloseTo(referenceBezier(x1, y1, x2, y2, x), 5);
    }
  });

  it("CSS 'ease' at the midpoint is about 0.8024", () => {
    expect(cubicBezier(0.25, 0.1, 0.25, 1)(0.5)).toBeCloseTo(0.8024, 4);
  });

  it('solves where the curve is flat in x, where Newton cannot', () => {
    const f = cubicBezier(1, 0, 0, 1);
    expect(f(0.5)).toBeCloseTo(0.5, 6);
    expect(f(0.4)).toBeCloseTo(referenceBezier(1, 0, 0, 1, 0.4), 5);
  });

  it('the identity curve is linear', () => {
    const f = cubicBezier(0, 0, 1, 1);
    for (const x of [0.1, 0.33, 0.9]) expect(f(x)).toBeCloseTo(x, 7);
  });

  it('snappy is cubic-bezier(0.2, 0.9, 0.1, 1)', () => {
    const snappy = easingFunction('snappy');
    const reference = easingFunction({ cubicBezier: [0.2, 0.9, 0.1, 1] });
    for (const x of [0.1, 0.5, 0.8]) expect(snappy(x)).toBe(reference(x));
  });
});
