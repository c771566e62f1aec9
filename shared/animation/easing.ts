// Easing curves: map linear progress t in [0, 1] to eased progress, with f(0) = 0 and f(1) = 1 exactly.
import type { Easing, Spring } from '../spec/primitives.ts';

export type EasingFunction = (t: number) => number;

/** Wraps a curve so the endpoints are exact and input outside [0, 1] holds the nearest endpoint. */
function pinned(curve: EasingFunction): EasingFunction {
  return (t) => (t <= 0 ? 0 : t >= 1 ? 1 : curve(t));
}

const BACK_OVERSHOOT = 1.70158;

function easeOutBounce(t: number): number {
  const n = 7.5625;
  const d = 2.75;
  if (t < 1 / d) return n * t * t;
  if (t < 2 / d) return n * (t -= 1.5 / d) * t + 0.75;
  if (t < 2.5 / d) return n * (t -= 2.25 / d) * t + 0.9375;
  return n * (t -= 2.625 / d) * t + 0.984375;
}

/**
 * A CSS-style cubic Bézier from (0, 0) to (1, 1). x(s) is monotone because x1, x2 are in [0, 1], so
 * for a given x there is one parameter s: Newton's method finds it fast, bisection when the slope
 * is too flat for Newton to be trusted.
 */
export function cubicBezier(x1: number, y1: number, x2: number, y2: number): EasingFunction {
  const cx = 3 * x1;
  const bx = 3 * (x2 - x1) - cx;
  const ax = 1 - cx - bx;
  const cy = 3 * y1;
  const by = 3 * (y2 - y1) - cy;
  const ay = 1 - cy - by;
  const sampleX = (s: number) => ((ax * s + bx) * s + cx) * s;
  const sampleY = (s: number) => ((ay * s + by) * s + cy) * s;
  const slopeX = (s: number) => (3 * ax * s + 2 * bx) * s + cx;

  const solve = (x: number): number => {
    let s = x;
    for (let i = 0; i < 8; i++) {
      const error = sampleX(s) - x;
      if (Math.abs(error) < 1e-7) return s;
      const slope = slopeX(s);
      if (Math.abs(slope) < 1e-6) break;
      s -= error / slope;
    }
    let lo = 0;
    let hi = 1;
    s = x;
    for (let i = 0; i < 60; i++) {
      const value = sampleX(s);
      if (Math.abs(value - x) < 1e-7) return s;
      if (value < x) lo = s;
      else hi = s;
      s = (lo + hi) / 2;
    }
    return s;
  };
  return pinned((x) => sampleY(solve(x)));
}

/** Within this distance of rest (as a fraction of the travel) a spring counts as settled. */
const SETTLE_TOLERANCE = 0.001;

/** Displacement from rest over time of a spring released at -1 with no velocity, in closed form. */
function springDisplacement(stiffness: number, damping: number, mass: number): (time: number) => number {
  const omega = Math.sqrt(stiffness / mass);
  const zeta = damping / (2 * Math.sqrt(stiffness * mass));
  const x0 = -1;
  if (Math.abs(zeta - 1) < 1e-9) {
    return (time) => Math.exp(-omega * time) * (x0 + omega * x0 * time);
  }
  if (zeta < 1) {
    const omegaD = omega * Math.sqrt(1 - zeta * zeta);
    const b = (zeta * omega * x0) / omegaD;
    return (time) =>
      Math.exp(-zeta * omega * time) * (x0 * Math.cos(omegaD * time) + b * Math.sin(omegaD * time));
  }
  const root = omega * Math.sqrt(zeta * zeta - 1);
  const r1 = -zeta * omega + root;
  const r2 = -zeta * omega - root;
  const c2 = (-r1 * x0) / (r2 - r1);
  const c1 = x0 - c2;
  return (time) => c1 * Math.exp(r1 * time) + c2 * Math.exp(r2 * time);
}

/** An upper bound of |displacement| that only decreases, to bracket the settle time. */
function springEnvelope(stiffness: number, damping: number, mass: number): (time: number) => number {
  const omega = Math.sqrt(stiffness / mass);
  const zeta = damping / (2 * Math.sqrt(stiffness * mass));
  if (zeta < 1 - 1e-9) {
    const amplitude = Math.sqrt(1 + (zeta * zeta) / (1 - zeta * zeta));
    return (time) => amplitude * Math.exp(-zeta * omega * time);
  }
  // Critically and over-damped springs released from rest never cross it: |x| itself decreases.
  const displacement = springDisplacement(stiffness, damping, mass);
  return (time) => Math.abs(displacement(time));
}

/** Seconds until the spring stays within SETTLE_TOLERANCE of rest. */
export function springSettleTime(spring: Spring = {}): number {
  const stiffness = spring.stiffness ?? 170;
  const damping = spring.damping ?? 26;
  const mass = spring.mass ?? 1;
  const displacement = springDisplacement(stiffness, damping, mass);
  const envelope = springEnvelope(stiffness, damping, mass);
  let bound = 0.01;
  while (envelope(bound) > SETTLE_TOLERANCE && bound < 1e6) bound *= 2;
  // Walk back from the bound to the last sample still outside the tolerance, then bisect that step.
  const steps = 4000;
  const step = bound / steps;
  let last = 0;
  for (let i = steps; i >= 0; i--) {
    if (Math.abs(displacement(i * step)) > SETTLE_TOLERANCE) {
      last = i * step;
      break;
    }
  }
  let lo = last;
  let hi = Math.min(bound, last + step);
  for (let i = 0; i < 50; i++) {
    const mid = (lo + hi) / 2;
    if (Math.abs(displacement(mid)) > SETTLE_TOLERANCE) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** A damped spring from 0 to 1, time-scaled so t = 1 is when it settles. */
export function springEasing(spring: Spring = {}): EasingFunction {
  const displacement = springDisplacement(spring.stiffness ?? 170, spring.damping ?? 26, spring.mass ?? 1);
  const settle = springSettleTime(spring);
  return pinned((t) => 1 + displacement(t * settle));
}

const NAMED: Record<Exclude<Easing, object>, EasingFunction> = {
  linear: pinned((t) => t),
  smooth: pinned((t) => (t < 0.5 ? 4 * t ** 3 : 1 - (-2 * t + 2) ** 3 / 2)),
  snappy: cubicBezier(0.2, 0.9, 0.1, 1),
  gentle: pinned((t) => -(Math.cos(Math.PI * t) - 1) / 2),
  in: pinned((t) => t ** 3),
  out: pinned((t) => 1 - (1 - t) ** 3),
  inOut: pinned((t) => (t < 0.5 ? 16 * t ** 5 : 1 - (-2 * t + 2) ** 5 / 2)),
  back: pinned((t) => 1 + (BACK_OVERSHOOT + 1) * (t - 1) ** 3 + BACK_OVERSHOOT * (t - 1) ** 2),
  bounce: pinned(easeOutBounce),
  elastic: pinned((t) => 2 ** (-10 * t) * Math.sin((t * 10 - 0.75) * ((2 * Math.PI) / 3)) + 1),
  spring: springEasing(),
};

// Springs cost a settle-time search to build; animations ask for the same few over and over.
const springCache = new Map<string, EasingFunction>();

export function easingFunction(easing: Easing): EasingFunction {
  if (typeof easing === 'string') return NAMED[easing];
  if ('spring' in easing) {
    const key = `${easing.spring.stiffness ?? 170}/${easing.spring.damping ?? 26}/${easing.spring.mass ?? 1}`;
    let curve = springCache.get(key);
    if (!curve) {
      curve = springEasing(easing.spring);
      springCache.set(key, curve);
    }
    return curve;
  }
  const [x1, y1, x2, y2] = easing.cubicBezier;
  return cubicBezier(x1, y1, x2, y2);
}
