// Transition helpers, one per transition type: `scene({ duration: '2s', transition: wipe() }, [...])`.
import { TRANSITION_TYPES } from '../spec/schema.ts';
import type { Transition, TransitionType } from '../spec/schema.ts';
import { plainData } from './plain-data.ts';

export type TransitionProps = Omit<Transition, 'type'>;
export type TransitionHelper = (props?: TransitionProps) => Transition;

function transitionHelper(type: TransitionType): TransitionHelper {
  return (props) => {
    const transition = plainData({ type, ...props });
    transition.type = type;
    return transition;
  };
}

/** Every transition's helper, by type (the named exports below are the same functions). */
export const transitionHelpers: Readonly<Record<TransitionType, TransitionHelper>> = Object.freeze(
  Object.fromEntries(TRANSITION_TYPES.map((type) => [type, transitionHelper(type)])) as Record<
    TransitionType,
    TransitionHelper
  >,
);

export const cut = transitionHelpers.cut;
export const crossFade = transitionHelpers.crossFade;
export const wipe = transitionHelpers.wipe;
export const slide = transitionHelpers.slide;
export const zoom = transitionHelpers.zoom;
export const flip = transitionHelpers.flip;
export const clockWipe = transitionHelpers.clockWipe;
