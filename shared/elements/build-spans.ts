// The built-in entrance and exit of each annotation and titling element type, as spans of its
// lifetime. Review reads them to tell an element still arriving (or leaving) from one at rest, the
// way it reads an animation preset.
import type { ModelElement } from '../spec/model.ts';
import { ARROW_ENTER_SECONDS, ARROW_EXIT_SECONDS } from './annotation/arrow-draw.ts';
import { buildSpans } from './build-phase.ts';
import type { BuildSpans, BuildTiming } from './build-phase.ts';
import { CALLOUT_ENTER_SECONDS, CALLOUT_EXIT_SECONDS } from './annotation/callout-draw.ts';
import { LOWER_THIRD_ENTER_SECONDS, LOWER_THIRD_EXIT_SECONDS } from './lower-third-draw.ts';
import { PROGRESS_ENTER_SECONDS, PROGRESS_EXIT_SECONDS } from './progress-bar-draw.ts';
import { SPOTLIGHT_ENTER_SECONDS, SPOTLIGHT_EXIT_SECONDS } from './annotation/spotlight-draw.ts';
import { TITLE_CARD_ENTER_SECONDS, TITLE_CARD_EXIT_SECONDS } from './title-card-draw.ts';

const DEFAULT_SPANS: Readonly<Record<string, BuildSpans>> = {
  arrow: { enter: ARROW_ENTER_SECONDS, exit: ARROW_EXIT_SECONDS },
  callout: { enter: CALLOUT_ENTER_SECONDS, exit: CALLOUT_EXIT_SECONDS },
  spotlight: { enter: SPOTLIGHT_ENTER_SECONDS, exit: SPOTLIGHT_EXIT_SECONDS },
  lowerThird: { enter: LOWER_THIRD_ENTER_SECONDS, exit: LOWER_THIRD_EXIT_SECONDS },
  titleCard: { enter: TITLE_CARD_ENTER_SECONDS, exit: TITLE_CARD_EXIT_SECONDS },
  progressBar: { enter: PROGRESS_ENTER_SECONDS, exit: PROGRESS_EXIT_SECONDS },
};

/**
 * The seconds an element of `lifetime` seconds spends in its built-in entrance and exit, as its
 * drawing plays them; undefined for types without one.
 */
export function builtInBuild(element: ModelElement, lifetime: number, fps: number): BuildSpans | undefined {
  const defaults = DEFAULT_SPANS[element.type];
  return defaults && buildSpans(element as BuildTiming, lifetime, fps, defaults);
}
