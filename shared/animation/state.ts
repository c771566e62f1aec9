import type { Direction } from '../spec/primitives.ts';

/**
 * What animations and keyframes do to an element at one instant. The layout engine applies the
 * transform parts; element drawers read the rest (word reveal, Ken Burns, keyframed properties).
 */
export interface AnimatedState {
  /** Multiplies the element's opacity. */
  opacity: number;
  /** Offsets in real pixels. */
  dx: number;
  dy: number;
  /** Multiplies the element's scale, uniformly and per axis (flip-like effects). */
  scale: number;
  scaleX: number;
  scaleY: number;
  /** Degrees added to the element's rotation. */
  rotation: number;
  /** Gaussian blur radius in real pixels. */
  blur: number;
  /** Mask wipe: the visible fraction (1 = all), revealed from the `from` edge. */
  wipe: { visible: number; from: Direction } | undefined;
  /**
   * Mask reveal: the content moved `hidden` of the way toward `toward` to behind a mask edge just past
   * that side of its resting box, so it slides in or out from behind the edge (0 = in place, 1 = gone).
   */
  reveal: { hidden: number; toward: Direction } | undefined;
  /** A halo around what the element draws: its radius in real pixels and its colour. */
  glow: { radius: number; color: string } | undefined;
  /** wordByWord: the reveal progress (0..1) of each word, by index. */
  wordProgress: ((wordIndex: number) => number) | undefined;
  /** typewriter: how much of the text is typed (0..1), by character or word, and its cursor. */
  typing: TypingState | undefined;
  /** kenBurns on media: 0..1 progress of a slow zoom and pan of the content inside its box. */
  kenBurns: { progress: number; amount: number; direction: Direction } | undefined;
  /** Keyframed property values, overriding the element's own. */
  props: Partial<Record<string, number | string>>;
}

export interface TypingState {
  /** Share of the characters (or words) typed, 0..1. */
  fraction: number;
  by: 'character' | 'word';
  /** The cursor, when the animation has one: its colour (undefined: the text's) and whether it shows now. */
  cursor: { color: string | undefined; visible: boolean } | undefined;
}

export function restingState(): AnimatedState {
  return {
    opacity: 1,
    dx: 0,
    dy: 0,
    scale: 1,
    scaleX: 1,
    scaleY: 1,
    rotation: 0,
    blur: 0,
    wipe: undefined,
    reveal: undefined,
    glow: undefined,
    wordProgress: undefined,
    typing: undefined,
    kenBurns: undefined,
    props: {},
  };
}
