// Bars: grouped or stacked columns, and horizontal bars with their labels down the side.
import { scaleBand } from 'd3-scale';
import type { ScaleLinear } from 'd3-scale';
import type { Box } from '../../canvas/types.ts';
import type { ChartData } from './chart-data.ts';
import {
  BAR_GAP,
  DEFAULT_BAR_RADIUS,
  DEFAULT_TICKS,
  GROUP_PADDING,
  clamp01,
  groupOffset,
  shareOfStack,
  stackLayers,
  tickStep,
  valueExtent,
  valueLabelKind,
  valueScale,
  addHorizontalAxis,
} from './chart-scales.ts';
import type { ChartGeometry, ChartGeometryInput } from './chart-shapes.ts';

/** The round end of a bar is its outer end: up for positive columns, down for negative ones. */
function columnRadii(radius: number, up: boolean): [number, number, number, number] {
  return up ? [radius, radius, 0, 0] : [0, 0, radius, radius];
}

export function addColumnBars(
  input: ChartGeometryInput,
  data: ChartData,
  geometry: ChartGeometry,
  band: ReturnType<typeof scaleBand<string>>,
  categories: string[],
  y: ScaleLinear<number, number>,
  zero: number,
): void {
  const { element, build, textSize, format } = input;
  const labelsKind = valueLabelKind(element);
  const radius = (element.radius ?? DEFAULT_BAR_RADIUS) * input.scale;
  const seriesCount = data.series.length;
  if (element.stacked) {
    const layers = stackLayers(data);
    const gap = Math.min(2 * input.scale, band.bandwidth() * 0.02);
    categories.forEach((category, index) => {
      const progress = build.item(index, categories.length);
      const x = band(category)!;
      layers.forEach((layer, seriesIndex) => {
        const [a, b] = layer[index]!;
        // The whole stack grows from zero: each segment's ends are scaled toward it.
        const top = y(b * progress);
        const bottomY = y(a * progress);
        const height = Math.abs(bottomY - top);
        if (height <= 0.01) return;
        const up = b >= a && b > 0;
        const outer = isOuterSegment(layers, seriesIndex, index, up);
        // A seam parts each segment from the next one out; the stack still spans zero to its total.
        const seam = outer ? 0 : Math.min(gap, height / 2);
        const box = {
          x,
          y: Math.min(top, bottomY) + (up ? seam : 0),
          width: band.bandwidth(),
          height: height - seam,
        };
        const color = data.series[seriesIndex]!.color;
        geometry.bars.push({ ...box, color, radii: outer ? columnRadii(radius, up) : [0, 0, 0, 0] });
        if (labelsKind === 'none') return;
        const value = data.series[seriesIndex]!.values[index] ?? 0;
        const text =
          labelsKind === 'share' ? format.share(shareOfStack(data, seriesIndex, index)) : format.value(value);
        const width = input.measure(text, 'value');
        // Inside its segment, and only where it fits: a label spilling over the next segment misleads.
        if (width > box.width - textSize * 0.3 || box.height < textSize * 1.2) return;
        geometry.texts.push({
          text,
          x: box.x + box.width / 2,
          y: box.y + box.height / 2,
          align: 'center',
          role: 'value',
          width,
          opacity: clamp01((progress - 0.6) / 0.4),
          on: color,
        });
      });
    });
    return;
  }
  const inner = scaleBand<number>()
    .domain(data.series.map((_, index) => index))
    .range([0, band.bandwidth()])
    .paddingInner(seriesCount > 1 ? BAR_GAP : 0);
  categories.forEach((category, index) => {
    data.series.forEach((series, seriesIndex) => {
      // Within a group the bars follow each other closely; groups follow by the full stagger.
      const progress = build.item(index + groupOffset(seriesIndex, seriesCount), categories.length);
      const value = series.values[index] ?? 0;
      const end = y(value * progress);
      const top = Math.min(end, zero);
      const height = Math.abs(end - zero);
      const x = band(category)! + inner(seriesIndex)!;
      const width = inner.bandwidth();
      const up = value >= 0;
      if (height > 0.01)
        geometry.bars.push({ x, y: top, width, height, color: series.color, radii: columnRadii(radius, up) });
      if (labelsKind === 'none' || progress <= 0) return;
      const text =
        labelsKind === 'share' ? format.share(shareOfStack(data, seriesIndex, index)) : format.value(value);
      geometry.texts.push({
        text,
        x: x + width / 2,
        y: up ? end - textSize * 0.75 : end + textSize * 0.75,
        align: 'center',
        role: 'value',
        width: input.measure(text, 'value'),
        opacity: clamp01((progress - 0.6) / 0.4),
      });
    });
  });
}

/** Whether this segment is the last one drawn on its side of zero (its outer end gets the rounding). */
function isOuterSegment(
  layers: ReturnType<typeof stackLayers>,
  seriesIndex: number,
  index: number,
  up: boolean,
): boolean {
  for (let next = seriesIndex + 1; next < layers.length; next++) {
    const [a, b] = layers[next]![index]!;
    if (a === b) continue;
    if ((b > a && b > 0) === up) return false;
  }
  return true;
}

/** Horizontal bars: categories down the left, values along the bottom, value labels past the bars' ends. */
export function layoutHorizontalBars(
  input: ChartGeometryInput,
  data: ChartData,
  region: Box,
  geometry: ChartGeometry,
): void {
  const { element, textSize, build, format } = input;
  const labelsKind = valueLabelKind(element);
  const gap = textSize * 0.6;
  const widths = data.labels.map((label) => input.measure(label, 'category'));
  const labelWidth = Math.max(0, ...widths) + gap;
  const valueTexts = data.series.flatMap((series) =>
    series.values.map((value, index) =>
      labelsKind === 'share'
        ? format.share(shareOfStack(data, data.series.indexOf(series), index))
        : format.value(value),
    ),
  );
  const endRoom =
    labelsKind === 'none' || element.stacked
      ? textSize
      : Math.max(0, ...valueTexts.map((t) => input.measure(t, 'value'))) + gap;
  const bottom = textSize * 1.9;
  const plot: Box = {
    x: region.x + labelWidth,
    y: region.y,
    width: Math.max(1, region.width - labelWidth - endRoom),
    height: Math.max(1, region.height - bottom),
  };
  geometry.plot = plot;
  const x = valueScale(input, [plot.x, plot.x + plot.width], (d) => valueExtent(element, d));
  const ticks = x.ticks(element.ticks ?? DEFAULT_TICKS);
  const step = tickStep(ticks);
  addHorizontalAxis(input, geometry, { ticks, step, x, bottom, zeroBaseline: true }, plot);
  const categories = data.labels.map((label, index) => `${index}\u0000${label}`);
  const band = scaleBand<string>()
    .domain(categories)
    .range([plot.y, plot.y + plot.height])
    .paddingInner(GROUP_PADDING)
    .paddingOuter(GROUP_PADDING / 2);
  data.labels.forEach((label, index) => {
    geometry.texts.push({
      text: label,
      x: plot.x - gap,
      y: band(categories[index]!)! + band.bandwidth() / 2,
      align: 'right',
      role: 'category',
      width: widths[index]!,
      opacity: geometry.chrome,
    });
  });
  const radius = (element.radius ?? DEFAULT_BAR_RADIUS) * input.scale;
  const layers = element.stacked ? stackLayers(data) : undefined;
  const inner = scaleBand<number>()
    .domain(data.series.map((_, index) => index))
    .range([0, band.bandwidth()])
    .paddingInner(data.series.length > 1 && !layers ? BAR_GAP : 0);
  categories.forEach((category, index) => {
    const progress = build.item(index, categories.length);
    data.series.forEach((series, seriesIndex) => {
      const value = series.values[index] ?? 0;
      const [a, b] = layers ? layers[seriesIndex]![index]! : [0, value];
      const left = x(Math.min(a, b) * progress);
      const right = x(Math.max(a, b) * progress);
      const top = band(category)! + (layers ? 0 : inner(seriesIndex)!);
      const height = layers ? band.bandwidth() : inner.bandwidth();
      const rightward = value >= 0;
      const outer = layers ? isOuterSegment(layers, seriesIndex, index, rightward) : true;
      const r = outer ? radius : 0;
      if (right - left > 0.01)
        geometry.bars.push({
          x: left,
          y: top,
          width: right - left,
          height,
          color: series.color,
          radii: rightward ? [0, r, r, 0] : [r, 0, 0, r],
        });
      if (labelsKind === 'none' || progress <= 0) return;
      const text =
        labelsKind === 'share' ? format.share(shareOfStack(data, seriesIndex, index)) : format.value(value);
      const width = input.measure(text, 'value');
      const opacity = clamp01((progress - 0.6) / 0.4);
      if (layers) {
        if (width > right - left - textSize * 0.4 || height < textSize * 1.1) return;
        geometry.texts.push({
          text,
          x: (left + right) / 2,
          y: top + height / 2,
          align: 'center',
          role: 'value',
          width,
          opacity,
          on: series.color,
        });
        return;
      }
      geometry.texts.push({
        text,
        x: rightward ? x(value * progress) + gap * 0.6 : x(value * progress) - gap * 0.6,
        y: top + height / 2,
        align: rightward ? 'left' : 'right',
        role: 'value',
        width,
        opacity,
      });
    });
  });
}
