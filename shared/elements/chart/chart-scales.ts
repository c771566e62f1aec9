// What every chart kind with axes shares: the value domain (stacked or not, tweening between
// updates) rounded to d3's nice ticks, the tick labels and gridlines, and the stacks.
import { scaleLinear } from 'd3-scale';
import type { ScaleLinear } from 'd3-scale';
import { stack, stackOffsetDiverging, stackOrderNone } from 'd3-shape';
import type { Box } from '../../canvas/types.ts';
import type { ChartElement } from '../../spec/chart-element.ts';
import type { ChartData } from './chart-data.ts';
import { isRadial } from './chart-data.ts';
import type { ChartGeometry, ChartGeometryInput } from './chart-shapes.ts';

export const DEFAULT_TICKS = 5;
export const DEFAULT_BAR_RADIUS = 6;
export const DEFAULT_LINE_WIDTH = 5;
export const DEFAULT_INNER_RADIUS = 0.6;
/** Gaps between bars of a group and between groups, as shares of the band (d3 scaleBand padding). */
export const GROUP_PADDING = 0.28;
export const BAR_GAP = 0.08;
/** Line and area points sit this share of a step in from the plot's ends (d3 scalePoint padding). */
export const POINT_PADDING = 0.3;
/** Dots are this many times the line width across; scatter points this share of the text size. */
export const DOT_WIDTHS = 1.6;
export const SCATTER_RADIUS_EM = 0.32;
export const PIE_PAD_ANGLE = 0.012;
export const LABEL_FADE_ANGLE = 0.5;
/** Scatter axes reach this share of the data's span past its extremes, so no point sits on an axis. */
export const SCATTER_MARGIN = 0.05;

export const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
export const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

/** The legend: where it sits and how tall it is. */
export function legendPlace(element: ChartElement, data: ChartData): 'top' | 'bottom' | 'none' {
  if (element.legend) return element.legend;
  return isRadial(element) || data.series.length > 1 ? 'top' : 'none';
}

export function valueLabelKind(element: ChartElement): 'value' | 'share' | 'none' {
  if (element.valueLabels) return element.valueLabels;
  if (element.kind === 'bar') return 'value';
  return isRadial(element) ? 'share' : 'none';
}

/** The value extent the data needs: stacked bars and areas by their stack sums. */
export function valueExtent(element: ChartElement, data: ChartData): [number, number] {
  let low = Infinity;
  let high = -Infinity;
  if (element.stacked && (element.kind === 'bar' || element.kind === 'area')) {
    for (const layer of stackLayers(data)) {
      for (const [a, b] of layer) {
        low = Math.min(low, a, b);
        high = Math.max(high, a, b);
      }
    }
  } else if (element.kind === 'scatter') {
    for (const series of data.series)
      for (const [, y] of series.points) [low, high] = [Math.min(low, y), Math.max(high, y)];
  } else {
    for (const series of data.series)
      for (const value of series.values) [low, high] = [Math.min(low, value), Math.max(high, value)];
  }
  if (!Number.isFinite(low)) return [0, 1];
  // Bars and areas stand on zero; lines and points may float.
  if (element.kind === 'bar' || element.kind === 'area') [low, high] = [Math.min(0, low), Math.max(0, high)];
  return [low, high];
}

export function withMargin([low, high]: [number, number]): [number, number] {
  const margin = (high - low) * SCATTER_MARGIN;
  return [low - margin, high + margin];
}

/** A domain rounded out to ticks, except at the ends the element fixes with min and max. */
export function niceDomain(
  extent: readonly [number, number],
  ticks: number,
  fixed: { min?: number | undefined; max?: number | undefined } = {},
): [number, number] {
  let [low, high] = [fixed.min ?? extent[0], fixed.max ?? extent[1]];
  if (low === high) high = low + (low === 0 ? 1 : Math.abs(low) * 0.1);
  if (low > high) [low, high] = [high, low];
  const nice = scaleLinear().domain([low, high]).nice(ticks).domain() as [number, number];
  return [fixed.min ?? nice[0], fixed.max ?? nice[1]];
}

export function stackLayers(data: ChartData) {
  const rows = data.labels.map((_, index) => data.series.map((series) => series.values[index] ?? 0));
  return stack<number[], number>()
    .keys(data.series.map((_, index) => index))
    .value((row, key) => row[key] ?? 0)
    .order(stackOrderNone)
    .offset(stackOffsetDiverging)(rows);
}

export function valueScale(
  input: ChartGeometryInput,
  range: [number, number],
  extentOf: (data: ChartData) => [number, number],
) {
  const { element, moment } = input;
  const ticks = element.ticks ?? DEFAULT_TICKS;
  const fixed = { min: element.min, max: element.max };
  const from = niceDomain(extentOf(moment.from), ticks, fixed);
  const to = niceDomain(extentOf(moment.to), ticks, fixed);
  // The axis tweens with the data, so bars keep their relation to the gridlines as both move.
  const domain: [number, number] = [lerp(from[0], to[0], moment.t), lerp(from[1], to[1], moment.t)];
  return scaleLinear().domain(domain).range(range);
}

export function tickStep(ticks: number[]): number {
  return ticks.length > 1 ? Math.abs(ticks[1]! - ticks[0]!) : 1;
}

/** Every `k`-th label, so that no two drawn labels along the axis touch. */
export function labelStride(widths: number[], step: number, gap: number): number {
  const widest = Math.max(0, ...widths);
  return step <= 0 ? 1 : Math.max(1, Math.ceil((widest + gap) / step));
}

/** Within a group, bar `seriesIndex` starts this share of a stagger after the group's first. */
export function groupOffset(seriesIndex: number, seriesCount: number): number {
  return seriesIndex / Math.max(2, seriesCount + 1);
}

/** The index of the item that builds last, and how many items there are (see chartBuild). */
export function lastBuildItem(element: ChartElement, data: ChartData): { last: number; count: number } {
  const labels = data.labels.length;
  const series = data.series.length;
  if (isRadial(element)) return { last: 0, count: 1 };
  if (element.kind === 'scatter') {
    const points = data.series.reduce((sum, one) => sum + one.points.length, 0);
    return { last: points - 1, count: points };
  }
  if (element.kind !== 'bar') return { last: series - 1, count: series };
  const grouped = !element.stacked && !element.horizontal;
  return { last: labels - 1 + (grouped ? groupOffset(series - 1, series) : 0), count: labels };
}

/** Labels on a vertical value axis need this many lines of text between them to read apart. */
const TICK_SPACING_LINES = 1.5;

/**
 * Ticks along a vertical value axis: about as many as asked (d3's nice steps), fewer when the axis is
 * too short for their labels to stand apart.
 */
export function valueTicks(
  input: ChartGeometryInput,
  scale: ScaleLinear<number, number>,
): { ticks: number[]; labels: string[]; widths: number[] } {
  const spacing = input.textSize * TICK_SPACING_LINES;
  let count = input.element.ticks ?? DEFAULT_TICKS;
  let ticks = scale.ticks(count);
  while (count > 1 && ticks.length > 2 && Math.abs(scale(ticks[1]!) - scale(ticks[0]!)) < spacing) {
    count -= 1;
    ticks = scale.ticks(count);
  }
  const step = tickStep(ticks);
  const labels = ticks.map((tick) => input.format.tick(tick, step));
  return { ticks, labels, widths: labels.map((label) => input.measure(label, 'tick')) };
}

export function shareOfStack(data: ChartData, seriesIndex: number, index: number): number {
  const total = data.series.reduce((sum, series) => sum + Math.abs(series.values[index] ?? 0), 0);
  return total === 0 ? 0 : Math.abs(data.series[seriesIndex]!.values[index] ?? 0) / total;
}

/**
 * Ticks along a horizontal axis (a horizontal bar chart's values, a scatter's x): a vertical
 * gridline and a centred label under the plot for each. `zeroBaseline` draws the line at 0 as the
 * baseline, even without a grid.
 */
export function addHorizontalAxis(
  input: ChartGeometryInput,
  geometry: ChartGeometry,
  axis: {
    ticks: number[];
    step: number;
    x: (value: number) => number;
    bottom: number;
    zeroBaseline: boolean;
  },
  plot: Box,
): void {
  for (const tick of axis.ticks) {
    const at = axis.x(tick);
    const baseline = axis.zeroBaseline && tick === 0;
    if (input.element.grid !== false || baseline)
      geometry.grid.push({ x1: at, y1: plot.y, x2: at, y2: plot.y + plot.height, baseline });
    const text = input.format.tick(tick, axis.step);
    geometry.texts.push({
      text,
      x: at,
      y: plot.y + plot.height + axis.bottom / 2 + input.textSize * 0.1,
      align: 'center',
      role: 'tick',
      width: input.measure(text, 'tick'),
      opacity: geometry.chrome,
    });
  }
}

export function addValueGrid(
  input: ChartGeometryInput,
  geometry: ChartGeometry,
  ticks: number[],
  labels: string[],
  y: ScaleLinear<number, number>,
  plot: Box,
): void {
  const gap = input.textSize * 0.6;
  ticks.forEach((tick, index) => {
    const at = y(tick);
    if (input.element.grid !== false || tick === 0)
      geometry.grid.push({ x1: plot.x, y1: at, x2: plot.x + plot.width, y2: at, baseline: tick === 0 });
    const text = labels[index]!;
    geometry.texts.push({
      text,
      x: plot.x - gap,
      y: at,
      align: 'right',
      role: 'tick',
      width: input.measure(text, 'tick'),
      opacity: geometry.chrome,
    });
  });
}
