// What text effects do to placed words, before any pixel is drawn: a typewriter keeps some of them
// (a word cut to its typed characters) and says where its cursor stands; markers become rectangles
// behind the words they cover, swept on in reading order. Words keep the places the full text gives
// them, so typed text never moves and a marker lands where the words will be.
import { graphemes, paragraphWords } from '../../spec/text-units.ts';
import type { Box } from '../../canvas/types.ts';
import type { TypingState } from '../../animation/state.ts';
import type { MeasureRun, PlacedWord } from './text-layout.ts';

/** How one word looks apart from the rest (captions: the spoken word). */
export interface WordLook {
  color?: string | undefined;
  /** Scale about the word's centre. */
  scale?: number | undefined;
  /** A second colour filling the word from its left edge: karaoke. */
  sweep?: { color: string; progress: number } | undefined;
}

export interface WordPlacement {
  word: PlacedWord;
  x: number;
  baseline: number;
  /** Reveal progress: 1 fully drawn, 0 not drawn. */
  progress: number;
  look?: WordLook | undefined;
}

export interface CursorPlacement {
  x: number;
  baseline: number;
  color: string | undefined;
}

/**
 * The words a typewriter has typed so far: whole words, then the typed part of the word it is in.
 * The cursor stands after the last typed character (before the first, when none is typed yet).
 */
export function typedWords(
  words: readonly WordPlacement[],
  typing: TypingState,
  measure: MeasureRun,
): { words: WordPlacement[]; cursor: CursorPlacement | undefined } {
  const shown: WordPlacement[] = [];
  let last: { placed: WordPlacement; width: number } | undefined;
  if (typing.by === 'word') {
    const total = new Set(words.map((placed) => placed.word.index)).size;
    const count = Math.floor(typing.fraction * total + 1e-9);
    for (const placed of words) {
      if (placed.word.index >= count) break;
      shown.push(placed);
      last = { placed, width: placed.word.width };
    }
  } else {
    const total = words.reduce((sum, placed) => sum + graphemes(placed.word.text).length, 0);
    let remaining = Math.floor(typing.fraction * total + 1e-9);
    for (const placed of words) {
      if (remaining <= 0) break;
      const characters = graphemes(placed.word.text);
      if (characters.length <= remaining) {
        shown.push(placed);
        last = { placed, width: placed.word.width };
      } else {
        const text = characters.slice(0, remaining).join('');
        const partial = { ...placed, word: { ...placed.word, text } };
        shown.push(partial);
        last = { placed: partial, width: measure(text) };
      }
      remaining -= characters.length;
    }
  }
  const cursor = typing.cursor;
  if (!cursor?.visible) return { words: shown, cursor: undefined };
  const first = words[0];
  const at = last
    ? { x: last.placed.x + last.width, baseline: last.placed.baseline }
    : first
      ? { x: first.x, baseline: first.baseline }
      : undefined;
  return { words: shown, cursor: at && { ...at, color: cursor.color } };
}

/** A word's text range a marker covers: [from, to) in UTF-16 units of the word. */
interface WordRange {
  index: number;
  from: number;
  to: number;
}

/** Where each word of a text starts and ends in it, by word index. */
function wordOffsets(text: string): { start: number; end: number }[] {
  const offsets: { start: number; end: number }[] = [];
  let searchFrom = 0;
  for (const words of paragraphWords(text)) {
    for (const word of words) {
      const start = text.indexOf(word, searchFrom);
      offsets.push({ start, end: start + word.length });
      searchFrom = start + word.length;
    }
  }
  return offsets;
}

/** The words (or parts of words) a span covers: word indices, or every occurrence of a phrase. */
export function spanRanges(
  text: string,
  span: { words?: number | readonly [number, number] | undefined; match?: string | undefined },
): WordRange[] {
  const offsets = wordOffsets(text);
  if (span.words !== undefined) {
    const [first, lastIndex] = typeof span.words === 'number' ? [span.words, span.words] : span.words;
    const ranges: WordRange[] = [];
    for (let index = first; index <= Math.min(lastIndex, offsets.length - 1); index++) {
      ranges.push({ index, from: 0, to: offsets[index]!.end - offsets[index]!.start });
    }
    return ranges;
  }
  const match = span.match ?? '';
  const ranges: WordRange[] = [];
  if (!match) return ranges;
  for (let at = text.indexOf(match); at >= 0; at = text.indexOf(match, at + match.length)) {
    const end = at + match.length;
    offsets.forEach((word, index) => {
      if (word.end <= at || word.start >= end) return;
      ranges.push({
        index,
        from: Math.max(at, word.start) - word.start,
        to: Math.min(end, word.end) - word.start,
      });
    });
  }
  return ranges;
}

export interface MarkerRect extends Box {
  /** Word indices it covers. */
  words: number[];
}

/**
 * A span's rectangles, line by line in reading order: one per run of covered words on a line, the
 * spaces between covered words included. Words broken across lines are measured piece by piece.
 */
export function markerRects(
  placements: readonly WordPlacement[],
  ranges: readonly WordRange[],
  measure: MeasureRun,
  band: (baseline: number) => { top: number; height: number },
  padX: number,
): MarkerRect[] {
  const byWord = new Map<number, WordRange[]>();
  for (const range of ranges) byWord.set(range.index, [...(byWord.get(range.index) ?? []), range]);
  const rects: MarkerRect[] = [];
  const consumed = new Map<number, number>();
  let previous: { rect: MarkerRect; endsWord: boolean; index: number; baseline: number } | undefined;
  for (const placed of placements) {
    const pieceStart = consumed.get(placed.word.index) ?? 0;
    const pieceEnd = pieceStart + placed.word.text.length;
    consumed.set(placed.word.index, pieceEnd);
    for (const range of byWord.get(placed.word.index) ?? []) {
      const from = Math.max(range.from, pieceStart);
      const to = Math.min(range.to, pieceEnd);
      if (from >= to) continue;
      const text = placed.word.text;
      const x0 = placed.x + measure(text.slice(0, from - pieceStart));
      const x1 = placed.x + measure(text.slice(0, to - pieceStart));
      const { top, height } = band(placed.baseline);
      const joins =
        previous !== undefined &&
        previous.endsWord &&
        from === 0 &&
        previous.index === placed.word.index - 1 &&
        previous.baseline === placed.baseline;
      if (joins && previous) {
        previous.rect.width = x1 + padX - previous.rect.x;
        previous.rect.words.push(placed.word.index);
      } else {
        rects.push({ x: x0 - padX, y: top, width: x1 - x0 + 2 * padX, height, words: [placed.word.index] });
      }
      previous = {
        rect: rects[rects.length - 1]!,
        endsWord: to === pieceEnd,
        index: placed.word.index,
        baseline: placed.baseline,
      };
    }
  }
  return rects;
}

/** The first `progress` of the rectangles' total width, in reading order: a marker being swept on. */
export function sweptRects(rects: readonly MarkerRect[], progress: number): MarkerRect[] {
  const total = rects.reduce((sum, rect) => sum + rect.width, 0);
  let left = Math.max(0, Math.min(1, progress)) * total;
  const shown: MarkerRect[] = [];
  for (const rect of rects) {
    if (left <= 0) break;
    shown.push({ ...rect, width: Math.min(rect.width, left) });
    left -= rect.width;
  }
  return shown;
}
