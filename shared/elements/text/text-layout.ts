// Pure text layout: line breaking, truncation with an ellipsis and per-word placement, against any
// `measure` function, so it runs without a canvas (tests, the review's text_overflow check).
//
// Words are placed by summing the advances of "word " runs, and the drawing code draws word by
// word at exactly these offsets: the measured layout and the drawn pixels cannot disagree, and a
// word-by-word reveal lands every word where the static text has it.

import { graphemes, paragraphWords } from '../../spec/text-units.ts';

export type TextAlign = 'left' | 'center' | 'right';

/**
 * The advance width of a run of text as drawn: with letter spacing, the spacing after every
 * character is included (as canvas measureText reports it).
 */
export type MeasureRun = (text: string) => number;

export const ELLIPSIS = '…';

/** One word (or a piece of a word broken across lines) and its index among the text's words. */
export interface WordPiece {
  text: string;
  index: number;
}

export interface LineBreaks {
  lines: WordPiece[][];
  /** More lines than maxLines: the rest was cut and the last line ends with an ellipsis. */
  truncated: boolean;
  /** A word wider than the line had to be broken between characters. */
  brokenWords: boolean;
}

export interface PlacedWord extends WordPiece {
  /** Offset from the line's left edge. */
  x: number;
  width: number;
}

export interface PlacedLine {
  text: string;
  /** Offset of the line's left edge from the box's left edge (negative when wider than the box). */
  x: number;
  /** Offset of the line's top from the top of the text block. */
  y: number;
  width: number;
  words: PlacedWord[];
}

export interface TextLayout {
  lines: PlacedLine[];
  truncated: boolean;
  brokenWords: boolean;
  /** The widest line. */
  width: number;
  /** All lines: line count × line height. */
  height: number;
  lineHeight: number;
  /** Truncated, or taller than maxHeight, or a line wider than the box. */
  overflow: boolean;
}

export interface BreakInput {
  text: string;
  /** Width to wrap in. */
  maxWidth: number;
  maxLines?: number | undefined;
  measure: MeasureRun;
  /** Letter spacing in pixels that `measure` includes after each character (trimmed at line ends). */
  letterSpacing?: number | undefined;
}

export interface PlaceInput {
  /** Width of the box the lines align in. */
  width: number;
  align: TextAlign;
  /** Line height in pixels. */
  lineHeight: number;
  measure: MeasureRun;
  letterSpacing?: number | undefined;
  /** Height of the box; a taller block is reported as overflow. */
  maxHeight?: number | undefined;
}

export type TextLayoutInput = BreakInput & Omit<PlaceInput, 'width'>;

// A line measured at exactly the box width must still fit despite floating-point noise.
const FIT_TOLERANCE = 0.01;

function cachedMeasure(measure: MeasureRun): MeasureRun {
  const cache = new Map<string, number>();
  return (text) => {
    let width = cache.get(text);
    if (width === undefined) {
      width = text ? measure(text) : 0;
      cache.set(text, width);
    }
    return width;
  };
}

/** Word offsets and the line's visual width (trailing letter spacing trimmed). */
function placeWords(pieces: readonly WordPiece[], measure: MeasureRun, spacing: number) {
  const words: PlacedWord[] = [];
  let x = 0;
  for (const piece of pieces) {
    words.push({ ...piece, x, width: Math.max(0, measure(piece.text) - spacing) });
    x += measure(`${piece.text} `);
  }
  const last = words.at(-1);
  return { words, width: last ? last.x + last.width : 0 };
}

function lineWidth(pieces: readonly WordPiece[], measure: MeasureRun, spacing: number): number {
  return placeWords(pieces, measure, spacing).width;
}

/** Splits a word wider than a line into pieces that each fit (at least one character each). */
function breakWord(word: WordPiece, fits: (text: string) => boolean): WordPiece[] {
  const pieces: WordPiece[] = [];
  let current = '';
  for (const grapheme of graphemes(word.text)) {
    if (current && !fits(current + grapheme)) {
      pieces.push({ text: current, index: word.index });
      current = grapheme;
    } else current += grapheme;
  }
  if (current) pieces.push({ text: current, index: word.index });
  return pieces;
}

/** Ends a line with an ellipsis, dropping characters from its end until it fits. */
function withEllipsis(line: readonly WordPiece[], input: BreakInput, measure: MeasureRun): WordPiece[] {
  const spacing = input.letterSpacing ?? 0;
  const pieces = line.map((piece) => ({ ...piece }));
  const lastIndex = pieces.at(-1)?.index ?? 0;
  for (;;) {
    const last = pieces.at(-1);
    if (!last) return [{ text: ELLIPSIS, index: lastIndex }];
    const candidate = [...pieces.slice(0, -1), { ...last, text: last.text + ELLIPSIS }];
    if (lineWidth(candidate, measure, spacing) <= input.maxWidth + FIT_TOLERANCE) return candidate;
    const kept = graphemes(last.text).slice(0, -1).join('').trimEnd();
    if (kept) last.text = kept;
    else pieces.pop();
  }
}

/** Greedy line breaking at spaces, explicit "\n" breaks, character breaks for over-long words. */
export function breakLines(input: BreakInput): LineBreaks {
  const measure = cachedMeasure(input.measure);
  const spacing = input.letterSpacing ?? 0;
  const fitsAlone = (text: string) => measure(text) - spacing <= input.maxWidth + FIT_TOLERANCE;
  const lines: WordPiece[][] = [];
  let brokenWords = false;
  let index = 0;
  for (const words of paragraphWords(input.text)) {
    let line: WordPiece[] = [];
    for (const text of words) {
      const word = { text, index: index++ };
      if (line.length > 0 && lineWidth([...line, word], measure, spacing) <= input.maxWidth + FIT_TOLERANCE) {
        line.push(word);
        continue;
      }
      if (line.length > 0) lines.push(line);
      line = [word];
      if (!fitsAlone(text)) {
        const pieces = breakWord(word, fitsAlone);
        brokenWords ||= pieces.length > 1;
        lines.push(...pieces.slice(0, -1).map((piece) => [piece]));
        line = pieces.slice(-1);
      }
    }
    lines.push(line);
  }
  const maxLines = input.maxLines ?? Infinity;
  if (lines.length <= maxLines) return { lines, truncated: false, brokenWords };
  const kept = lines.slice(0, maxLines);
  kept[kept.length - 1] = withEllipsis(kept.at(-1)!, input, measure);
  return { lines: kept, truncated: true, brokenWords };
}

/** Positions broken lines: per-word offsets, alignment in the box, one line height apart. */
export function placeLines(breaks: LineBreaks, input: PlaceInput): TextLayout {
  const measure = cachedMeasure(input.measure);
  const spacing = input.letterSpacing ?? 0;
  const lines = breaks.lines.map((pieces, lineIndex): PlacedLine => {
    const { words, width } = placeWords(pieces, measure, spacing);
    const free = input.width - width;
    const x = input.align === 'left' ? 0 : input.align === 'right' ? free : free / 2;
    const text = pieces.map((piece) => piece.text).join(' ');
    return { text, x, y: lineIndex * input.lineHeight, width, words };
  });
  const width = Math.max(0, ...lines.map((line) => line.width));
  const height = lines.length * input.lineHeight;
  const tooTall = input.maxHeight !== undefined && height > input.maxHeight + FIT_TOLERANCE;
  const tooWide = width > input.width + FIT_TOLERANCE;
  return {
    lines,
    truncated: breaks.truncated,
    brokenWords: breaks.brokenWords,
    width,
    height,
    lineHeight: input.lineHeight,
    overflow: breaks.truncated || tooTall || tooWide,
  };
}

/** Breaks and places text in a box `maxWidth` wide (and, for overflow, `maxHeight` tall). */
export function layoutText(input: TextLayoutInput): TextLayout {
  return placeLines(breakLines(input), { ...input, width: input.maxWidth });
}
