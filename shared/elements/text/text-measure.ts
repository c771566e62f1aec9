// A text element's style (font, size, line height, letter spacing), how runs of it measure and
// draw, and its layout in a box: what drawing, natural sizes and checks of fit all measure with.
import { perHost } from '../../canvas/host-cache.ts';
import type { Box, Ctx2D, DrawEnv } from '../../canvas/types.ts';
import { cssFontFamilies, defaultFontWeight } from '../../fonts/fonts.ts';
import { resolveLength } from '../../layout/length.ts';
import type { LengthContext } from '../../layout/length.ts';
import type { TextElement } from '../../spec/text-element.ts';
import { graphemes } from '../../spec/text-units.ts';
import { breakLines, placeLines } from './text-layout.ts';
import type { MeasureRun, TextLayout } from './text-layout.ts';

const DEFAULT_SIZE = 72;
const DEFAULT_LINE_HEIGHT = 1.15;
const DEFAULT_PADDING_X_EM = 0.5;
const DEFAULT_PADDING_Y_EM = 0.25;

export interface TextStyle {
  font: string;
  size: number;
  lineHeight: number;
  letterSpacing: number;
  /** Every digit takes the same width (counters), so changing numbers do not jitter. */
  tabularDigits: boolean;
}

export interface StyleOverrides {
  size?: number | string | undefined;
  letterSpacing?: number | string | undefined;
  tabularDigits?: boolean | undefined;
}

export function lengthContext(env: DrawEnv): LengthContext {
  return { frame: env.size, scale: env.scale };
}

function textStyle(element: TextElement, env: DrawEnv, overrides: StyleOverrides = {}): TextStyle {
  const family = element.font ?? 'sans';
  // Keyframed sizes are design pixels, like every other keyframed length.
  const size = Math.max(
    0,
    typeof overrides.size === 'number'
      ? overrides.size * env.scale
      : resolveLength(element.size ?? DEFAULT_SIZE, env.size.height, lengthContext(env)),
  );
  const spacingEm =
    typeof overrides.letterSpacing === 'number' ? overrides.letterSpacing : (element.letterSpacing ?? 0);
  const weight = element.weight ?? defaultFontWeight(family);
  return {
    // Fixed decimals: a canvas ignores a font it cannot parse (1e-7px in some engines) and keeps the last.
    font: `${element.italic ? 'italic ' : ''}${weight} ${Number(size.toFixed(3))}px ${cssFontFamilies([env.fontFamily(family)])}`,
    size,
    lineHeight: size * (element.lineHeight ?? DEFAULT_LINE_HEIGHT),
    letterSpacing: spacingEm * size,
    tabularDigits: overrides.tabularDigits === true,
  };
}

/** The text's font size in real pixels, as the element writes it (keyframed sizes aside). */
export function fontSizePx(element: TextElement, env: DrawEnv): number {
  return textStyle(element, env).size;
}

export function displayText(element: TextElement): string {
  if (element.transform === 'uppercase') return element.text.toUpperCase();
  if (element.transform === 'lowercase') return element.text.toLowerCase();
  return element.text;
}

/** Measures and draws runs in one style; the only place that knows how letter spacing is applied. */
export interface RunPainter {
  measure: MeasureRun;
  draw(pass: 'fill' | 'stroke', text: string, x: number, y: number): void;
}

function supportsLetterSpacing(ctx: Ctx2D): boolean {
  return typeof (ctx as { letterSpacing?: unknown }).letterSpacing === 'string';
}

/** Sets the style on `ctx` and returns how to measure and draw runs with it. */
export function runPainter(ctx: Ctx2D, style: TextStyle): RunPainter {
  ctx.font = style.font;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  const paint = (pass: 'fill' | 'stroke', text: string, x: number, y: number) =>
    pass === 'fill' ? ctx.fillText(text, x, y) : ctx.strokeText(text, x, y);
  if (style.tabularDigits) return tabularPainter(ctx, style, paint);
  if (style.letterSpacing === 0 || supportsLetterSpacing(ctx)) {
    if (supportsLetterSpacing(ctx)) ctx.letterSpacing = `${Number(style.letterSpacing.toFixed(3))}px`;
    return { measure: (text) => ctx.measureText(text).width, draw: paint };
  }
  // Without ctx.letterSpacing (older Safari), characters are placed one by one; kerning is lost,
  // but measuring adds up the same advances, so layout and drawing still agree.
  const advance = (grapheme: string) => ctx.measureText(grapheme).width + style.letterSpacing;
  return {
    measure: (text) => graphemes(text).reduce((sum, g) => sum + advance(g), 0),
    draw(pass, text, x, y) {
      let cursor = x;
      for (const grapheme of graphemes(text)) {
        paint(pass, grapheme, cursor, y);
        cursor += advance(grapheme);
      }
    },
  };
}

const DIGIT = /^\p{Nd}$/u;

/**
 * Digits in cells as wide as the widest digit, each centred in its cell (what OpenType's tnum
 * does, which canvas cannot ask a font for); other characters keep their own advances.
 */
function tabularPainter(
  ctx: Ctx2D,
  style: TextStyle,
  paint: (pass: 'fill' | 'stroke', text: string, x: number, y: number) => void,
): RunPainter {
  if (supportsLetterSpacing(ctx)) ctx.letterSpacing = '0px';
  const widths = new Map<string, number>();
  const width = (grapheme: string) => {
    let known = widths.get(grapheme);
    if (known === undefined) widths.set(grapheme, (known = ctx.measureText(grapheme).width));
    return known;
  };
  const cell = Math.max(...'0123456789'.split('').map(width));
  const advance = (grapheme: string) => (DIGIT.test(grapheme) ? cell : width(grapheme)) + style.letterSpacing;
  return {
    measure: (text) => graphemes(text).reduce((sum, g) => sum + advance(g), 0),
    draw(pass, text, x, y) {
      let cursor = x;
      for (const grapheme of graphemes(text)) {
        const inset = DIGIT.test(grapheme) ? (cell - width(grapheme)) / 2 : 0;
        paint(pass, grapheme, cursor + inset, y);
        cursor += advance(grapheme);
      }
    },
  };
}

interface Padding {
  x: number;
  y: number;
}

export function backgroundPadding(element: TextElement, env: DrawEnv, size: number): Padding {
  const background = element.background;
  if (!background) return { x: 0, y: 0 };
  const resolve = (length: TextElement['size'], em: number) =>
    length === undefined ? em * size : resolveLength(length, size, lengthContext(env));
  return {
    x: resolve(background.paddingX, DEFAULT_PADDING_X_EM),
    y: resolve(background.paddingY, DEFAULT_PADDING_Y_EM),
  };
}

/** The padding of a text's background box, in real pixels (none without a background). */
export function textPadding(element: TextElement, env: DrawEnv, overrides: StyleOverrides = {}): Padding {
  return backgroundPadding(element, env, textStyle(element, env, overrides).size);
}

function inset(box: Box, padding: Padding): Box {
  return {
    x: box.x + padding.x,
    y: box.y + padding.y,
    width: Math.max(0, box.width - 2 * padding.x),
    height: Math.max(0, box.height - 2 * padding.y),
  };
}

/** The text's layout in a box, with keyframed size/letterSpacing applied to placement. */
export interface TextElementLayout extends TextLayout {
  /** Where the lines are placed: the box less the background padding. */
  area: Box;
  /** Top of the text block (vertically centred in `area`). */
  top: number;
  style: TextStyle;
}

/**
 * Lays the element out in `box` (real pixels), measuring with `ctx`'s text engine. Used for drawing
 * and by checks that need to know whether the text fits.
 */
export function layoutTextElement(
  ctx: Ctx2D,
  element: TextElement,
  env: DrawEnv,
  box: Box,
  overrides: StyleOverrides = {},
): TextElementLayout {
  const base = textStyle(element, env, { tabularDigits: overrides.tabularDigits });
  const style =
    overrides.size === undefined && overrides.letterSpacing === undefined
      ? base
      : textStyle(element, env, overrides);
  const area = inset(box, backgroundPadding(element, env, base.size));
  const basePainter = runPainter(ctx, base);
  const breaks = breakLines({
    text: displayText(element),
    maxWidth: area.width,
    maxLines: element.maxLines,
    measure: basePainter.measure,
    letterSpacing: base.letterSpacing,
  });
  const painter = style === base ? basePainter : runPainter(ctx, style);
  const layout = placeLines(breaks, {
    width: area.width,
    align: element.align ?? 'center',
    lineHeight: style.lineHeight,
    measure: painter.measure,
    letterSpacing: style.letterSpacing,
    maxHeight: area.height,
  });
  return { ...layout, area, top: area.y + (area.height - layout.height) / 2, style };
}

/** Layout measures on a 1×1 surface kept per host, as it runs for every text element every frame. */
const measuringContext = perHost((env): Ctx2D => env.createSurface(1, 1).ctx);

/** How a text element's words measure as drawn, for code that breaks its lines itself (captions). */
export function wordMeasure(
  element: TextElement,
  env: DrawEnv,
): { measure: MeasureRun; letterSpacing: number; display: (text: string) => string } {
  const ctx = measuringContext(env);
  const style = textStyle(element, env);
  return {
    measure: (text) => runPainter(ctx, style).measure(text),
    letterSpacing: style.letterSpacing,
    display: (text) => displayText({ ...element, text }),
  };
}

/** Natural size in real pixels: the widest line (at most maxWidth) by all lines, plus background padding. */
export function measureText(
  element: TextElement,
  env: DrawEnv,
  maxWidth: number,
  overrides: StyleOverrides = {},
): { width: number; height: number } {
  const ctx = measuringContext(env);
  const style = textStyle(element, env);
  const padding = backgroundPadding(element, env, style.size);
  const wide = { x: 0, y: 0, width: Math.max(0, maxWidth), height: Infinity };
  const layout = layoutTextElement(ctx, element, env, wide, overrides);
  // Rounded up so that laying out again in the returned width breaks the lines the same way.
  return {
    width: Math.min(Math.max(0, maxWidth), Math.ceil(layout.width + 2 * padding.x)),
    height: Math.ceil(layout.height + 2 * padding.y),
  };
}
