// Presets that scale, flip or turn the element about its centre.
import type { AnimatedState } from './state.ts';
import type { PresetFamily, PresetMoment } from './preset-definition.ts';
import { isHorizontal, quickFade, swingWave } from './preset-motion.ts';

/** Grows from `amount` (or `from`) of its size to full size as the easing goes. */
function growIn(state: AnimatedState, moment: PresetMoment, from: number): void {
  const start = moment.animation.amount ?? from;
  state.scale *= start + (1 - start) * moment.eased;
}

/**
 * A turn about an axis in the element's plane, seen head on: the element narrows across that axis by
 * the cosine of the angle, from edge-on (`turned` 1, a quarter turn) to face-on (0). Direction
 * left/right turns about the vertical axis, up/down about the horizontal one.
 */
function flip(state: AnimatedState, moment: PresetMoment, turned: number): void {
  const width = Math.cos((Math.PI / 2) * Math.min(1, Math.max(0, turned)));
  if (isHorizontal(moment.animation.direction ?? 'left')) state.scaleX *= width;
  else state.scaleY *= width;
}

export const TRANSFORM_PRESETS = {
  pop: {
    kind: 'entrance',
    durationSeconds: 0.5,
    easing: 'back',
    summary: 'grows from `amount` (0.5) of its size just past full size and settles, fading in quickly',
    apply: (state, m) => {
      growIn(state, m, 0.5);
      // The fade is over in the first third, so the overshoot is seen at full opacity.
      state.opacity *= quickFade(m, 0.35);
    },
  },
  scaleIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'snappy',
    summary: 'grows to full size from `amount` (0) of it',
    apply: (state, m) => growIn(state, m, 0),
  },
  scaleOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    summary: 'shrinks to `amount` (0) of its size',
    apply: (state, m) => {
      const to = m.animation.amount ?? 0;
      state.scale *= 1 + (to - 1) * m.eased;
    },
  },
  bounceIn: {
    kind: 'entrance',
    durationSeconds: 0.8,
    easing: 'bounce',
    summary: 'grows from `amount` (0.3) of its size, bouncing off full size a few times',
    apply: (state, m) => {
      growIn(state, m, 0.3);
      state.opacity *= quickFade(m, 0.2);
    },
  },
  elasticIn: {
    kind: 'entrance',
    durationSeconds: 1,
    easing: 'elastic',
    summary: 'springs out from `amount` (0) of its size past full size and wobbles to rest',
    apply: (state, m) => {
      growIn(state, m, 0);
      state.opacity *= quickFade(m, 0.1);
    },
  },
  flipIn: {
    kind: 'entrance',
    durationSeconds: 0.7,
    easing: 'out',
    summary:
      'turns a quarter turn to face the viewer, widening from edge-on; `direction` up or down flips it vertically',
    apply: (state, m) => flip(state, m, 1 - m.eased),
  },
  flipOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    summary: 'turns a quarter turn away until edge-on and gone; `direction` as for flipIn',
    apply: (state, m) => flip(state, m, m.eased),
  },
  rotateIn: {
    kind: 'entrance',
    durationSeconds: 0.7,
    easing: 'out',
    summary: 'turns clockwise into place from `amount` (90) degrees back while fading in',
    apply: (state, m) => {
      state.rotation -= (m.animation.amount ?? 90) * (1 - m.eased);
      state.opacity *= m.eased;
    },
  },
  rotateOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    summary: 'turns on clockwise by `amount` (90) degrees while fading out',
    apply: (state, m) => {
      state.rotation += (m.animation.amount ?? 90) * m.eased;
      state.opacity *= 1 - m.eased;
    },
  },
  spin: {
    kind: 'loop',
    durationSeconds: 4,
    easing: 'linear',
    summary: 'turns `amount` (360) degrees each repetition',
    apply: (state, m) => {
      state.rotation += (m.animation.amount ?? 360) * (m.repetition + m.eased);
    },
  },
  rock: {
    kind: 'loop',
    durationSeconds: 2,
    easing: 'gentle',
    summary: 'rocks about its centre, `amount` (6) degrees each way',
    apply: (state, m) => {
      state.rotation += (m.animation.amount ?? 6) * swingWave(m.linear, m.ease);
    },
  },
  pulse: {
    kind: 'loop',
    durationSeconds: 1.2,
    easing: 'gentle',
    summary: 'breathes its size in and out by the fraction `amount` (0.05)',
    apply: (state, m) => {
      state.scale *= 1 + (m.animation.amount ?? 0.05) * swingWave(m.linear, m.ease);
    },
  },
  kenBurns: {
    kind: 'lifetime',
    durationSeconds: 'lifetime',
    easing: 'linear',
    summary:
      'slowly zooms in by `amount` (0.15) over its life; a picture pans toward `direction` (right) inside its box',
    apply: (state, m) => {
      const amount = m.animation.amount ?? 0.15;
      state.kenBurns = { progress: m.eased, amount, direction: m.animation.direction ?? 'right' };
      // Media zoom inside their box (the drawer reads state.kenBurns); anything else zooms as a whole.
      if (m.elementType !== 'image' && m.elementType !== 'clip') state.scale *= 1 + amount * m.eased;
    },
  },
} satisfies PresetFamily;
