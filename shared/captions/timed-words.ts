// Cues with a time for every word: what the pop and karaoke styles step through. Word-timed input
// (the `words` a Whisper-style transcriber emits) keeps its own timings and is grouped into cues;
// SRT and WebVTT cues time only whole lines, so their words share the cue's time by length.
import type { CaptionCue } from './parse.ts';

export interface TimedWord {
  text: string;
  /** Seconds from the start of the captions. */
  start: number;
  end: number;
}

export interface TimedCue {
  /** 1-based: the cue's number in its file, or the group's number for word-timed input. */
  number: number;
  /** Line in the caption file, when there is one. */
  line: number | undefined;
  start: number;
  end: number;
  text: string;
  words: TimedWord[];
}

/** A gap this long between two words starts a new cue (a pause in speech). */
export const CUE_GAP_SECONDS = 0.7;
/** A cue of word-timed input holds at most this many words (about two lines of subtitle). */
export const MAX_CUE_WORDS = 14;
const SENTENCE_END = /[.!?…。！？]["'”’)\]]*$/;

export function splitWords(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

/**
 * Spreads a cue's time over its words by their length, one extra character each for the space a
 * reader's eye also crosses: long words hold the highlight longer, as in speech.
 */
export function timeCueWords(cue: CaptionCue): TimedCue {
  const words = splitWords(cue.text);
  const weights = words.map((word) => Array.from(word).length + 1);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let at = cue.start;
  const timed = words.map((text, index) => {
    const length = ((cue.end - cue.start) * weights[index]!) / total;
    const word = { text, start: at, end: at + length };
    at += length;
    return word;
  });
  if (timed.length > 0) timed[timed.length - 1]!.end = cue.end;
  return { number: cue.number, line: cue.line, start: cue.start, end: cue.end, text: cue.text, words: timed };
}

/** Groups word-timed input into cues: at a sentence's end, at a pause, or when a cue is full. */
export function groupWords(words: readonly TimedWord[]): TimedCue[] {
  const cues: TimedCue[] = [];
  let current: TimedWord[] = [];
  const close = () => {
    if (current.length === 0) return;
    cues.push({
      number: cues.length + 1,
      line: undefined,
      start: current[0]!.start,
      end: current[current.length - 1]!.end,
      text: current.map((word) => word.text).join(' '),
      words: current,
    });
    current = [];
  };
  for (const word of words) {
    const previous = current[current.length - 1];
    if (previous && word.start - previous.end >= CUE_GAP_SECONDS) close();
    current.push(word);
    if (SENTENCE_END.test(word.text) || current.length >= MAX_CUE_WORDS) close();
  }
  close();
  return cues;
}

/** Whether a word ends a sentence: pages of word-by-word captions break after it. */
export function endsSentence(word: string): boolean {
  return SENTENCE_END.test(word);
}
