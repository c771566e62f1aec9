// An element's animated state at one instant: every resolved animation and keyframe track combined.
import { DEFAULT_FPS } from '../spec/schema.ts';
import type { FrameSize } from '../spec/sizes.ts';
import type { ResolvedAnimation, ResolvedElement } from './types.ts';
import { easingFunction } from '../animation/easing.ts';
import { applyKeyframes } from '../animation/keyframes.ts';
import { CURSOR_BLINK_SECONDS, PRESETS } from '../animation/presets.ts';
import type { AnimatedState } from '../animation/state.ts';
import { restingState } from '../animation/state.ts';

export interface AnimationContext {
  /** Design pixels to real pixels. */
  scale: number;
  size: FrameSize;
  /** Frames per second, for keyframe times written in frames ("45f"); default 30. */
  fps?: number;
}

/**
 * Where an animation is at `seconds`: before its start it rests at progress 0 (an entrance's hidden
 * "from" state), after its end it holds progress 1 of its last repetition (an exit stays gone).
 */
export function animationPhase(
  animation: ResolvedAnimation,
  seconds: number,
): { linear: number; repetition: number } {
  if (seconds < animation.startSeconds) return { linear: 0, repetition: 0 };
  if (seconds >= animation.endSeconds || animation.durationSeconds <= 0) {
    return {
      linear: 1,
      repetition: Number.isFinite(animation.repeat) ? Math.max(0, animation.repeat - 1) : 0,
    };
  }
  const cycles = (seconds - animation.startSeconds) / animation.durationSeconds;
  const repetition = Math.floor(cycles);
  return { linear: cycles - repetition, repetition };
}

/** wordByWord: word i starts `i × staggerSeconds` after the animation start and takes one duration. */
function wordProgressAt(animation: ResolvedAnimation, seconds: number): (wordIndex: number) => number {
  const ease = easingFunction(animation.easing);
  return (wordIndex) => {
    const begin = animation.startSeconds + wordIndex * animation.staggerSeconds;
    if (animation.durationSeconds <= 0) return seconds >= begin ? 1 : 0;
    return ease((seconds - begin) / animation.durationSeconds);
  };
}

const fullyShown = () => 1;

/** A typewriter's cursor: solid while it types, blinking before and after (unless told not to blink). */
function cursorVisibleAt(animation: ResolvedAnimation, seconds: number): boolean {
  const typing = seconds >= animation.startSeconds && seconds < animation.endSeconds;
  const cursor = animation.animation.cursor;
  const blink = typeof cursor === 'object' ? cursor.blink !== false : true;
  if (typing || !blink) return true;
  const since = Math.abs(
    seconds - (seconds < animation.startSeconds ? animation.startSeconds : animation.endSeconds),
  );
  return Math.floor(since / CURSOR_BLINK_SECONDS + 1e-9) % 2 === 0;
}

/**
 * Combines all animations: opacity and scale multiply, offsets, rotation and blur add, the smaller
 * wipe wins. Keyframed values land in state.props for the layout and the drawers.
 */
export function animatedState(
  element: ResolvedElement,
  sceneSeconds: number,
  context: AnimationContext,
): AnimatedState {
  const state = restingState();
  for (const animation of element.animations) {
    const preset = PRESETS[animation.animation.preset];
    const ease = easingFunction(animation.easing);
    const { linear, repetition } = animationPhase(animation, sceneSeconds);
    preset.apply(state, {
      animation: animation.animation,
      linear,
      eased: ease(linear),
      repetition,
      ease,
      wordProgress:
        animation.animation.preset === 'wordByWord' ? wordProgressAt(animation, sceneSeconds) : fullyShown,
      cursorVisible:
        animation.animation.preset === 'typewriter' ? cursorVisibleAt(animation, sceneSeconds) : false,
      elementType: element.element.type,
      context,
    });
  }
  applyKeyframes(
    state,
    element.element.keyframes,
    sceneSeconds - element.startSeconds,
    context.fps ?? DEFAULT_FPS,
  );
  return state;
}
