// Scatter charts: x and y value axes, points popping in left to right.
import { scaleLinear } from 'd3-scale';
import { easingFunction } from '../../animation/easing.ts';
import type { Box } from '../../canvas/types.ts';
import type { ChartData } from './chart-data.ts';
import {
  DEFAULT_TICKS,
  SCATTER_RADIUS_EM,
  addValueGrid,
  lerp,
  niceDomain,
  tickStep,
  valueExtent,
  valueScale,
  valueTicks,
  withMargin,
  addHorizontalAxis,
} from './chart-scales.ts';
import type { ChartGeometry, ChartGeometryInput } from './chart-shapes.ts';

/** A point's pop overshoots and settles, whatever the chart's easing. */
const POP_EASING = easingFunction('back');

/** Scatter: x and y value axes, points popping in left to right. */
export function layoutScatter(
  input: ChartGeometryInput,
  data: ChartData,
  region: Box,
  geometry: ChartGeometry,
): void {
  const { element, moment, textSize, build, format } = input;
  const gap = textSize * 0.6;
  const bottom = textSize * 1.9;
  const ticks = element.ticks ?? DEFAULT_TICKS;
  const extentY = (d: ChartData) => withMargin(valueExtent(element, d));
  const extentX = (d: ChartData): [number, number] => {
    const xs = d.series.flatMap((series) => series.points.map(([x]) => x));
    return xs.length ? withMargin([Math.min(...xs), Math.max(...xs)]) : [0, 1];
  };
  const probe = valueScale(input, [region.y + region.height - bottom, region.y + textSize], extentY);
  const axisWidth = Math.max(0, ...valueTicks(input, probe).widths) + gap;
  const xFrom = niceDomain(extentX(moment.from), ticks);
  const xTo = niceDomain(extentX(moment.to), ticks);
  const xDomain: [number, number] = [lerp(xFrom[0], xTo[0], moment.t), lerp(xFrom[1], xTo[1], moment.t)];
  const xProbe = scaleLinear().domain(xDomain);
  const xTicks = xProbe.ticks(ticks);
  const xStep = tickStep(xTicks);
  const lastWidth = input.measure(format.tick(xTicks.at(-1) ?? 0, xStep), 'tick');
  const plot: Box = {
    x: region.x + axisWidth,
    y: region.y + textSize,
    width: Math.max(1, region.width - axisWidth - lastWidth / 2),
    height: Math.max(1, region.height - textSize - bottom),
  };
  geometry.plot = plot;
  const y = valueScale(input, [plot.y + plot.height, plot.y], extentY);
  const yTicks = valueTicks(input, y);
  addValueGrid(input, geometry, yTicks.ticks, yTicks.labels, y, plot);
  const x = xProbe.range([plot.x, plot.x + plot.width]);
  addHorizontalAxis(input, geometry, { ticks: xTicks, step: xStep, x, bottom, zeroBaseline: false }, plot);
  // The x axis line, so points near the bottom have a floor.
  geometry.grid.push({
    x1: plot.x,
    y1: plot.y + plot.height,
    x2: plot.x + plot.width,
    y2: plot.y + plot.height,
    baseline: true,
  });
  const all = data.series.flatMap((series) => series.points.map((point) => ({ point, color: series.color })));
  // Points pop in left to right, whichever series they belong to.
  const order = all.map((_, index) => index).sort((a, b) => all[a]!.point[0] - all[b]!.point[0]);
  const radius = textSize * SCATTER_RADIUS_EM;
  order.forEach((pointIndex, rank) => {
    const { point, color } = all[pointIndex]!;
    const popped = build.itemWith(POP_EASING, rank, all.length);
    if (popped <= 0) return;
    geometry.dots.push({ x: x(point[0]), y: y(point[1]), radius: radius * popped, color });
  });
}
