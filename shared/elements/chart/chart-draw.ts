// The chart drawn from its geometry: gridlines under everything, then areas, bars, slices, lines and
// points, then the text. Every label is a text block (the one text drawing every element shares) and
// is reported to review like a counter's text.
import { arc, area } from 'd3-shape';
import type { Box, Ctx2D, DrawEnv } from '../../canvas/types.ts';
import { defaultFontWeight } from '../../fonts/fonts.ts';
import { resolveLength } from '../../layout/length.ts';
import type { ChartElement } from '../../spec/chart-element.ts';
import { canvasColor, contrastRatio, formatRgba, parseColor } from '../../spec/color.ts';
import type { TextElement } from '../../spec/text-element.ts';
import { chartBuild } from './chart-build.ts';
import { chartData, chartMoment } from './chart-data.ts';
import { chartFormat } from './chart-format.ts';
import { chartGeometry } from './chart-geometry.ts';
import type { ChartArea, ChartGeometry, ChartTextRole } from './chart-geometry.ts';
import { textBox } from './chart-label-box.ts';
import type { ElementDrawArgs } from '../definition.ts';
import { drawTextBlock } from '../text/text-draw.ts';
import { measureText } from '../text/text-measure.ts';

/** The smallest size review does not call too small on a phone (3 % of the frame's shorter side). */
export const DEFAULT_CHART_TEXT_SIZE = 34;
export const DEFAULT_CHART_COLOR = '#e2e8f0';
const DARK_LABEL = '#0f172a';
const LIGHT_LABEL = '#ffffff';
/** How strongly each role of text shows: ticks recede, values and the legend lead. */
const ROLE_ALPHA: Record<ChartTextRole, number> = { tick: 0.62, category: 0.85, legend: 0.95, value: 1 };
const ROLE_WEIGHT: Record<ChartTextRole, number> = { tick: 500, category: 600, legend: 600, value: 700 };
const GRID_ALPHA = 0.14;
const BASELINE_ALPHA = 0.42;
const AREA_TOP_ALPHA = 0.42;
const AREA_BOTTOM_ALPHA = 0.04;
/** WCAG 2 (1.4.3): 4.5:1 for text, 3:1 for large text; review's low_contrast holds labels to the same. */
const MIN_LABEL_CONTRAST = 4.5;
const MIN_LARGE_LABEL_CONTRAST = 3;
/** WCAG's large text on a phone in design pixels (24 CSS px, or 18.66 bold), as review measures it. */
const LARGE_LABEL_DESIGN_PX = 66;
const LARGE_BOLD_LABEL_DESIGN_PX = 52;
const CHART_HEIGHT_SHARE = 0.6;

export function chartTextSize(element: ChartElement, env: DrawEnv): number {
  return resolveLength(element.size ?? DEFAULT_CHART_TEXT_SIZE, env.size.height, {
    frame: env.size,
    scale: env.scale,
  });
}

function labelElement(
  element: ChartElement,
  env: DrawEnv,
  text: string,
  role: ChartTextRole,
  size: number,
  color: string,
): TextElement {
  const font = element.font ?? 'sans';
  return {
    type: 'text',
    text,
    font,
    // Text sizes are design pixels; the chart computes in real ones.
    size: size / env.scale,
    weight: font === 'display' ? defaultFontWeight(font) : ROLE_WEIGHT[role],
    color,
    align: 'center',
    maxLines: 1,
  };
}

const widths = new WeakMap<ChartElement, Map<string, number>>();
/** Tweened values write new labels every frame; past this the remembered widths start over. */
const MAX_REMEMBERED_WIDTHS = 2000;

function measurer(element: ChartElement, env: DrawEnv, size: number) {
  let known = widths.get(element);
  if (!known) widths.set(element, (known = new Map()));
  const cache = known;
  return (text: string, role: ChartTextRole) => {
    const key = `${role}|${size}|${text}`;
    let width = cache.get(key);
    if (width === undefined) {
      if (cache.size > MAX_REMEMBERED_WIDTHS) cache.clear();
      width = measureText(labelElement(element, env, text, role, size, '#fff'), env, Infinity).width;
      cache.set(key, width);
    }
    return width;
  };
}

/** The chart's shapes at `elementSeconds`, or undefined while its data file is not loaded. */
export function chartAt(
  element: ChartElement,
  env: DrawEnv,
  box: Box,
  elementSeconds: number,
): ChartGeometry | undefined {
  const data = chartData(element, (src) => env.media.dataText?.(src));
  if (!data) return undefined;
  const size = chartTextSize(element, env);
  return chartGeometry({
    element,
    moment: chartMoment(element, data, elementSeconds, env.fps),
    build: chartBuild(element, elementSeconds, env.fps),
    box,
    scale: env.scale,
    textSize: size,
    measure: measurer(element, env, size),
    format: chartFormat(element),
  });
}

function withAlpha(color: string, alpha: number): string {
  const rgba = parseColor(color);
  return rgba ? formatRgba({ ...rgba, a: rgba.a * alpha }) : canvasColor(color);
}

/** White or near-black on `fill`: white wherever it reaches the contrast text of this size needs. */
export function labelColorOn(fill: string, large = false): string {
  const rgba = parseColor(fill);
  if (!rgba) return LIGHT_LABEL;
  // White reads as the chart's voice; dark only where white would not be legible.
  const needed = large ? MIN_LARGE_LABEL_CONTRAST : MIN_LABEL_CONTRAST;
  return contrastRatio(parseColor(LIGHT_LABEL)!, { ...rgba, a: 1 }) >= needed ? LIGHT_LABEL : DARK_LABEL;
}

function isLargeLabel(label: TextElement): boolean {
  const size = typeof label.size === 'number' ? label.size : 0;
  return (
    size >= LARGE_LABEL_DESIGN_PX || ((label.weight ?? 400) >= 700 && size >= LARGE_BOLD_LABEL_DESIGN_PX)
  );
}

function drawGrid(ctx: Ctx2D, geometry: ChartGeometry, color: string, scale: number): void {
  if (geometry.chrome <= 0) return;
  ctx.save();
  ctx.globalAlpha *= geometry.chrome;
  ctx.lineWidth = Math.max(1, 1.5 * scale);
  for (const line of geometry.grid) {
    ctx.strokeStyle = withAlpha(color, line.baseline ? BASELINE_ALPHA : GRID_ALPHA);
    ctx.beginPath();
    ctx.moveTo(line.x1, line.y1);
    ctx.lineTo(line.x2, line.y2);
    ctx.stroke();
  }
  ctx.restore();
}

function drawArea(ctx: Ctx2D, shape: ChartArea, plot: Box): void {
  if (shape.revealX <= shape.x[0]! - 1) return;
  ctx.save();
  ctx.beginPath();
  ctx.rect(plot.x - 1, plot.y - 1, shape.revealX - plot.x + 1, plot.height + 2);
  ctx.clip();
  const gradient = ctx.createLinearGradient(0, plot.y, 0, plot.y + plot.height);
  gradient.addColorStop(0, withAlpha(shape.color, AREA_TOP_ALPHA));
  gradient.addColorStop(1, withAlpha(shape.color, AREA_BOTTOM_ALPHA));
  ctx.fillStyle = gradient;
  ctx.beginPath();
  area<number>()
    .x((index) => shape.x[index]!)
    .y0((index) => shape.bottom[index]!)
    .y1((index) => shape.top[index]!)
    .curve(shape.curve)
    .context(ctx)(shape.x.map((_, index) => index));
  ctx.fill();
  ctx.restore();
}

function drawShapes(ctx: Ctx2D, geometry: ChartGeometry): void {
  for (const shape of geometry.areas) drawArea(ctx, shape, geometry.plot);
  for (const bar of geometry.bars) {
    const limit = Math.min(bar.width / 2, bar.height);
    const sideLimit = Math.min(bar.height / 2, bar.width);
    const vertical = bar.radii[0] === bar.radii[1];
    ctx.fillStyle = canvasColor(bar.color);
    ctx.beginPath();
    ctx.roundRect(
      bar.x,
      bar.y,
      bar.width,
      bar.height,
      bar.radii.map((r) => Math.max(0, Math.min(r, vertical ? limit : sideLimit))),
    );
    ctx.fill();
  }
  if (geometry.center && geometry.slices.length > 0) {
    const { x, y } = geometry.center;
    ctx.save();
    ctx.translate(x, y);
    const generator = arc<(typeof geometry.slices)[number]>().context(ctx);
    for (const slice of geometry.slices) {
      ctx.fillStyle = canvasColor(slice.color);
      ctx.beginPath();
      generator.cornerRadius(slice.cornerRadius)(slice);
      ctx.fill();
    }
    ctx.restore();
  }
  ctx.lineJoin = 'round';
  ctx.lineCap = 'round';
  for (const line of geometry.lines) {
    if (line.points.length < 2) continue;
    ctx.strokeStyle = canvasColor(line.color);
    ctx.lineWidth = line.width;
    ctx.beginPath();
    ctx.moveTo(line.points[0]!.x, line.points[0]!.y);
    for (const point of line.points.slice(1)) ctx.lineTo(point.x, point.y);
    ctx.stroke();
  }
  for (const dot of geometry.dots) {
    if (dot.radius <= 0) continue;
    ctx.fillStyle = canvasColor(dot.color);
    ctx.beginPath();
    ctx.arc(dot.x, dot.y, dot.radius, 0, 2 * Math.PI);
    ctx.fill();
  }
}

function drawTexts(args: ElementDrawArgs<ChartElement>, geometry: ChartGeometry, color: string): void {
  const { ctx, element, env } = args;
  const size = chartTextSize(element, env);
  for (const swatch of geometry.swatches) {
    ctx.save();
    ctx.globalAlpha *= geometry.chrome;
    ctx.fillStyle = canvasColor(swatch.color);
    ctx.beginPath();
    ctx.roundRect(swatch.x, swatch.y, swatch.width, swatch.height, swatch.width * 0.28);
    ctx.fill();
    ctx.restore();
  }
  for (const text of geometry.texts) {
    if (text.opacity <= 0) continue;
    const shown = text.opacity * (text.on ? 1 : ROLE_ALPHA[text.role]);
    const plain = labelElement(element, env, text.text, text.role, text.size ?? size, color);
    const label = text.on ? { ...plain, color: labelColorOn(text.on, isLargeLabel(plain)) } : plain;
    const box = textBox(text, size);
    ctx.save();
    ctx.globalAlpha *= shown;
    // Review judges labels once they are in: one still fading in is not yet being read. A label
    // inside a bar or slice is read against that fill, not against what lies behind the chart.
    if (text.opacity >= 1)
      args.observeText?.(
        text.on ? { ...label, background: { color: text.on, paddingX: 0, paddingY: 0 } } : label,
        box,
      );
    drawTextBlock(ctx, env, label, box);
    ctx.restore();
  }
}

export function drawChart(args: ElementDrawArgs<ChartElement>): void {
  const { ctx, element, env, box, state, time } = args;
  const geometry = chartAt(element, env, box, time.elementSeconds);
  if (!geometry) return;
  const color =
    typeof state.props.color === 'string' ? state.props.color : (element.color ?? DEFAULT_CHART_COLOR);
  ctx.save();
  drawGrid(ctx, geometry, color, env.scale);
  drawShapes(ctx, geometry);
  drawTexts(args, geometry, color);
  ctx.restore();
}

/**
 * Fills the width it is given and 60% of the height: a chart reads large or not at all. Given only
 * a height (`maxHeight` is then that height), it still fills the width rather than keep a ratio.
 */
export function chartIntrinsicSize(
  element: ChartElement,
  maxWidth: number,
  maxHeight: number,
): { width: number; height: number } {
  return {
    width: maxWidth,
    height: element.height === undefined ? maxHeight * CHART_HEIGHT_SHARE : maxHeight,
  };
}
