// Vertical charts: bars, lines and areas over categories along the bottom, values up the left.
import { scaleBand, scalePoint } from 'd3-scale';
import type { Box } from '../../canvas/types.ts';
import type { ChartData } from './chart-data.ts';
import { CURVES, flattenCurve, polylineLength, polylinePrefix } from './chart-path.ts';
import { addColumnBars } from './chart-bars.ts';
import {
  DEFAULT_LINE_WIDTH,
  DOT_WIDTHS,
  GROUP_PADDING,
  POINT_PADDING,
  addValueGrid,
  clamp01,
  labelStride,
  shareOfStack,
  stackLayers,
  valueExtent,
  valueLabelKind,
  valueScale,
  valueTicks,
} from './chart-scales.ts';
import type { ChartGeometry, ChartGeometryInput } from './chart-shapes.ts';

/** Vertical bars, lines and areas: values up the left, categories along the bottom. */
export function layoutColumns(
  input: ChartGeometryInput,
  data: ChartData,
  region: Box,
  geometry: ChartGeometry,
): void {
  const { element, textSize, build, format } = input;
  const labelsKind = valueLabelKind(element);
  const gap = textSize * 0.6;
  const headroom = labelsKind === 'none' ? textSize * 0.6 : textSize * 1.5;
  const bottom = textSize * 1.9;
  const extent = (d: ChartData) => valueExtent(element, d);
  // Ticks depend on the plot height only through the range, so the tick labels are measured first.
  const probe = valueScale(input, [region.y + region.height - bottom, region.y + headroom], extent);
  const probeTicks = valueTicks(input, probe);
  const axisWidth = Math.max(0, ...probeTicks.widths) + gap;
  const plot: Box = {
    x: region.x + axisWidth,
    y: region.y + headroom,
    width: Math.max(1, region.width - axisWidth - textSize * 0.4),
    height: Math.max(1, region.height - headroom - bottom),
  };
  geometry.plot = plot;
  const y = valueScale(input, [plot.y + plot.height, plot.y], extent);
  const { ticks, labels } = valueTicks(input, y);
  const zero = y(Math.min(Math.max(0, y.domain()[0]!), y.domain()[1]!));
  addValueGrid(input, geometry, ticks, labels, y, plot);

  const categories = data.labels.map((label, index) => `${index}\u0000${label}`);
  const band =
    element.kind === 'bar'
      ? scaleBand<string>()
          .domain(categories)
          .range([plot.x, plot.x + plot.width])
          .paddingInner(GROUP_PADDING)
          .paddingOuter(GROUP_PADDING / 2)
      : undefined;
  const point = scalePoint<string>()
    .domain(categories)
    .range([plot.x, plot.x + plot.width])
    .padding(POINT_PADDING);
  const centerOf = (index: number) =>
    band ? band(categories[index]!)! + band.bandwidth() / 2 : point(categories[index]!)!;
  const step = band ? band.step() : point.step();
  const widths = data.labels.map((label) => input.measure(label, 'category'));
  const stride = labelStride(widths, step, textSize * 0.8);
  data.labels.forEach((label, index) => {
    if (index % stride !== 0) return;
    geometry.texts.push({
      text: label,
      x: centerOf(index),
      y: plot.y + plot.height + bottom / 2 + textSize * 0.1,
      align: 'center',
      role: 'category',
      width: widths[index]!,
      opacity: geometry.chrome,
    });
  });

  if (element.kind === 'bar' && band) {
    addColumnBars(input, data, geometry, band, categories, y, zero);
    return;
  }
  const curve = CURVES[element.curve ?? 'smooth'];
  const layers = element.stacked && element.kind === 'area' ? stackLayers(data) : undefined;
  const lineWidth = (element.lineWidth ?? DEFAULT_LINE_WIDTH) * input.scale;
  data.series.forEach((series, seriesIndex) => {
    const progress = build.item(seriesIndex, data.series.length);
    const xs = data.labels.map((_, index) => centerOf(index));
    const tops = data.labels.map((_, index) =>
      y(layers ? layers[seriesIndex]![index]![1] : (series.values[index] ?? 0)),
    );
    const bottoms = data.labels.map((_, index) => (layers ? y(layers[seriesIndex]![index]![0]) : zero));
    const full = flattenCurve(
      xs.map((x, index) => ({ x, y: tops[index]! })),
      curve,
    );
    const drawn = polylinePrefix(full, polylineLength(full) * progress);
    const head = progress <= 0 ? -Infinity : (drawn.at(-1)?.x ?? -Infinity);
    if (element.kind === 'area')
      geometry.areas.push({ x: xs, top: tops, bottom: bottoms, curve, revealX: head, color: series.color });
    if (progress > 0) geometry.lines.push({ points: drawn, color: series.color, width: lineWidth });
    const dots = element.dots ?? element.kind === 'line';
    xs.forEach((x, index) => {
      // A dot and its label appear as the line's head reaches them.
      const reached = clamp01((head - x) / (textSize * 1.5) + (progress >= 1 ? 1 : 0));
      if (reached <= 0) return;
      if (dots)
        geometry.dots.push({
          x,
          y: tops[index]!,
          radius: lineWidth * DOT_WIDTHS * reached,
          color: series.color,
        });
      if (labelsKind === 'none') return;
      const value = series.values[index] ?? 0;
      const text =
        labelsKind === 'share' ? format.share(shareOfStack(data, seriesIndex, index)) : format.value(value);
      geometry.texts.push({
        text,
        x,
        y: tops[index]! - textSize * 0.9,
        align: 'center',
        role: 'value',
        width: input.measure(text, 'value'),
        opacity: reached,
      });
    });
  });
}
