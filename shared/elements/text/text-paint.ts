// Painting a laid-out text block: line backgrounds, words placed on their baselines (risen, scaled,
// swept), outline under fill, the shadow under every glyph, and the typing cursor. Groups of draws
// that need one opacity or one shadow go through an offscreen layer in device pixels.
import { deviceRect } from '../../canvas/device-rect.ts';
import type { DeviceRect } from '../../canvas/device-rect.ts';
import { roundedRectPath } from '../../canvas/paint.ts';
import type { Box, Ctx2D, DrawEnv } from '../../canvas/types.ts';
import { resolveLength } from '../../layout/length.ts';
import { canvasColor, formatRgba, parseColor } from '../../spec/color.ts';
import type { TextElement } from '../../spec/text-element.ts';
import type { CursorPlacement, WordLook, WordPlacement } from './text-effects.ts';
import type { PlacedLine } from './text-layout.ts';
import { backgroundPadding, lengthContext, runPainter } from './text-measure.ts';
import type { RunPainter, TextElementLayout, TextStyle } from './text-measure.ts';

/** Background corners when no radius is given: slightly soft, like caption highlight boxes. */
const DEFAULT_RADIUS_EM = 0.12;
/** How far below its place a word starts when revealed word by word. */
const WORD_RISE_EM = 0.3;
/** A word's optical centre above its baseline: where a scaled word grows from. */
const WORD_CENTRE_EM = 0.35;
/** A bar cursor, like a text field's. */
const CURSOR_GAP_EM = 0.06;
const CURSOR_WIDTH_EM = 0.07;
const CURSOR_ASCENT_EM = 0.8;
const CURSOR_DESCENT_EM = 0.14;
/** Room around glyph boxes for italics, accents and descenders that reach outside the line box. */
const GLYPH_OVERHANG_EM = 0.5;

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

export function drawLineBackgrounds(
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
export function deviceShadow(
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

export interface GlyphPaint {
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

export function placeWords(
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

/**
 * Where a laid-out block's glyphs can reach: its lines with room for overhanging glyphs, a word's
 * rise, the outline, highlighter markers (0.12 em wide of their words) and the cursor (0.13 em past
 * its line), then the line backgrounds' padding.
 */
export function blockInk(layout: TextElementLayout, strokeWidth: number, padding: number): Box {
  return blockArea(layout, strokeWidth + (GLYPH_OVERHANG_EM + WORD_RISE_EM) * layout.style.size + padding);
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
export function drawWords(
  ctx: Ctx2D,
  env: DrawEnv,
  words: readonly WordPlacement[],
  paint: GlyphPaint,
): void {
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
export function drawShadow(
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
export function makeRoomForScaledWords(words: readonly WordPlacement[]): WordPlacement[] {
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

export function drawCursor(ctx: Ctx2D, cursor: CursorPlacement, paint: GlyphPaint): void {
  const size = paint.style.size;
  ctx.fillStyle = canvasColor(cursor.color ?? paint.color);
  ctx.fillRect(
    cursor.x + CURSOR_GAP_EM * size,
    cursor.baseline - CURSOR_ASCENT_EM * size,
    Math.max(1, CURSOR_WIDTH_EM * size),
    (CURSOR_ASCENT_EM + CURSOR_DESCENT_EM) * size,
  );
}
