// A chart at one moment as plain shapes in real pixels, what chart-geometry.ts lays out and
// chart-draw.ts draws: bars, lines, areas, slices, points, gridlines and every label with its place.
import type { CurveFactory } from 'd3-shape';
import type { Box } from '../../canvas/types.ts';
import type { ChartElement } from '../../spec/chart-element.ts';
import type { ChartBuild } from './chart-build.ts';
import type { ChartMoment } from './chart-data.ts';
import type { ChartFormat } from './chart-format.ts';
import type { XY } from './chart-path.ts';

export type ChartTextRole = 'tick' | 'category' | 'legend' | 'value';

export interface ChartText {
  text: string;
  /** The anchor: left end, centre or right end of the text, per `align`. */
  x: number;
  /** The middle of the line. */
  y: number;
  align: 'left' | 'center' | 'right';
  role: ChartTextRole;
  /** Measured width in real pixels, at `size`. */
  width: number;
  /** Its text size in real pixels where it is not the chart's: a donut's label shrunk to fit its ring. */
  size?: number | undefined;
  opacity: number;
  /** The colour the text sits on when it is inside a bar or slice (its colour is chosen to read on it). */
  on?: string | undefined;
}

export interface ChartBar extends Box {
  color: string;
  /** Corner radii, clockwise from top-left: only the bar's outer end is rounded. */
  radii: [number, number, number, number];
}

export interface ChartGridLine {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  /** The zero line (or the axis itself): drawn stronger than the gridlines. */
  baseline: boolean;
}

export interface ChartLine {
  /** The drawn part of the line, flattened. */
  points: XY[];
  color: string;
  width: number;
}

export interface ChartArea {
  /** Points along the category axis with the top and bottom of the fill. */
  x: number[];
  top: number[];
  bottom: number[];
  curve: CurveFactory;
  /** The fill shows left of this x (it follows the head of its line). */
  revealX: number;
  color: string;
}

export interface ChartSlice {
  startAngle: number;
  endAngle: number;
  padAngle: number;
  innerRadius: number;
  outerRadius: number;
  cornerRadius: number;
  color: string;
}

export interface ChartDot extends XY {
  radius: number;
  color: string;
}

export interface ChartSwatch extends Box {
  color: string;
}

export interface ChartGeometry {
  /** Opacity of the axes, gridlines, ticks and legend. */
  chrome: number;
  /** The plotting area inside the element's box. */
  plot: Box;
  /** The pie's centre. */
  center: XY | undefined;
  grid: ChartGridLine[];
  bars: ChartBar[];
  areas: ChartArea[];
  lines: ChartLine[];
  slices: ChartSlice[];
  dots: ChartDot[];
  swatches: ChartSwatch[];
  texts: ChartText[];
}

export interface ChartGeometryInput {
  element: ChartElement;
  moment: ChartMoment;
  build: ChartBuild;
  box: Box;
  /** Design pixels to real pixels. */
  scale: number;
  /** Label text size in real pixels. */
  textSize: number;
  /** A text's width in real pixels as drawn in its role. */
  measure: (text: string, role: ChartTextRole) => number;
  format: ChartFormat;
}
