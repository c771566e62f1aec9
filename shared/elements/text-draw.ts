// Text measuring and drawing against the standard Canvas 2D API.
//
// Choices that shape the look:
// - Lines sit in line boxes of `lineHeight` × size, glyphs centred in them the CSS way (half the
//   leading above, half below), and the block is centred vertically in the element box.
// - A stroke is an outline under the fill: it is drawn twice as wide as asked, so the visible
//   outline outside the glyph is exactly `stroke.width`, with round joins.
// - A background is drawn per line (caption-highlight style): each line gets its own box (or pill)
//   hugging its width plus padding, and all boxes are filled as one path, so where the boxes of
//   neighbouring lines overlap the color is not doubled. At its natural size, a single line's
//   background is exactly the element box.
// - Keyframed size and letter spacing change the drawing but not the line breaks, which stay those
//   of the element's own values: text that grows or tracks out spreads from its alignment edge
//   instead of re-wrapping mid-animation.
// - The shadow is cast by outline and fill as one shape, and lies under all the glyphs.
import { perHost } from '../canvas/host-cache.ts';
import { roundedRectPath } from '../canvas/paint.ts';
import type { Box, Ctx2D, DrawEnv } from '../canvas/types.ts';
import { resolveLength } from '../layout/length.ts';
import { contrastRatio, formatRgba, parseColor, canvasColor } from '../spec/color.ts';
import type { LengthContext } from '../layout/length.ts';
import { defaultFontWeight } from '../fonts/fonts.ts';
import type { ElementDrawArgs } from './definition.ts';
import { breakLines, placeLines } from './text-layout.ts';
import { graphemes } from '../spec/text-units.ts';
import type { MeasureRun, PlacedLine, TextLayout } from './text-layout.ts';
import type { TextElement } from '../spec/text-element.ts';
import type { TypingState } from '../animation/state.ts';
import { easingFunction } from '../animation/easing.ts';
import { timeToSeconds } from '../spec/time.ts';
import { markerRects, spanRanges, sweptRects, typedWords } from './text-effects.ts';
import type { CursorPlacement, WordLook, WordPlacement } from './text-effects.ts';

const DEFAULT_SIZE = 72;
const DEFAULT_LINE_HEIGHT = 1.15;
const DEFAULT_PADDING_X_EM = 0.5;
const DEFAULT_PADDING_Y_EM = 0.25;
/** Background corners when no radius is given: slightly soft, like caption highlight boxes. */
const DEFAULT_RADIUS_EM = 0.12;
/** How far below its place a word starts when revealed word by word. */
const WORD_RISE_EM = 0.3;
/** A word's optical centre above its baseline: where a scaled word grows from. */
const WORD_CENTRE_EM = 0.35;
/** A highlighter marker: from just over the x-height to just under the baseline, a little wider than the words. */
const MARKER_TOP_EM = 0.82;
const MARKER_BOTTOM_EM = 0.16;
const MARKER_PAD_X_EM = 0.12;
const MARKER_RADIUS_EM = 0.1;
const DEFAULT_MARKER_COLOR = '#fde047';
const DEFAULT_MARKER_START_SECONDS = 0.3;
const DEFAULT_MARKER_SWEEP_SECONDS = 0.5;
/** A bar cursor, like a text field's. */
const CURSOR_GAP_EM = 0.06;
const CURSOR_WIDTH_EM = 0.07;
const CURSOR_ASCENT_EM = 0.8;
const CURSOR_DESCENT_EM = 0.14;
/** Room around glyph boxes for italics, accents and descenders that reach outside the line box. */
const GLYPH_OVERHANG_EM = 0.5;

interface TextStyle {
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

function lengthContext(env: DrawEnv): LengthContext {
  return { frame: env.size, scale: env.scale };
}

function cssFamily(family: string): string {
  return `"${family.replace(/["\\]/g, '')}"`;
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
    font: `${element.italic ? 'italic ' : ''}${weight} ${Number(size.toFixed(3))}px ${cssFamily(env.fontFamily(family))}`,
    size,
    lineHeight: size * (element.lineHeight ?? DEFAULT_LINE_HEIGHT),
    letterSpacing: spacingEm * size,
    tabularDigits: overrides.tabularDigits === true,
  };
}

function displayText(element: TextElement): string {
  if (element.transform === 'uppercase') return element.text.toUpperCase();
  if (element.transform === 'lowercase') return element.text.toLowerCase();
  return element.text;
}

/** Measures and draws runs in one style; the only place that knows how letter spacing is applied. */
interface RunPainter {
  measure: MeasureRun;
  draw(pass: 'fill' | 'stroke', text: string, x: number, y: number): void;
}

function supportsLetterSpacing(ctx: Ctx2D): boolean {
  return typeof (ctx as { letterSpacing?: unknown }).letterSpacing === 'string';
}

/** Sets the style on `ctx` and returns how to measure and draw runs with it. */
function runPainter(ctx: Ctx2D, style: TextStyle): RunPainter {
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

function backgroundPadding(element: TextElement, env: DrawEnv, size: number): Padding {
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

/** Distance from a line box's top to its baseline, splitting the leading evenly above and below. */
function baselineOffset(ctx: Ctx2D, style: TextStyle): number {
  const metrics = ctx.measureText('Hg');
  const ascent = Number.isFinite(metrics.fontBoundingBoxAscent)
    ? metrics.fontBoundingBoxAscent
    : 0.8 * style.size;
  const descent = Number.isFinite(metrics.fontBoundingBoxDescent)
    ? metrics.fontBoundingBoxDescent
    : 0.2 * style.size;
  return (style.lineHeight - (ascent + descent)) / 2 + ascent;
}

function drawLineBackgrounds(
  ctx: Ctx2D,
  element: TextElement,
  env: DrawEnv,
  layout: TextElementLayout,
): void {
  const background = element.background;
  if (!background) return;
  const padding = backgroundPadding(element, env, layout.style.size);
  ctx.beginPath();
  for (const line of layout.lines) {
    if (line.width <= 0) continue;
    const box = {
      x: layout.area.x + line.x - padding.x,
      y: layout.top + line.y - padding.y,
      width: line.width + 2 * padding.x,
      height: layout.lineHeight + 2 * padding.y,
    };
    const radius =
      background.radius === 'pill'
        ? box.height / 2
        : background.radius === undefined
          ? DEFAULT_RADIUS_EM * layout.style.size
          : resolveLength(background.radius, box.height, lengthContext(env));
    roundedRectPath(ctx, box, radius);
  }
  ctx.fillStyle = canvasColor(background.color);
  ctx.fill();
}

interface DeviceShadow {
  /** The shadow color made opaque; its alpha is applied when the shadow layer is composited. */
  opaqueColor: string;
  alpha: number;
  blur: number;
  x: number;
  y: number;
}

/** Lengths on the element scale with its transform; canvas shadow values are in device pixels. */
function deviceShadow(
  ctx: Ctx2D,
  element: TextElement,
  env: DrawEnv,
  size: number,
): DeviceShadow | undefined {
  const shadow = element.textShadow;
  const color = shadow && parseColor(shadow.color);
  if (!shadow || !color || color.a <= 0) return undefined;
  const m = ctx.getTransform();
  const scale = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c));
  const resolve = (length: TextElement['size']) =>
    length === undefined ? 0 : resolveLength(length, size, lengthContext(env)) * scale;
  return {
    opaqueColor: formatRgba({ ...color, a: 1 }),
    alpha: color.a,
    blur: resolve(shadow.blur),
    x: resolve(shadow.x),
    y: resolve(shadow.y),
  };
}

interface DeviceRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The device-pixel bounds of a box under the current transform, kept to the canvas. */
function deviceRect(ctx: Ctx2D, area: Box, shift = { x: 0, y: 0, grow: 0 }): DeviceRect | undefined {
  const m = ctx.getTransform();
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [area.x, area.y],
    [area.x + area.width, area.y],
    [area.x, area.y + area.height],
    [area.x + area.width, area.y + area.height],
  ] as const) {
    xs.push(m.a * x + m.c * y + m.e + shift.x);
    ys.push(m.b * x + m.d * y + m.f + shift.y);
  }
  const canvas = (ctx as { canvas?: { width: number; height: number } }).canvas;
  const rect = {
    x0: Math.floor(Math.max(Math.min(...xs) - shift.grow, canvas ? 0 : -Infinity)),
    y0: Math.floor(Math.max(Math.min(...ys) - shift.grow, canvas ? 0 : -Infinity)),
    x1: Math.ceil(Math.min(Math.max(...xs) + shift.grow, canvas?.width ?? Infinity)),
    y1: Math.ceil(Math.min(Math.max(...ys) + shift.grow, canvas?.height ?? Infinity)),
  };
  return rect.x1 > rect.x0 && rect.y1 > rect.y0 ? rect : undefined;
}

/**
 * Paints into an offscreen layer covering `rect` in device pixels, with the same transform, then
 * composites it with an alpha: how a group of draws (outline + fill) gets one opacity. (Canvas
 * shadows on drawImage are very slow in Skia, so layers never carry a shadow.)
 */
function drawThroughLayer(
  ctx: Ctx2D,
  env: DrawEnv,
  rect: DeviceRect,
  paint: (layer: Ctx2D) => void,
  alpha: number,
): void {
  const m = ctx.getTransform();
  const layer = env.createSurface(rect.x1 - rect.x0, rect.y1 - rect.y0);
  layer.ctx.setTransform(m.a, m.b, m.c, m.d, m.e - rect.x0, m.f - rect.y0);
  paint(layer.ctx);
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.globalAlpha *= alpha;
  ctx.drawImage(layer.canvas, rect.x0, rect.y0);
  ctx.restore();
}

interface GlyphPaint {
  style: TextStyle;
  color: string;
  stroke: { color: string; width: number; dash: number[] } | undefined;
  /** Casting a shadow: every word in the paint's one colour, whatever its own look. */
  caster?: boolean;
}

/** Draws one word, scaled about its centre when its look says so. */
function drawPlaced(
  target: Ctx2D,
  painter: RunPainter,
  pass: 'fill' | 'stroke',
  placed: WordPlacement,
  style: TextStyle,
): void {
  const scale = placed.look?.scale ?? 1;
  if (scale === 1) {
    painter.draw(pass, placed.word.text, placed.x, placed.baseline);
    return;
  }
  const cx = placed.x + placed.word.width / 2;
  const cy = placed.baseline - WORD_CENTRE_EM * style.size;
  target.save();
  target.translate(cx, cy);
  target.scale(scale, scale);
  target.translate(-cx, -cy);
  painter.draw(pass, placed.word.text, placed.x, placed.baseline);
  target.restore();
}

/** Karaoke: the word again in the sweep colour, cut to the part swept so far. */
function drawSweep(ctx: Ctx2D, painter: RunPainter, placed: WordPlacement, style: TextStyle): void {
  const sweep = placed.look?.sweep;
  if (!sweep || sweep.progress <= 0) return;
  ctx.save();
  ctx.beginPath();
  const reach = style.lineHeight;
  ctx.rect(
    placed.x - reach,
    placed.baseline - 2 * reach,
    reach + placed.word.width * Math.min(1, sweep.progress),
    4 * reach,
  );
  ctx.clip();
  ctx.fillStyle = canvasColor(sweep.color);
  drawPlaced(ctx, painter, 'fill', placed, style);
  ctx.restore();
}

function placeWords(
  ctx: Ctx2D,
  layout: TextElementLayout,
  reveal: ((index: number) => number) | undefined,
  look: ((index: number) => WordLook | undefined) | undefined,
): WordPlacement[] {
  const baseline = baselineOffset(ctx, layout.style);
  const rise = WORD_RISE_EM * layout.style.size;
  return layout.lines.flatMap((line: PlacedLine) =>
    line.words.map((word): WordPlacement => {
      const progress = reveal ? Math.min(1, Math.max(0, reveal(word.index))) : 1;
      return {
        word,
        x: layout.area.x + line.x + word.x,
        baseline: layout.top + line.y + baseline + (1 - progress) * rise,
        progress,
        look: look?.(word.index),
      };
    }),
  );
}

/**
 * Outline passes first, then fills, so no word's outline covers a neighbour's fill. Under a fill
 * that is not opaque the outline would show inside the glyphs, and with it every contour the font
 * draws overlapping (Inter's heavy t, e, d): the outline is then drawn in a layer with the glyphs
 * knocked out of it, so only the part outside the glyph shows, as design tools draw an outline.
 */
function paintWords(
  ctx: Ctx2D,
  words: readonly WordPlacement[],
  paint: GlyphPaint,
  withAlpha: boolean,
  env?: DrawEnv,
): void {
  const painter = runPainter(ctx, paint.style);
  const baseAlpha = ctx.globalAlpha;
  const stroke = paint.stroke;
  if (stroke) {
    const strokeWords = (target: Ctx2D, knockOut: boolean) => {
      const targetPainter = target === ctx ? painter : runPainter(target, paint.style);
      target.strokeStyle = canvasColor(stroke.color);
      target.lineWidth = 2 * stroke.width;
      target.lineJoin = 'round';
      target.setLineDash(stroke.dash);
      for (const placed of words) {
        target.globalAlpha = withAlpha ? baseAlpha * placed.progress : knockOut ? 1 : baseAlpha;
        drawPlaced(target, targetPainter, 'stroke', placed, paint.style);
      }
      target.setLineDash([]);
      if (!knockOut) return;
      target.globalCompositeOperation = 'destination-out';
      target.fillStyle = '#000';
      target.globalAlpha = 1;
      for (const placed of words) drawPlaced(target, targetPainter, 'fill', placed, paint.style);
      target.globalCompositeOperation = 'source-over';
    };
    const rect =
      env && !withAlpha && (parseColor(paint.color)?.a ?? 0) < 1
        ? deviceRect(ctx, wordsArea(words, paint.style, glyphMargin(paint)))
        : undefined;
    if (env && rect) drawThroughLayer(ctx, env, rect, (layer) => strokeWords(layer, true), 1);
    else strokeWords(ctx, false);
  }
  const fill = canvasColor(paint.color);
  for (const placed of words) {
    ctx.globalAlpha = withAlpha ? baseAlpha * placed.progress : baseAlpha;
    const own = paint.caster ? undefined : placed.look?.color;
    ctx.fillStyle = own === undefined ? fill : canvasColor(own);
    drawPlaced(ctx, painter, 'fill', placed, paint.style);
    if (!paint.caster) drawSweep(ctx, painter, placed, paint.style);
  }
  ctx.globalAlpha = baseAlpha;
}

/** The box around every word given, outline and rise included. */
function wordsArea(words: readonly WordPlacement[], style: TextStyle, margin: number): Box {
  const boxes = words.map((placed) => wordArea(placed, style, margin));
  const x = Math.min(...boxes.map((b) => b.x));
  const y = Math.min(...boxes.map((b) => b.y));
  return {
    x,
    y,
    width: Math.max(...boxes.map((b) => b.x + b.width)) - x,
    height: Math.max(...boxes.map((b) => b.y + b.height)) - y,
  };
}

function glyphMargin(paint: GlyphPaint): number {
  return (paint.stroke?.width ?? 0) + (GLYPH_OVERHANG_EM + WORD_RISE_EM) * paint.style.size;
}

function wordArea(placed: WordPlacement, style: TextStyle, margin: number): Box {
  return {
    x: placed.x - margin,
    y: placed.baseline - style.lineHeight - margin,
    width: placed.word.width + 2 * margin,
    height: 2 * style.lineHeight + 2 * margin,
  };
}

function blockArea(layout: TextElementLayout, margin: number): Box {
  const left = Math.min(...layout.lines.map((line) => line.x));
  return {
    x: layout.area.x + left - margin,
    y: layout.top - margin,
    width: layout.width + 2 * margin,
    height: layout.height + 2 * margin,
  };
}

/**
 * Words with their outline under their fill. A fading outlined word is drawn whole and then faded,
 * so its outline never shows through its own half-transparent fill.
 */
function drawWords(ctx: Ctx2D, env: DrawEnv, words: readonly WordPlacement[], paint: GlyphPaint): void {
  if (!paint.stroke) {
    paintWords(ctx, words, paint, true);
    return;
  }
  paintWords(
    ctx,
    words.filter((placed) => placed.progress >= 1),
    paint,
    false,
    env,
  );
  const margin = glyphMargin(paint);
  for (const placed of words) {
    if (placed.progress <= 0 || placed.progress >= 1) continue;
    const rect = deviceRect(ctx, wordArea(placed, paint.style, margin));
    if (rect)
      drawThroughLayer(
        ctx,
        env,
        rect,
        (layer) => paintWords(layer, [placed], paint, false, env),
        placed.progress,
      );
  }
}

/**
 * The shadow of all the words, drawn before any of them so it lies under every glyph. It is cast
 * by outline and fill together in an opaque color into a layer that then gets the shadow's alpha,
 * so the two shapes' shadows do not stack. The glyphs themselves are drawn outside the layer and
 * only their shadows, offset back in device space, land in it.
 */
function drawShadow(
  ctx: Ctx2D,
  env: DrawEnv,
  layout: TextElementLayout,
  words: readonly WordPlacement[],
  paint: GlyphPaint,
  shadow: DeviceShadow,
): void {
  const reach = { x: shadow.x, y: shadow.y, grow: 2 * shadow.blur };
  const rect = deviceRect(ctx, blockArea(layout, glyphMargin(paint)), reach);
  if (!rect) return;
  const caster: GlyphPaint = {
    ...paint,
    color: '#000',
    stroke: paint.stroke && { ...paint.stroke, color: '#000' },
    caster: true,
  };
  drawThroughLayer(
    ctx,
    env,
    rect,
    (layer) => {
      const away = 2 * (rect.x1 - rect.x0) + Math.abs(shadow.x) + 4 * shadow.blur + 100;
      const m = layer.getTransform();
      layer.setTransform(m.a, m.b, m.c, m.d, m.e + away, m.f);
      layer.shadowColor = shadow.opaqueColor;
      layer.shadowBlur = shadow.blur;
      layer.shadowOffsetX = shadow.x - away;
      layer.shadowOffsetY = shadow.y;
      paintWords(layer, words, caster, true);
    },
    shadow.alpha,
  );
}

/**
 * A word drawn larger than laid out pushes its neighbours on the line apart by half its growth each
 * way, so it never overlaps them and a centred line stays centred.
 */
function makeRoomForScaledWords(words: readonly WordPlacement[]): WordPlacement[] {
  const shifts = words.map(() => 0);
  words.forEach((grown, i) => {
    const extra = ((grown.look?.scale ?? 1) - 1) * grown.word.width;
    if (extra === 0) return;
    words.forEach((other, j) => {
      if (j === i || other.baseline !== grown.baseline) return;
      shifts[j]! += ((j < i ? -1 : 1) * extra) / 2;
    });
  });
  return words.map((placed, i) => (shifts[i] === 0 ? placed : { ...placed, x: placed.x + shifts[i]! }));
}

/** A marker span resolved for one frame: what it covers, its colours and how far it has swept. */
export interface MarkerSpan {
  words?: number | readonly [number, number] | undefined;
  match?: string | undefined;
  color: string;
  /** The covered words' colour once the sweep passes them. */
  textColor: string | undefined;
  progress: number;
}

/** Everything that changes how a text block draws besides its own fields. */
export interface TextEffects {
  /** Keyframed size and letter spacing, and tabular digits. */
  overrides?: StyleOverrides;
  /** wordByWord: each word's reveal, 0..1. */
  wordProgress?: ((index: number) => number) | undefined;
  typing?: TypingState | undefined;
  markers?: readonly MarkerSpan[] | undefined;
  /** A word's own colour, scale or sweep (captions). */
  wordLook?: ((index: number) => WordLook | undefined) | undefined;
}

/** The band of a line a marker covers: most of the em box, a little over the glyphs. */
function markerBand(style: TextStyle): (baseline: number) => { top: number; height: number } {
  return (baseline) => ({
    top: baseline - MARKER_TOP_EM * style.size,
    height: (MARKER_TOP_EM + MARKER_BOTTOM_EM) * style.size,
  });
}

function drawMarkers(
  ctx: Ctx2D,
  text: string,
  words: readonly WordPlacement[],
  markers: readonly MarkerSpan[],
  painter: RunPainter,
  style: TextStyle,
): Map<number, string> {
  const textColors = new Map<number, string>();
  for (const marker of markers) {
    const rects = markerRects(
      words,
      spanRanges(text, marker),
      painter.measure,
      markerBand(style),
      MARKER_PAD_X_EM * style.size,
    );
    const swept = sweptRects(rects, marker.progress);
    if (swept.length === 0) continue;
    ctx.beginPath();
    for (const rect of swept) roundedRectPath(ctx, rect, MARKER_RADIUS_EM * style.size);
    ctx.fillStyle = canvasColor(marker.color);
    ctx.fill();
    const textColor = marker.textColor ?? readableOn(marker.color);
    // A word takes the marker's text colour once the sweep has passed its middle.
    swept.forEach((rect, i) => {
      const full = rects[i]!;
      for (const index of rect.words) {
        const word = words.find((placed) => placed.word.index === index);
        if (!word) continue;
        const middle = word.x + word.word.width / 2;
        if (rect.x + rect.width >= middle || rect.width >= full.width) textColors.set(index, textColor);
      }
    });
  }
  return textColors;
}

const BLACK = { r: 0, g: 0, b: 0, a: 1 };
const WHITE = { r: 255, g: 255, b: 255, a: 1 };

/** Black or white, whichever contrasts more with the colour. */
function readableOn(color: string): string {
  const rgba = parseColor(color);
  if (!rgba) return '#000000';
  return contrastRatio(rgba, BLACK) >= contrastRatio(rgba, WHITE) ? '#000000' : '#ffffff';
}

function drawCursor(ctx: Ctx2D, cursor: CursorPlacement, paint: GlyphPaint): void {
  const size = paint.style.size;
  ctx.fillStyle = canvasColor(cursor.color ?? paint.color);
  ctx.fillRect(
    cursor.x + CURSOR_GAP_EM * size,
    cursor.baseline - CURSOR_ASCENT_EM * size,
    Math.max(1, CURSOR_WIDTH_EM * size),
    (CURSOR_ASCENT_EM + CURSOR_DESCENT_EM) * size,
  );
}

/**
 * Draws a text element's lines in `box` with the given effects: the one drawing of text that text,
 * counters and captions share, so they look alike and review reads all of them the same way.
 */
export function drawTextBlock(
  ctx: Ctx2D,
  env: DrawEnv,
  element: TextElement,
  box: Box,
  effects: TextEffects = {},
): void {
  ctx.save();
  const layout = layoutTextElement(ctx, element, env, box, effects.overrides);
  drawLineBackgrounds(ctx, element, env, layout);
  const stroke = element.stroke;
  const paint: GlyphPaint = {
    style: layout.style,
    color: element.color ?? '#ffffff',
    stroke: stroke && {
      color: stroke.color,
      width: resolveLength(stroke.width, layout.style.size, lengthContext(env)),
      dash: (stroke.dash ?? []).map((d) => d * env.scale),
    },
  };
  const painter = runPainter(ctx, layout.style);
  const placed = placeWords(ctx, layout, effects.wordProgress, effects.wordLook);
  let words = effects.wordLook ? makeRoomForScaledWords(placed) : placed;
  let cursor: CursorPlacement | undefined;
  if (effects.typing) ({ words, cursor } = typedWords(words, effects.typing, painter.measure));
  if (effects.markers?.length) {
    // Markers lie under the whole text as laid out, so they cover words still to be typed as well.
    const colors = drawMarkers(ctx, displayText(element), placed, effects.markers, painter, layout.style);
    if (colors.size > 0) {
      words = words.map((word) =>
        colors.has(word.word.index) && word.look?.color === undefined
          ? { ...word, look: { ...word.look, color: colors.get(word.word.index) } }
          : word,
      );
    }
  }
  words = words.filter((word) => word.progress > 0);
  const shadow = deviceShadow(ctx, element, env, layout.style.size);
  if (shadow) drawShadow(ctx, env, layout, words, paint, shadow);
  drawWords(ctx, env, words, paint);
  if (cursor) drawCursor(ctx, cursor, paint);
  ctx.restore();
}

function markersAt(element: TextElement, elementSeconds: number, fps: number): MarkerSpan[] | undefined {
  return element.highlight?.map((span) => {
    const start = span.start === undefined ? DEFAULT_MARKER_START_SECONDS : timeToSeconds(span.start, fps);
    const duration =
      span.duration === undefined ? DEFAULT_MARKER_SWEEP_SECONDS : timeToSeconds(span.duration, fps);
    const linear = duration <= 0 ? (elementSeconds >= start ? 1 : 0) : (elementSeconds - start) / duration;
    return {
      words: span.words,
      match: span.match,
      color: span.color ?? DEFAULT_MARKER_COLOR,
      textColor: span.textColor,
      progress: easingFunction('inOut')(Math.min(1, Math.max(0, linear))),
    };
  });
}

export function drawText({ ctx, element, box, env, state, time }: ElementDrawArgs<TextElement>): void {
  const color = typeof state.props.color === 'string' ? state.props.color : element.color;
  drawTextBlock(ctx, env, color === element.color ? element : { ...element, color }, box, {
    overrides: { size: state.props.size, letterSpacing: state.props.letterSpacing },
    wordProgress: state.wordProgress,
    typing: state.typing,
    markers: markersAt(element, time.elementSeconds, env.fps),
  });
}
