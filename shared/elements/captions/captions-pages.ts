// Captions as pages: what shows on screen at once, and when. A cue too long for its lines is split
// into pages of at most maxLines lines, each shown while its words are spoken; pop captions show a
// few words a page. Pages are what the drawing shows and what review judges.
import { endsSentence, groupWords, timeCueWords } from '../../captions/timed-words.ts';
import type { TimedCue, TimedWord } from '../../captions/timed-words.ts';
import { describeCaptionFault, parseCaptions } from '../../captions/parse.ts';
import type { CaptionsElement, CaptionStyle } from '../../spec/captions-element.ts';
import { captionFile, inlineCaptions } from '../../spec/captions-element.ts';
import { signedTimeToSeconds } from '../../spec/time.ts';
import type { ModelElement, VideoModel } from '../../spec/model.ts';
import { topLevelElements } from '../../spec/element-lists.ts';
import type { MeasureRun } from '../text/text-layout.ts';
import { breakLines } from '../text/text-layout.ts';

export interface CaptionPage {
  /** The cue it comes from (1-based), and that cue's line in its file. */
  cue: number;
  line: number | undefined;
  /** Seconds on the captions' own clock (before offset and speed). */
  start: number;
  end: number;
  /** Its lines joined by "\n", so laying it out again breaks it the same way. */
  text: string;
  words: TimedWord[];
}

export const DEFAULT_MAX_LINES = 2;
export const DEFAULT_POP_WORDS = 3;
/** pop: a page stays this long after its last word when no page follows at once. */
const POP_HOLD_SECONDS = 0.4;
/** pop: a pause this long between words starts a new page. */
const POP_GAP_SECONDS = 0.5;

export function captionStyle(element: CaptionsElement): CaptionStyle {
  return element.style ?? 'subtitle';
}

/** The caption file's text, as the host loaded it (undefined while it is not loaded). */
export type CaptionFileText = (src: string) => string | undefined;

/** Reading the captions failed: the file's faults, named by cue and line. */
export class CaptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaptionsError';
  }
}

const cueCache = new WeakMap<CaptionsElement, { text: string | undefined; cues: TimedCue[] }>();

/** The element's cues, each with word timings; empty while its caption file is not loaded. */
export function captionCues(element: CaptionsElement, fileText: CaptionFileText): TimedCue[] {
  const file = captionFile(element);
  const text = file ? fileText(file.src) : inlineCaptions(element)?.text;
  const cached = cueCache.get(element);
  if (cached && cached.text === text) return cached.cues;
  let cues: TimedCue[];
  if (element.words) {
    cues = groupWords(
      element.words.map((word) => ({
        text: (word.text ?? word.word ?? '').trim(),
        start: word.start,
        end: word.end,
      })),
    );
  } else {
    const format = file?.format ?? inlineCaptions(element)?.format ?? 'srt';
    if (text === undefined) return [];
    const parsed = parseCaptions(format, text);
    if (!parsed.ok) {
      const where = file ? `${file.src}: ` : '';
      throw new CaptionsError(
        `${where}${parsed.faults.map((fault) => describeCaptionFault(format, fault)).join('; ')}`,
      );
    }
    cues = parsed.cues.map(timeCueWords);
  }
  cueCache.set(element, { text, cues });
  return cues;
}

/** The captions' own clock at a moment of the element: offset and speed applied. */
export function captionClock(element: CaptionsElement, elementSeconds: number, fps: number): number {
  const offset = element.offset === undefined ? 0 : signedTimeToSeconds(element.offset, fps);
  return (elementSeconds - offset) * (element.speed ?? 1);
}

/** The element moment at which the captions' clock reads `seconds` (the inverse of captionClock). */
export function elementSecondsAt(element: CaptionsElement, seconds: number, fps: number): number {
  const offset = element.offset === undefined ? 0 : signedTimeToSeconds(element.offset, fps);
  return seconds / (element.speed ?? 1) + offset;
}

interface PagingInput {
  maxWidth: number;
  maxLines: number;
  /** Measures the words as drawn, letter spacing included. */
  measure: MeasureRun;
  letterSpacing: number;
  /** Uppercase or lowercase as drawn. */
  display: (text: string) => string;
}

/** The word indices of each line the text breaks into. */
function lineWords(text: string, input: PagingInput): number[][] {
  const breaks = breakLines({
    text: input.display(text),
    maxWidth: input.maxWidth,
    measure: input.measure,
    letterSpacing: input.letterSpacing,
  });
  // Pieces of a word broken across lines share its index: count each word once, on its first line.
  const seen = new Set<number>();
  return breaks.lines.map((line) =>
    line.filter((piece) => !seen.has(piece.index) && seen.add(piece.index)).map((piece) => piece.index),
  );
}

/** A page of the cue: the words at the lines' indices into `from`, timed by its first and last. */
function pageOf(cue: TimedCue, from: readonly TimedWord[], lines: readonly number[][]): CaptionPage {
  const words = lines.flat().map((index) => from[index]!);
  return {
    cue: cue.number,
    line: cue.line,
    start: words[0]!.start,
    end: words[words.length - 1]!.end,
    text: lines.map((line) => line.map((index) => from[index]!.text).join(' ')).join('\n'),
    words,
  };
}

/** subtitle and karaoke: a cue's lines, maxLines at a time, each page timed by its words. */
function cuePages(cue: TimedCue, input: PagingInput): CaptionPage[] {
  const lines = lineWords(cue.text, input);
  const pages: CaptionPage[] = [];
  for (let i = 0; i < lines.length; i += input.maxLines) {
    const chunk = lines.slice(i, i + input.maxLines).filter((line) => line.length > 0);
    if (chunk.length > 0) pages.push(pageOf(cue, cue.words, chunk));
  }
  // The cue's own time frames its pages: the first starts with it, each runs until the next.
  pages.forEach((page, index) => {
    if (index === 0) page.start = cue.start;
    page.end = index === pages.length - 1 ? cue.end : pages[index + 1]!.start;
  });
  return pages;
}

function fits(words: readonly TimedWord[], input: PagingInput): boolean {
  return lineWords(words.map((word) => word.text).join(' '), input).length <= input.maxLines;
}

/** pop: a few words a page, broken at sentence ends, pauses and the cue's end. */
function popPages(cue: TimedCue, maxWords: number, input: PagingInput): CaptionPage[] {
  const pages: CaptionPage[] = [];
  let words: TimedWord[] = [];
  const close = () => {
    if (words.length === 0) return;
    pages.push(pageOf(cue, words, lineWords(words.map((word) => word.text).join(' '), input)));
    words = [];
  };
  for (const word of cue.words) {
    const previous = words[words.length - 1];
    if (previous && (word.start - previous.end >= POP_GAP_SECONDS || !fits([...words, word], input))) close();
    words.push(word);
    if (words.length >= maxWords || endsSentence(word.text)) close();
  }
  close();
  return pages;
}

/** Every page of the captions in time order, on the captions' own clock. */
export function captionPages(
  element: CaptionsElement,
  cues: readonly TimedCue[],
  input: PagingInput,
): CaptionPage[] {
  const style = captionStyle(element);
  const pages =
    style === 'pop'
      ? cues.flatMap((cue) => popPages(cue, element.maxWords ?? DEFAULT_POP_WORDS, input))
      : cues.flatMap((cue) => cuePages(cue, input));
  if (style === 'pop') {
    // A page stays up until the next one comes, across short pauses; after a long one it clears.
    pages.forEach((page, index) => {
      const next = pages[index + 1];
      const held = page.end + POP_HOLD_SECONDS;
      if (!next) page.end = held;
      else page.end = next.start - page.end < POP_GAP_SECONDS ? next.start : Math.min(held, next.start);
    });
  }
  return pages;
}

/** The page showing at `seconds` on the captions' clock, if any. */
export function pageAt(pages: readonly CaptionPage[], seconds: number): CaptionPage | undefined {
  let low = 0;
  let high = pages.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const page = pages[mid]!;
    if (seconds < page.start) high = mid - 1;
    else if (seconds >= page.end) low = mid + 1;
    else return page;
  }
  return undefined;
}

/**
 * Reads every captions element's cues once, so a caption file with a fault stops the render before
 * its first frame with the fault's cue and line, instead of in the middle of drawing.
 */
export function checkCaptions(model: VideoModel, fileText: CaptionFileText): void {
  const visit = (element: ModelElement) => {
    if (element.type === 'captions') captionCues(element, fileText);
    if (element.type === 'group') element.children.forEach(visit);
  };
  topLevelElements(model).forEach(visit);
}
