// Presets that move the element along a direction: slides, drops, shakes and drifts.
import type { PresetFamily, PresetMoment } from './preset-definition.ts';
import { distance, quickFade, swingWave, translate } from './preset-motion.ts';
import type { AnimatedState } from './state.ts';

function slideIn(state: AnimatedState, moment: PresetMoment): void {
  const direction = moment.animation.direction ?? 'up';
  translate(state, direction, -distance(moment, 120, direction) * (1 - moment.eased));
}

function slideOut(state: AnimatedState, moment: PresetMoment): void {
  const direction = moment.animation.direction ?? 'up';
  translate(state, direction, distance(moment, 120, direction) * moment.eased);
}

/** Side-to-side swings a shake makes in one play. */
const SHAKE_SWINGS = 4;

export const MOVE_PRESETS = {
  slideIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'snappy',
    summary: 'slides `distance` (120) into place, moving toward `direction` (up)',
    apply: slideIn,
  },
  slideOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    summary: 'slides `distance` (120) away toward `direction` (up)',
    apply: slideOut,
  },
  slideFadeIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'snappy',
    summary: 'slides in and fades in together',
    apply: (state, m) => {
      slideIn(state, m);
      state.opacity *= m.eased;
    },
  },
  slideFadeOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    summary: 'slides out and fades out together',
    apply: (state, m) => {
      slideOut(state, m);
      state.opacity *= 1 - m.eased;
    },
  },
  dropIn: {
    kind: 'entrance',
    durationSeconds: 0.9,
    easing: 'bounce',
    summary: 'falls `distance` (240) into place, toward `direction` (down), and bounces as it lands',
    apply: (state, m) => {
      const direction = m.animation.direction ?? 'down';
      translate(state, direction, -distance(m, 240, direction) * (1 - m.eased));
      state.opacity *= quickFade(m, 0.15);
    },
  },
  shake: {
    kind: 'emphasis',
    durationSeconds: 0.6,
    easing: 'linear',
    summary: 'shakes side to side by `distance` (16), dying away to rest; `direction` up or down nods',
    apply: (state, m) => {
      const direction = m.animation.direction ?? 'right';
      const t = m.eased;
      // Four swings that shrink to nothing, so the element ends exactly where it began.
      const swing = Math.sin(2 * Math.PI * SHAKE_SWINGS * t) * (1 - t);
      translate(state, direction, distance(m, 16, direction) * swing);
    },
  },
  float: {
    kind: 'loop',
    durationSeconds: 3,
    easing: 'gentle',
    summary: 'bobs up and down by `distance` (18)',
    apply: (state, m) => {
      state.dy -= distance(m, 18, 'up') * swingWave(m.linear, m.ease);
    },
  },
  drift: {
    kind: 'lifetime',
    durationSeconds: 'lifetime',
    easing: 'linear',
    summary: 'moves steadily `distance` (60) toward `direction` (right) over its whole life',
    apply: (state, m) => {
      const direction = m.animation.direction ?? 'right';
      // Centred on the element's place, so it is where the layout put it halfway through.
      translate(state, direction, distance(m, 60, direction) * (m.eased - 0.5));
    },
  },
} satisfies PresetFamily;
