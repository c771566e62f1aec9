// Markdown blocks laid out in a width: styled runs broken into lines word by word (a word may be
// made of runs in several styles, "**bold**," is one word), blocks stacked with the spacing a slide
// designer would give them. Pure: it measures through the function it is given, so tests run
// without a canvas and drawing places every piece exactly where the layout measured it.
import { LINE_BREAK } from './markdown-blocks.ts';
import type { MarkdownBlock, Run, RunStyle } from './markdown-blocks.ts';

/** The font a piece of text is drawn in. */
export interface PieceFont {
  /** Size in pixels. */
  size: number;
  weight: number;
  italic: boolean;
  mono: boolean;
}

export type MeasurePiece = (text: string, font: PieceFont) => number;

export interface MarkdownMetrics {
  /** Body text size in pixels. */
  size: number;
  /** Multiple of the size, for body text. */
  lineHeight: number;
  measure: MeasurePiece;
  /** A fenced code block's height. */
  codeHeight: (block: Extract<MarkdownBlock, { kind: 'code' }>) => number;
}

/** A run of one style on one line, at its offset from the block's left edge (inline code: its pill's). */
export interface Piece {
  text: string;
  x: number;
  width: number;
  style: RunStyle;
  font: PieceFont;
}

export interface LaidLine {
  /** Top of the line from the block's top. */
  y: number;
  height: number;
  pieces: Piece[];
  width: number;
}

export interface LaidBlock {
  block: MarkdownBlock;
  /** Top of the block from the top of the layout. */
  y: number;
  height: number;
  /** Where its text starts, from the layout's left edge (lists and quotes are indented). */
  indent: number;
  lines: LaidLine[];
  /** The font of its text: headings are larger and bolder. */
  font: PieceFont;
}

export interface MarkdownLayout {
  blocks: LaidBlock[];
  height: number;
  /** The widest line (or code block) from the left edge. */
  width: number;
}

const HEADING_SCALE = [2, 1.5, 1.2, 1, 1, 1];
const HEADING_LINE_HEIGHT = 1.18;
/** Space above a block, in body sizes; the larger of one block's after and the next one's before wins. */
const SPACE_BEFORE: Record<MarkdownBlock['kind'], number> = {
  heading: 1,
  paragraph: 0.7,
  item: 0.3,
  quote: 0.7,
  code: 0.9,
  rule: 0.9,
};
const SPACE_AFTER: Record<MarkdownBlock['kind'], number> = {
  heading: 0.4,
  paragraph: 0.7,
  item: 0.3,
  quote: 0.7,
  code: 0.9,
  rule: 0.9,
};
/** Indent of list text per level, and of quotes, in body sizes. */
export const LIST_INDENT_EM = 1.5;
export const QUOTE_INDENT_EM = 1.1;
const CODE_SPAN_SCALE = 0.88;
/** Room each side of inline code for its pill, in its own size. */
export const CODE_SPAN_PAD_EM = 0.3;
export const RULE_HEIGHT_EM = 0.1;

export function blockFont(block: MarkdownBlock, size: number): PieceFont {
  if (block.kind === 'heading') {
    return { size: size * (HEADING_SCALE[block.level - 1] ?? 1), weight: 800, italic: false, mono: false };
  }
  return { size, weight: 400, italic: block.kind === 'quote', mono: false };
}

export function pieceFont(style: RunStyle, base: PieceFont): PieceFont {
  return {
    size: style.code ? base.size * CODE_SPAN_SCALE : base.size,
    weight: style.bold ? Math.max(700, base.weight) : base.weight,
    italic: style.italic !== base.italic,
    mono: style.code,
  };
}

interface Fragment {
  text: string;
  style: RunStyle;
}

/** A word: fragments without a space between them, and the space (if any) that follows it. */
interface Word {
  fragments: Fragment[];
  space: Fragment | undefined;
  /** Ends its line (a hard break). */
  breakAfter: boolean;
}

function words(runs: readonly Run[]): Word[] {
  const out: Word[] = [];
  let current: Word = { fragments: [], space: undefined, breakAfter: false };
  const close = (space: Fragment | undefined, breakAfter: boolean) => {
    if (current.fragments.length || breakAfter) out.push({ ...current, space, breakAfter });
    current = { fragments: [], space: undefined, breakAfter: false };
  };
  for (const run of runs) {
    if (run.text === LINE_BREAK) {
      close(undefined, true);
      continue;
    }
    for (const part of run.text.split(/(\s+)/)) {
      if (!part) continue;
      if (/^\s+$/.test(part)) close({ text: ' ', style: run.style }, false);
      else current.fragments.push({ text: part, style: run.style });
    }
  }
  close(undefined, false);
  return out;
}

/** Breaks runs into lines no wider than `width` (a word wider than a line keeps a line of its own). */
export function breakRuns(
  runs: readonly Run[],
  width: number,
  base: PieceFont,
  measure: MeasurePiece,
  lineHeight: number,
): LaidLine[] {
  const lines: LaidLine[] = [];
  let pieces: Piece[] = [];
  let x = 0;
  let pendingSpace = 0;
  const finish = () => {
    const last = pieces.at(-1);
    lines.push({
      y: lines.length * lineHeight,
      height: lineHeight,
      pieces,
      width: last ? last.x + last.width : 0,
    });
    pieces = [];
    x = 0;
    pendingSpace = 0;
  };
  for (const word of words(runs)) {
    const measured = word.fragments.map((fragment) => {
      const font = pieceFont(fragment.style, base);
      const pad = fragment.style.code ? 2 * CODE_SPAN_PAD_EM * font.size : 0;
      return { ...fragment, font, width: measure(fragment.text, font) + pad };
    });
    const wordWidth = measured.reduce((sum, fragment) => sum + fragment.width, 0);
    if (pieces.length > 0 && x + pendingSpace + wordWidth > width + 0.01) finish();
    x += pieces.length > 0 ? pendingSpace : 0;
    for (const fragment of measured) {
      pieces.push({
        text: fragment.text,
        x,
        width: fragment.width,
        style: fragment.style,
        font: fragment.font,
      });
      x += fragment.width;
    }
    pendingSpace = word.space ? measure(' ', pieceFont(word.space.style, base)) : 0;
    if (word.breakAfter) finish();
  }
  if (pieces.length > 0 || lines.length === 0) finish();
  return lines;
}

/** Lays `blocks` out in `width` pixels. */
export function layoutMarkdown(
  blocks: readonly MarkdownBlock[],
  width: number,
  metrics: MarkdownMetrics,
): MarkdownLayout {
  const { size } = metrics;
  const laid: LaidBlock[] = [];
  let y = 0;
  let widest = 0;
  let previous: MarkdownBlock['kind'] | undefined;
  for (const block of blocks) {
    if (previous !== undefined) {
      y += size * Math.max(SPACE_AFTER[previous], SPACE_BEFORE[block.kind]);
    }
    const font = blockFont(block, size);
    const indent =
      block.kind === 'item'
        ? (block.depth + 1) * LIST_INDENT_EM * size
        : block.kind === 'quote'
          ? QUOTE_INDENT_EM * size
          : 0;
    const lineHeight = font.size * (block.kind === 'heading' ? HEADING_LINE_HEIGHT : metrics.lineHeight);
    let lines: LaidLine[] = [];
    let height: number;
    if (block.kind === 'code') {
      height = metrics.codeHeight(block);
      widest = width;
    } else if (block.kind === 'rule') {
      height = RULE_HEIGHT_EM * size;
    } else {
      lines = breakRuns(block.runs, Math.max(0, width - indent), font, metrics.measure, lineHeight);
      height = lines.length * lineHeight;
      widest = Math.max(widest, indent + Math.max(...lines.map((line) => line.width)));
    }
    laid.push({ block, y, height, indent, lines, font });
    y += height;
    previous = block.kind;
  }
  return { blocks: laid, height: y, width: widest };
}
