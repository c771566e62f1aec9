// A morph's text drawn token by token (code-morph.ts pairs them): a token both versions share moves
// from where it stood to where it lands, row and column at once, its colour blending where the
// theme colours it anew; the rest fade out in place while the new ones fade in. Columns are
// measured in the look's font, as the still drawing measures its runs, so the last frame of a morph
// meets the still code.
import type { CodeToken, Ctx2D, HighlightedCode } from '../../canvas/types.ts';
import { canvasColor, formatRgba, mixColors, parseColor } from '../../spec/color.ts';
import { cssFont, DIMMED_ALPHA } from './code-look.ts';
import type { CodeLook } from './code-look.ts';
import { morphTokens } from './code-morph.ts';
import type { MorphToken, TokenPlace } from './code-morph.ts';
import { lineDim } from './code-steps.ts';
import type { CodeMorph, CodeVersion } from './code-steps.ts';

/** One version as the morph draws it: its lines, focus and highlighted tokens. */
export interface MorphSide {
  version: CodeVersion;
  code: HighlightedCode;
}

/** Where the code's rows and columns fall on the canvas. */
export interface CodeGrid {
  /** Left of the first column. */
  x: number;
  /** The baseline of a row (fractional while it slides). */
  baseline: (row: number) => number;
}

interface TokenOffsets {
  font: string;
  /** Each token's left edge from its line's start, before and after. */
  before: number[];
  after: number[];
}

/** Offsets by pairing, in the font measured last: every frame of a morph draws the same tokens. */
const measured = new WeakMap<readonly MorphToken[], TokenOffsets>();

function tokenOffsets(
  ctx: Ctx2D,
  font: string,
  tokens: readonly MorphToken[],
  before: HighlightedCode,
  after: HighlightedCode,
): TokenOffsets {
  const known = measured.get(tokens);
  if (known?.font === font) return known;
  ctx.font = font;
  const widths = new Map<string, number>();
  const offset = (code: HighlightedCode, side: string, at: TokenPlace | undefined): number => {
    if (!at || at.column === 0) return 0;
    const key = `${side}:${at.line}:${at.column}`;
    let width = widths.get(key);
    if (width === undefined) {
      const text = (code.lines[at.line] ?? []).map((token) => token.text).join('');
      widths.set(key, (width = ctx.measureText(text.slice(0, at.column)).width));
    }
    return width;
  };
  const offsets = {
    font,
    before: tokens.map((token) => offset(before, 'b', token.before)),
    after: tokens.map((token) => offset(after, 'a', token.after)),
  };
  measured.set(tokens, offsets);
  return offsets;
}

/** Where a token stands in one version, in pixels, and how it looks there. */
interface Stance {
  x: number;
  row: number;
  dim: number;
  color: string;
  token: CodeToken;
}

function stance(side: MorphSide, place: TokenPlace, x: number): Stance {
  return {
    x,
    row: place.line,
    dim: lineDim(side.version, place.line),
    color: place.token.color ?? side.code.foreground,
    token: place.token,
  };
}

/** The colour between two, `t` of the way; the later one where either does not parse. */
function blendColor(from: string, to: string, t: number): string {
  if (from === to || t >= 1) return canvasColor(to);
  const a = parseColor(from);
  const b = parseColor(to);
  return a && b ? formatRgba(mixColors(a, b, t)) : canvasColor(to);
}

/** Draws the text of a morph frame from `before` to `after`. */
export function drawMorphText(
  ctx: Ctx2D,
  look: CodeLook,
  morph: CodeMorph,
  before: MorphSide,
  after: MorphSide,
  grid: CodeGrid,
): void {
  const tokens = morphTokens(before.code.lines, after.code.lines);
  const offsets = tokenOffsets(ctx, cssFont(look), tokens, before.code, after.code);
  const mix = (a: number, b: number, t: number) => a + (b - a) * t;
  const baseAlpha = ctx.globalAlpha;
  tokens.forEach((piece, index) => {
    const from = piece.before && stance(before, piece.before, grid.x + offsets.before[index]!);
    const to = piece.after && stance(after, piece.after, grid.x + offsets.after[index]!);
    // A token in both versions moves, whole; one in a single version stays and fades.
    const start = (from ?? to)!;
    const end = (to ?? from)!;
    const t = from && to ? morph.move : 0;
    const alpha = from && to ? 1 : from ? 1 - morph.fade : morph.fade;
    if (alpha <= 0) return;
    const x = mix(start.x, end.x, t);
    const baseline = grid.baseline(mix(start.row, end.row, t));
    ctx.globalAlpha = baseAlpha * alpha * (1 - (1 - DIMMED_ALPHA) * mix(start.dim, end.dim, t));
    ctx.font = cssFont(look, end.token);
    ctx.fillStyle = blendColor(start.color, end.color, t);
    ctx.fillText(piece.text, x, baseline);
    if (end.token.underline) {
      const width = ctx.measureText(piece.text).width;
      ctx.fillRect(x, baseline + 0.12 * look.size, width, Math.max(1, 0.06 * look.size));
    }
  });
  ctx.globalAlpha = baseAlpha;
}
