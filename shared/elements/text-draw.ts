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
import { formatRgba, parseColor, canvasColor } from '../spec/color.ts';
import type { LengthContext } from '../layout/length.ts';
import { defaultFontWeight } from '../fonts/fonts.ts';
import type { ElementDrawArgs } from './definition.ts';
import { breakLines, graphemes, placeLines } from './text-layout.ts';
import type { MeasureRun, PlacedLine, PlacedWord, TextLayout } from './text-layout.ts';
import type { TextElement } from '../spec/text-element.ts';

const DEFAULT_SIZE = 72;
const DEFAULT_LINE_HEIGHT = 1.15;
const DEFAULT_PADDING_X_EM = 0.5;
const DEFAULT_PADDING_Y_EM = 0.25;
/** Background corners when no radius is given: slightly soft, like caption highlight boxes. */
const DEFAULT_RADIUS_EM = 0.12;
/** How far below its place a word starts when revealed word by word. */
const WORD_RISE_EM = 0.3;
/** Room around glyph boxes for italics, accents and descenders that reach outside the line box. */
const GLYPH_OVERHANG_EM = 0.5;

interface TextStyle {
  font: string;
  size: number;
  lineHeight: number;
  letterSpacing: number;
}

interface StyleOverrides {
  size?: number | string | undefined;
  letterSpacing?: number | string | undefined;
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
  const base = textStyle(element, env);
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

/** Natural size in real pixels: the widest line (at most maxWidth) by all lines, plus background padding. */
export function measureText(
  element: TextElement,
  env: DrawEnv,
  maxWidth: number,
): { width: number; height: number } {
  const ctx = measuringContext(env);
  const style = textStyle(element, env);
  const padding = backgroundPadding(element, env, style.size);
  const wide = { x: 0, y: 0, width: Math.max(0, maxWidth), height: Infinity };
  const layout = layoutTextElement(ctx, element, env, wide);
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

interface WordPlacement {
  word: PlacedWord;
  x: number;
  baseline: number;
  /** Reveal progress: 1 fully drawn, 0 not drawn. */
  progress: number;
}

interface GlyphPaint {
  style: TextStyle;
  color: string;
  stroke: { color: string; width: number; dash: number[] } | undefined;
}

function placeWords(ctx: Ctx2D, layout: TextElementLayout, reveal: ((index: number) => number) | undefined) {
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
        targetPainter.draw('stroke', placed.word.text, placed.x, placed.baseline);
      }
      target.setLineDash([]);
      if (!knockOut) return;
      target.globalCompositeOperation = 'destination-out';
      target.fillStyle = '#000';
      target.globalAlpha = 1;
      for (const placed of words) targetPainter.draw('fill', placed.word.text, placed.x, placed.baseline);
      target.globalCompositeOperation = 'source-over';
    };
    const rect =
      env && !withAlpha && (parseColor(paint.color)?.a ?? 0) < 1
        ? deviceRect(ctx, wordsArea(words, paint.style, glyphMargin(paint)))
        : undefined;
    if (env && rect) drawThroughLayer(ctx, env, rect, (layer) => strokeWords(layer, true), 1);
    else strokeWords(ctx, false);
  }
  ctx.fillStyle = canvasColor(paint.color);
  for (const placed of words) {
    ctx.globalAlpha = withAlpha ? baseAlpha * placed.progress : baseAlpha;
    painter.draw('fill', placed.word.text, placed.x, placed.baseline);
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

export function drawText({ ctx, element, box, env, state }: ElementDrawArgs<TextElement>): void {
  ctx.save();
  const layout = layoutTextElement(ctx, element, env, box, {
    size: state.props.size,
    letterSpacing: state.props.letterSpacing,
  });
  drawLineBackgrounds(ctx, element, env, layout);
  const stroke = element.stroke;
  const paint: GlyphPaint = {
    style: layout.style,
    color: typeof state.props.color === 'string' ? state.props.color : (element.color ?? '#ffffff'),
    stroke: stroke && {
      color: stroke.color,
      width: resolveLength(stroke.width, layout.style.size, lengthContext(env)),
      dash: (stroke.dash ?? []).map((d) => d * env.scale),
    },
  };
  runPainter(ctx, layout.style);
  const words = placeWords(ctx, layout, state.wordProgress).filter((placed) => placed.progress > 0);
  const shadow = deviceShadow(ctx, element, env, layout.style.size);
  if (shadow) drawShadow(ctx, env, layout, words, paint, shadow);
  drawWords(ctx, env, words, paint);
  ctx.restore();
}
