// What an animation preset is: its defaults (kind, length, easing), a line saying what it does, and
// what it does to an element's state at one instant.
import type { Animation, AnimationPreset, Easing } from '../spec/primitives.ts';
import type { FrameSize } from '../spec/sizes.ts';
import type { EasingFunction } from './easing.ts';
import type { AnimatedState } from './state.ts';

/**
 * entrance: plays once from a hidden "from" state into place; exit: the reverse, finishing at the
 * element end by default; emphasis: plays once and ends at rest, as it began; loop: repeats forever
 * by default; lifetime: spans the element's lifetime.
 */
export type PresetKind = 'entrance' | 'exit' | 'emphasis' | 'loop' | 'lifetime';

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
  /** What a viewer sees, in a few words: the README and the spec guide show it. */
  summary: string;
  apply(state: AnimatedState, moment: PresetMoment): void;
}

/** One family's presets, each checked against the definition. */
export type PresetFamily = Partial<Record<AnimationPreset, PresetDefinition>>;
