// text_too_brief: text that leaves the screen before it can be read. Read from the resolved timeline
// alone: no pixels needed.
import { countWords } from '../../../shared/spec/text-units.ts';
import type { FindingDraft } from '../finding.ts';
import { visibleSpan } from '../element-timing.ts';
import { describeElement, elementInterval, formatSeconds } from './check.ts';
import type { VisualCheck } from './check.ts';

/**
 * Reading time: 3 words a second (about 180 words a minute, a comfortable pace for on-screen text
 * read while also watching) plus 0.35 s to notice the text and move the eyes to it.
 */
export const WORDS_PER_SECOND = 3;
export const NOTICE_SECONDS = 0.35;

export function readingSeconds(words: number): number {
  return words / WORDS_PER_SECOND + NOTICE_SECONDS;
}

const upToTenth = (seconds: number) => Math.ceil(seconds * 10 - 1e-9) / 10;

export const checkTextTooBrief: VisualCheck = (input) => {
  const drafts: FindingDraft[] = [];
  const halfFrame = 0.5 / input.video.fps;
  for (const timing of input.index.values()) {
    const element = timing.resolved.element;
    if (element.type !== 'text') continue;
    const words = countWords(element.text);
    const needed = readingSeconds(words);
    const span = visibleSpan(input.index, timing);
    const shown = span.end - span.start;
    if (shown + halfFrame >= needed) continue;
    const missing = upToTenth(needed - shown);
    const lengthen =
      element.duration !== undefined
        ? `raise its duration by at least ${missing}s`
        : timing.layer.kind === 'overlays'
          ? `start it at least ${missing}s earlier or make the video that much longer (an overlay lasts until the video ends)`
          : `make its scene ("${timing.layer.id}") at least ${missing}s longer (the text lasts until the scene ends)`;
    const delayed =
      span.start > timing.resolved.startSeconds + halfFrame ? ', start its entrance earlier' : '';
    const fewer = Math.floor((shown - NOTICE_SECONDS) * WORDS_PER_SECOND);
    const cut = fewer >= 1 ? `, or cut it to at most ${fewer} word${fewer === 1 ? '' : 's'}` : '';
    const focus = timing.layer.startFrame + Math.round(span.start * input.video.fps);
    drafts.push({
      code: 'text_too_brief',
      severity: 'warning',
      ...elementInterval(input, timing.key, focus),
      message:
        `${describeElement(timing.key, element)} is on screen for ${formatSeconds(shown)}, but its ${words} ` +
        `word${words === 1 ? '' : 's'} need at least ${formatSeconds(needed)} to read ` +
        `(${WORDS_PER_SECOND} words a second + ${NOTICE_SECONDS} s)`,
      remedy: `${lengthen}${delayed}${cut}`,
    });
  }
  return drafts;
};
