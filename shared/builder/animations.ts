// Animation, easing and keyframe helpers: one function per animation preset, each returning the same
// `{ preset, ... }` object a JSON spec holds.
import { ANIMATION_PRESETS } from '../spec/primitives.ts';
import type { Animation, AnimationPreset, Easing, Keyframe, Spring } from '../spec/primitives.ts';
import type { Time } from '../spec/time.ts';
import { plainData } from './plain-data.ts';

export type AnimationProps = Omit<Animation, 'preset'>;
export type AnimationHelper = (props?: AnimationProps) => Animation;

function animationHelper(preset: AnimationPreset): AnimationHelper {
  return (props) => {
    const animation = plainData({ preset, ...props });
    animation.preset = preset; // a stray `preset` in untyped props must not change what this helper is
    return animation;
  };
}

/** Every preset's helper, by preset name (the named exports below are the same functions). */
export const animationHelpers: Readonly<Record<AnimationPreset, AnimationHelper>> = Object.freeze(
  Object.fromEntries(ANIMATION_PRESETS.map((preset) => [preset, animationHelper(preset)])) as Record<
    AnimationPreset,
    AnimationHelper
  >,
);

export const fadeIn = animationHelpers.fadeIn;
export const fadeOut = animationHelpers.fadeOut;
export const slideIn = animationHelpers.slideIn;
export const slideOut = animationHelpers.slideOut;
export const slideFadeIn = animationHelpers.slideFadeIn;
export const slideFadeOut = animationHelpers.slideFadeOut;
export const pop = animationHelpers.pop;
export const scaleIn = animationHelpers.scaleIn;
export const scaleOut = animationHelpers.scaleOut;
export const blurIn = animationHelpers.blurIn;
export const blurOut = animationHelpers.blurOut;
export const maskWipeIn = animationHelpers.maskWipeIn;
export const maskWipeOut = animationHelpers.maskWipeOut;
export const maskRevealIn = animationHelpers.maskRevealIn;
export const maskRevealOut = animationHelpers.maskRevealOut;
export const flipIn = animationHelpers.flipIn;
export const flipOut = animationHelpers.flipOut;
export const rotateIn = animationHelpers.rotateIn;
export const rotateOut = animationHelpers.rotateOut;
export const dropIn = animationHelpers.dropIn;
export const bounceIn = animationHelpers.bounceIn;
export const elasticIn = animationHelpers.elasticIn;
export const shake = animationHelpers.shake;
export const spin = animationHelpers.spin;
export const float = animationHelpers.float;
export const pulse = animationHelpers.pulse;
export const rock = animationHelpers.rock;
export const glow = animationHelpers.glow;
export const drift = animationHelpers.drift;
export const kenBurns = animationHelpers.kenBurns;
export const wordByWord = animationHelpers.wordByWord;
export const typewriter = animationHelpers.typewriter;

/** A physical spring easing: `easing: spring({ stiffness: 180, damping: 12 })`. */
export function spring(props: Spring = {}): Easing {
  return { spring: plainData(props) };
}

/** A CSS-style cubic Bézier easing; x1 and x2 must lie in 0..1. */
export function cubicBezier(x1: number, y1: number, x2: number, y2: number): Easing {
  return { cubicBezier: [x1, y1, x2, y2] };
}

/** One keyframe as a tuple: [at, value] or [at, value, easing from the previous keyframe]. */
export type KeyframeTuple = readonly [at: Time, value: number | string, easing?: Easing];

/**
 * Keyframes for one property, written compactly:
 * `.keyframes({ opacity: keyframes(['0s', 0], ['1s', 1, 'smooth']) })`.
 */
export function keyframes(...frames: KeyframeTuple[]): Keyframe[] {
  return frames.map(([at, value, easing]) => (easing === undefined ? { at, value } : { at, value, easing }));
}
