// Presets that change how much of the element shows, and how, without moving its box: fades, blurs,
// masks and a glow.
import type { Direction } from '../spec/primitives.ts';
import type { PresetFamily, PresetMoment } from './preset-definition.ts';
import { OPPOSITE, swellWave } from './preset-motion.ts';
import type { AnimatedState } from './state.ts';

function blurRadius(moment: PresetMoment): number {
  return (moment.animation.amount ?? 30) * moment.context.scale;
}

/** Two wipes at once: the one that shows less wins. */
function wipe(state: AnimatedState, visible: number, from: Direction): void {
  if (!state.wipe || visible < state.wipe.visible) state.wipe = { visible, from };
}

/**
 * Two reveals at once: the one that hides more wins. In place, none is kept (nothing is clipped at
 * rest); an easing that overshoots gives a negative share, carrying it past its place.
 */
function reveal(state: AnimatedState, hidden: number, toward: Direction): void {
  if (hidden === 0) return;
  if (!state.reveal || hidden > state.reveal.hidden) state.reveal = { hidden, toward };
}

const GLOW_COLOR = '#ffffff';

export const LOOK_PRESETS = {
  fadeIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'smooth',
    summary: 'fades in from transparent',
    apply: (state, m) => {
      state.opacity *= m.eased;
    },
  },
  fadeOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    summary: 'fades out to transparent',
    apply: (state, m) => {
      state.opacity *= 1 - m.eased;
    },
  },
  blurIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'out',
    summary: 'comes into focus from a blur of `amount` (30) pixels while fading in',
    apply: (state, m) => {
      state.blur += blurRadius(m) * (1 - m.eased);
      state.opacity *= m.eased;
    },
  },
  blurOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    summary: 'blurs by `amount` (30) pixels while fading out',
    apply: (state, m) => {
      state.blur += blurRadius(m) * m.eased;
      state.opacity *= 1 - m.eased;
    },
  },
  maskWipeIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'smooth',
    summary: 'a mask edge sweeps across from the `direction` (left) side, uncovering it where it stands',
    apply: (state, m) => wipe(state, m.eased, m.animation.direction ?? 'left'),
  },
  maskWipeOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    summary: 'a mask edge sweeps back to the `direction` (left) side, covering it where it stands',
    apply: (state, m) => wipe(state, 1 - m.eased, m.animation.direction ?? 'left'),
  },
  maskRevealIn: {
    kind: 'entrance',
    durationSeconds: 0.7,
    easing: 'snappy',
    summary:
      'slides into place from behind an edge of its own box, moving toward `direction` (up): a title rising from a line',
    // Moving up into place, it starts below, hidden behind its box's bottom edge.
    apply: (state, m) => reveal(state, 1 - m.eased, OPPOSITE[m.animation.direction ?? 'up']),
  },
  maskRevealOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    summary: 'slides toward `direction` (up) behind the edge of its own box until hidden',
    apply: (state, m) => reveal(state, m.eased, m.animation.direction ?? 'up'),
  },
  glow: {
    kind: 'loop',
    durationSeconds: 2,
    easing: 'gentle',
    summary: 'a soft halo of `color` (white), `amount` (24) pixels wide, swells around it and fades',
    apply: (state, m) => {
      const radius = (m.animation.amount ?? 24) * m.context.scale * swellWave(m.linear, m.ease);
      if (radius <= 0.05 || (state.glow && state.glow.radius >= radius)) return;
      state.glow = { radius, color: m.animation.color ?? GLOW_COLOR };
    },
  },
} satisfies PresetFamily;
