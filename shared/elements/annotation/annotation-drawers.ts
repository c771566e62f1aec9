// How the annotation and titling elements draw and where they sit, by type, for the registry.
import type { ArrowElement, CalloutElement, SpotlightElement } from '../../spec/annotation-elements.ts';
import type { LowerThirdElement, ProgressBarElement, TitleCardElement } from '../../spec/title-elements.ts';
import { drawArrow, placeArrow } from './arrow-draw.ts';
import { drawCallout, measureCallout } from './callout-draw.ts';
import type { ElementDrawer } from '../definition.ts';
import { drawLowerThird, measureLowerThird } from '../lower-third-draw.ts';
import { drawProgressBar, measureProgressBar } from '../progress-bar-draw.ts';
import { SPOTLIGHT_SIZE, drawSpotlight } from './spotlight-draw.ts';
import { drawTitleCard } from '../title-card-draw.ts';

export const ANNOTATION_DRAWERS: {
  arrow: ElementDrawer<ArrowElement>;
  callout: ElementDrawer<CalloutElement>;
  spotlight: ElementDrawer<SpotlightElement>;
  lowerThird: ElementDrawer<LowerThirdElement>;
  titleCard: ElementDrawer<TitleCardElement>;
  progressBar: ElementDrawer<ProgressBarElement>;
} = {
  arrow: { place: placeArrow, draw: drawArrow },
  // Given a width, a callout's text wraps in it and the box grows down to fit.
  callout: {
    intrinsicSize: (element, env, maxWidth) => measureCallout(element, env, maxWidth),
    heightFollowsWidth: true,
    draw: drawCallout,
  },
  spotlight: {
    intrinsicSize: (_element, env) => ({
      width: SPOTLIGHT_SIZE * env.scale,
      height: SPOTLIGHT_SIZE * env.scale,
    }),
    draw: drawSpotlight,
  },
  // A lower third sits at the bottom left of the safe area unless placed.
  lowerThird: {
    intrinsicSize: (element, env, maxWidth) => measureLowerThird(element, env, maxWidth),
    heightFollowsWidth: true,
    defaultPlacement: { x: 0, y: 1, anchor: 'bottom-left' },
    draw: drawLowerThird,
  },
  // A title card takes the whole box it is laid out in and centres its own stack.
  titleCard: {
    intrinsicSize: (_element, _env, maxWidth, maxHeight) => ({ width: maxWidth, height: maxHeight }),
    draw: drawTitleCard,
  },
  // A progress bar spans the bottom of the safe area unless placed.
  progressBar: {
    intrinsicSize: (element, env, maxWidth) => measureProgressBar(element, env, maxWidth),
    defaultPlacement: { x: 0.5, y: 1, anchor: 'bottom' },
    draw: drawProgressBar,
  },
};
