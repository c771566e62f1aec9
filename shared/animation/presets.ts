// The animation presets: their defaults (kind, length, easing) and what each does to an element's state.
import { resolveLength } from '../layout/length.ts';
import type { Animation, AnimationPreset, Direction, Easing } from '../spec/primitives.ts';
import type { FrameSize } from '../spec/sizes.ts';
import type { EasingFunction } from './easing.ts';
import type { AnimatedState } from './state.ts';

/**
 * entrance: plays once from a hidden "from" state into place; exit: the reverse, finishing at the
 * element end by default; loop: repeats forever by default; lifetime: spans the element's lifetime.
 */
export type PresetKind = 'entrance' | 'exit' | 'loop' | 'lifetime';

export interface PresetContext {
  /** Design pixels to real pixels. */
  scale: number;
  size: FrameSize;
}

/** One animation at one instant, as a preset sees it. */
export interface PresetMoment {
  animation: Animation;
  /** Linear progress through the current repetition: 0 before the start, 1 after the end. */
  linear: number;
  /** The same, eased. */
  eased: number;
  /** Which repetition is playing (the last one once finished). */
  repetition: number;
  ease: EasingFunction;
  /** For wordByWord: the progress of each word at this instant. */
  wordProgress: (wordIndex: number) => number;
  /** For typewriter: whether its cursor shows at this instant (solid while typing, else blinking). */
  cursorVisible: boolean;
  elementType: string;
  context: PresetContext;
}

export interface PresetDefinition {
  kind: PresetKind;
  /** Length of one repetition; "lifetime" spans the element from the animation start to its end. */
  durationSeconds: number | 'lifetime';
  easing: Easing;
  apply(state: AnimatedState, moment: PresetMoment): void;
}

export const DEFAULT_WORD_STAGGER_SECONDS = 0.08;
/** typewriter: characters a second (a brisk typist), and words a second when typing by word. */
export const DEFAULT_TYPING_RATE = { character: 18, word: 4 } as const;
/** A text cursor blinks on and off every 530 ms, as most systems' do. */
export const CURSOR_BLINK_SECONDS = 0.53;

const UNIT: Record<Direction, { x: number; y: number }> = {
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
  up: { x: 0, y: -1 },
  down: { x: 0, y: 1 },
};

/** The animation's distance in real pixels; a percentage is of the frame along the axis of motion. */
function distance(moment: PresetMoment, designDefault: number, direction: Direction): number {
  const { animation, context } = moment;
  if (animation.distance === undefined) return designDefault * context.scale;
  const along = UNIT[direction].x === 0 ? context.size.height : context.size.width;
  return resolveLength(animation.distance, along, { frame: context.size, scale: context.scale });
}

/**
 * Offsets along `direction`, the way the element moves: a slide "up" moves upward, so a slideIn "up"
 * starts below its place and a slideOut "up" leaves upward.
 */
function translate(state: AnimatedState, direction: Direction, pixels: number): void {
  state.dx += UNIT[direction].x * pixels;
  state.dy += UNIT[direction].y * pixels;
}

function slideIn(state: AnimatedState, moment: PresetMoment): void {
  const direction = moment.animation.direction ?? 'up';
  translate(state, direction, -distance(moment, 120, direction) * (1 - moment.eased));
}

function slideOut(state: AnimatedState, moment: PresetMoment): void {
  const direction = moment.animation.direction ?? 'up';
  translate(state, direction, distance(moment, 120, direction) * moment.eased);
}

function blurRadius(moment: PresetMoment): number {
  return (moment.animation.amount ?? 30) * moment.context.scale;
}

function wipe(state: AnimatedState, visible: number, from: Direction): void {
  if (!state.wipe || visible < state.wipe.visible) state.wipe = { visible, from };
}

/**
 * A periodic wave in [-1, 1] that starts at 0 heading up: each half swing between the extremes follows
 * the easing, so "gentle" (sine in-out) gives a pure sine and "smooth" lingers a little at the peaks.
 */
export function swingWave(phase: number, ease: EasingFunction): number {
  // Exactly at rest at the ends of a cycle, not off by rounding, so a finished loop leaves no trace.
  if (phase <= 0 || phase >= 1) return 0;
  const q = (phase + 0.25) % 1;
  return q < 0.5 ? -1 + 2 * ease(q * 2) : 1 - 2 * ease(q * 2 - 1);
}

export const PRESETS: Record<AnimationPreset, PresetDefinition> = {
  fadeIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'smooth',
    apply: (state, m) => {
      state.opacity *= m.eased;
    },
  },
  fadeOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    apply: (state, m) => {
      state.opacity *= 1 - m.eased;
    },
  },
  slideIn: { kind: 'entrance', durationSeconds: 0.6, easing: 'snappy', apply: slideIn },
  slideOut: { kind: 'exit', durationSeconds: 0.6, easing: 'in', apply: slideOut },
  slideFadeIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'snappy',
    apply: (state, m) => {
      slideIn(state, m);
      state.opacity *= m.eased;
    },
  },
  slideFadeOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    apply: (state, m) => {
      slideOut(state, m);
      state.opacity *= 1 - m.eased;
    },
  },
  pop: {
    kind: 'entrance',
    durationSeconds: 0.5,
    easing: 'back',
    apply: (state, m) => {
      const from = m.animation.amount ?? 0.5;
      state.scale *= from + (1 - from) * m.eased;
      // The fade is over in the first third, so the overshoot is seen at full opacity.
      state.opacity *= Math.min(1, m.linear / 0.35);
    },
  },
  scaleIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'snappy',
    apply: (state, m) => {
      const from = m.animation.amount ?? 0;
      state.scale *= from + (1 - from) * m.eased;
    },
  },
  scaleOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    apply: (state, m) => {
      const to = m.animation.amount ?? 0;
      state.scale *= 1 + (to - 1) * m.eased;
    },
  },
  blurIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'out',
    apply: (state, m) => {
      state.blur += blurRadius(m) * (1 - m.eased);
      state.opacity *= m.eased;
    },
  },
  blurOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    apply: (state, m) => {
      state.blur += blurRadius(m) * m.eased;
      state.opacity *= 1 - m.eased;
    },
  },
  maskWipeIn: {
    kind: 'entrance',
    durationSeconds: 0.6,
    easing: 'smooth',
    apply: (state, m) => wipe(state, m.eased, m.animation.direction ?? 'left'),
  },
  maskWipeOut: {
    kind: 'exit',
    durationSeconds: 0.6,
    easing: 'in',
    apply: (state, m) => wipe(state, 1 - m.eased, m.animation.direction ?? 'left'),
  },
  spin: {
    kind: 'loop',
    durationSeconds: 4,
    easing: 'linear',
    apply: (state, m) => {
      state.rotation += (m.animation.amount ?? 360) * (m.repetition + m.eased);
    },
  },
  float: {
    kind: 'loop',
    durationSeconds: 3,
    easing: 'gentle',
    apply: (state, m) => {
      state.dy -= distance(m, 18, 'up') * swingWave(m.linear, m.ease);
    },
  },
  pulse: {
    kind: 'loop',
    durationSeconds: 1.2,
    easing: 'gentle',
    apply: (state, m) => {
      state.scale *= 1 + (m.animation.amount ?? 0.05) * swingWave(m.linear, m.ease);
    },
  },
  drift: {
    kind: 'lifetime',
    durationSeconds: 'lifetime',
    easing: 'linear',
    apply: (state, m) => {
      const direction = m.animation.direction ?? 'right';
      // Centred on the element's place, so it is where the layout put it halfway through.
      translate(state, direction, distance(m, 60, direction) * (m.eased - 0.5));
    },
  },
  kenBurns: {
    kind: 'lifetime',
    durationSeconds: 'lifetime',
    easing: 'linear',
    apply: (state, m) => {
      const amount = m.animation.amount ?? 0.15;
      state.kenBurns = { progress: m.eased, amount, direction: m.animation.direction ?? 'right' };
      // Media zoom inside their box (the drawer reads state.kenBurns); anything else zooms as a whole.
      if (m.elementType !== 'image' && m.elementType !== 'clip') state.scale *= 1 + amount * m.eased;
    },
  },
  wordByWord: {
    kind: 'entrance',
    durationSeconds: 0.45,
    easing: 'out',
    apply: (state, m) => {
      const previous = state.wordProgress;
      state.wordProgress = previous ? (i) => Math.min(previous(i), m.wordProgress(i)) : m.wordProgress;
    },
  },
  typewriter: {
    kind: 'entrance',
    // Set by the timeline from the text's length and the rate, unless the animation gives one.
    durationSeconds: 1,
    easing: 'linear',
    apply: (state, m) => {
      const cursor = m.animation.cursor;
      state.typing = {
        fraction: Math.min(1, Math.max(0, m.eased)),
        by: m.animation.by ?? 'character',
        cursor: cursor
          ? { color: typeof cursor === 'object' ? cursor.color : undefined, visible: m.cursorVisible }
          : undefined,
      };
    },
  },
};

export function presetKind(preset: AnimationPreset): PresetKind {
  return PRESETS[preset].kind;
}
