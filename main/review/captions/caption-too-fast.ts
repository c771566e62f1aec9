// caption_too_fast: captions that leave the screen before they can be read. Judged per page as it is
// displayed (a cue too long for its lines is shown a page at a time, each for its words' time), in
// characters a second over the time the page is up on the video's clock: speed shortens it.
import type { TimedCue } from '../../../shared/captions/timed-words.ts';
import type { FindingDraft } from '../finding.ts';
import { formatSeconds } from '../visual/check.ts';
import type { CaptionTrack, ShownPage } from './caption-tracks.ts';
import { spanFrames } from './caption-tracks.ts';
import type { CaptionCheck } from './check.ts';
import { describeCue, describeTrack, spanInterval, upToTenth } from './check.ts';

/**
 * Subtitle guidelines put comfortable reading at 15–17 characters a second and the ceiling around
 * 20 (Netflix: 17 for adults; the BBC about 3 words, ~17 characters); the element can set its own.
 */
export const DEFAULT_MAX_CHARS_PER_SECOND = 20;

/** Characters as read: line breaks and runs of spaces count as one space. */
export function readingCharacters(text: string): number {
  return Array.from(text.replace(/\s+/g, ' ').trim()).length;
}

interface Pace {
  shown: ShownPage;
  characters: number;
  /** Seconds the page is up on the video's clock. */
  seconds: number;
  perSecond: number;
}

function pace(track: CaptionTrack, shown: ShownPage): Pace {
  const characters = readingCharacters(shown.page.text);
  const seconds = (shown.page.end - shown.page.start) / (track.element.speed ?? 1);
  return { shown, characters, seconds, perSecond: characters / seconds };
}

const oneDecimal = (value: number) => Number(value.toFixed(1));

function lengthen(cue: TimedCue, perSecond: number, max: number, speed: number): string {
  // Its pages share the cue's time by their words, so the whole cue grows by the page's shortfall.
  const inFile = cue.end - cue.start;
  const needed = upToTenth((inFile * perSecond) / max);
  const played = speed === 1 ? '' : `; at speed ${speed} it shows for ${formatSeconds(inFile / speed)}`;
  return `make cue ${cue.number} at least ${formatSeconds(needed)} long (it is ${formatSeconds(inFile)}${played}), `;
}

function remedy(track: CaptionTrack, cue: TimedCue, worst: Pace, max: number, pages: number): string {
  const fewer = Math.floor(max * worst.seconds);
  const what = pages > 1 ? 'that page' : 'it';
  // Word timings are the speech itself: only the wording can change.
  if (track.element.words)
    return `shorten ${what} to at most ${fewer} characters (captions need not be word for word: drop fillers and repeats)`;
  const speed = track.element.speed ?? 1;
  return `${lengthen(cue, worst.perSecond, max, speed)}shorten ${what} to at most ${fewer} characters, or split it into two cues`;
}

export const checkCaptionTooFast: CaptionCheck = (input) => {
  const drafts: FindingDraft[] = [];
  for (const track of input.tracks) {
    const max = track.element.maxCharsPerSecond ?? DEFAULT_MAX_CHARS_PER_SECOND;
    const byCue = new Map<number, ShownPage[]>();
    for (const shown of track.pages) {
      const pages = byCue.get(shown.page.cue) ?? [];
      pages.push(shown);
      byCue.set(shown.page.cue, pages);
    }
    for (const pages of byCue.values()) {
      // A page that never shows is caption_offscreen's to report.
      const paces = pages
        .filter((shown) => spanFrames(shown.shown) > 0)
        .map((shown) => pace(track, shown))
        .filter((p) => p.seconds > 0);
      const worst = paces.reduce<Pace | undefined>(
        (a, b) => (a && a.perSecond >= b.perSecond ? a : b),
        undefined,
      );
      if (!worst || worst.perSecond <= max) continue;
      const cue = track.cues.find((shown) => shown.cue.number === worst.shown.page.cue)!.cue;
      const page = pages.length > 1 ? `page ${pages.indexOf(worst.shown) + 1} of ${pages.length} of ` : '';
      const speed = track.element.speed === undefined ? '' : ` at speed ${track.element.speed}`;
      drafts.push({
        code: 'caption_too_fast',
        severity: 'warning',
        ...spanInterval(input.video, worst.shown.shown, worst.shown.shown.startFrame),
        element: track.timing.key,
        message:
          `${describeTrack(track)}: ${page}${describeCue(cue)} shows ${worst.characters} characters for ` +
          `${formatSeconds(worst.seconds)}${speed}, ${oneDecimal(worst.perSecond)} a second, faster than the ` +
          `${max} a second it can be read at (maxCharsPerSecond)`,
        remedy: remedy(track, cue, worst, max, pages.length),
      });
    }
  }
  return drafts;
};
