// Pie and donut charts: d3's pie angles swept round from twelve o'clock.
import { pie } from 'd3-shape';
import type { Box } from '../../canvas/types.ts';
import type { ChartElement } from '../../spec/chart-element.ts';
import type { ChartData } from './chart-data.ts';
import { CHART_PALETTE } from './chart-data.ts';
import {
  DEFAULT_INNER_RADIUS,
  LABEL_FADE_ANGLE,
  PIE_PAD_ANGLE,
  clamp01,
  valueLabelKind,
} from './chart-scales.ts';
import type { ChartGeometry, ChartGeometryInput } from './chart-shapes.ts';
import type { LabelExtent } from './chart-ring-fit.ts';
import { ringLabelFits, ringLabelRadius } from './chart-ring-fit.ts';

/**
 * How tall a slice label's text is, in ems, for fitting it in its ring: figures and signs stand about
 * 0.75 em, centred on the line's middle; one em leaves them a little air.
 */
const LABEL_TEXT_EM = 1;

/** A single series' own colour would paint every slice alike: slices take the palette in turn. */
export function sliceColor(element: ChartElement, index: number): string {
  const colors = element.colors ?? CHART_PALETTE;
  return colors[index % colors.length]!;
}

/** Pie and donut: slices swept round from twelve o'clock, labels at each slice's middle. */
export function layoutPie(
  input: ChartGeometryInput,
  data: ChartData,
  region: Box,
  geometry: ChartGeometry,
): void {
  const { element, build, format } = input;
  const values = (data.series[0]?.values ?? []).map((value) => Math.max(0, value));
  const total = values.reduce((sum, value) => sum + value, 0);
  const outerRadius = Math.max(0, Math.min(region.width, region.height) / 2);
  const innerRadius =
    element.kind === 'donut' ? outerRadius * (element.innerRadius ?? DEFAULT_INNER_RADIUS) : 0;
  const center = { x: region.x + region.width / 2, y: region.y + region.height / 2 };
  geometry.center = center;
  geometry.plot = {
    x: center.x - outerRadius,
    y: center.y - outerRadius,
    width: outerRadius * 2,
    height: outerRadius * 2,
  };
  const arcs = pie<number>()
    .sort(null)
    .value((value) => value)
    .padAngle(values.filter((value) => value > 0).length > 1 ? PIE_PAD_ANGLE : 0)(values);
  const progress = build.item(0);
  const sweep = 2 * Math.PI * progress;
  const labelsKind = valueLabelKind(element);
  const labelRadius = element.kind === 'donut' ? (innerRadius + outerRadius) / 2 : outerRadius * 0.64;
  const ring = { inner: innerRadius, outer: outerRadius, margin: 2 * input.scale };
  const labelText = (index: number) =>
    labelsKind === 'share'
      ? format.share(total === 0 ? 0 : values[index]! / total)
      : format.value(data.series[0]!.values[index] ?? 0);
  const extent =
    (text: string): LabelExtent =>
    (scale) => ({
      width: input.measure(text, 'value') * scale,
      height: input.textSize * scale * LABEL_TEXT_EM,
    });
  // One size for every label of the chart, the largest at which each that fits at all does: a thin
  // ring takes smaller labels rather than labels hanging over its edges. Worked out over the whole
  // chart, so labels keep their size while the build sweeps in.
  const fits = arcs.map((arc, index) =>
    labelsKind === 'none' || arc.endAngle <= arc.startAngle
      ? []
      : ringLabelFits(ring, arc.startAngle, arc.endAngle, extent(labelText(index))),
  );
  const largest = fits
    .filter((each) => each.length > 0)
    .map((each) => Math.max(...each.map((fit) => fit.scale)));
  const labelScale = Math.min(1, ...largest);
  arcs.forEach((arc, index) => {
    if (arc.startAngle >= sweep || arc.endAngle <= arc.startAngle) return;
    const color = sliceColor(element, index);
    geometry.slices.push({
      startAngle: arc.startAngle,
      endAngle: Math.min(arc.endAngle, sweep),
      padAngle: arc.padAngle,
      innerRadius,
      outerRadius,
      cornerRadius: Math.min(4 * input.scale, (outerRadius - innerRadius) / 4),
      color,
    });
    // A label too big for the ring even at its smallest is left out (the legend names the slice).
    // At that size, the label sits as near its slice's middle as it fits.
    const placed = fits[index]!.find((fit) => fit.scale >= labelScale);
    if (!placed) return;
    const middle = placed.angle;
    // A slice's label fades in as the sweep passes its middle, done by the end of the sweep at the latest.
    const fade = Math.max(1e-6, Math.min(LABEL_FADE_ANGLE, 2 * Math.PI - middle));
    const opacity = progress >= 1 ? 1 : clamp01((sweep - middle) / fade);
    if (opacity <= 0) return;
    const text = labelText(index);
    const radius = ringLabelRadius(ring, middle, extent(text), labelScale, labelRadius);
    geometry.texts.push({
      text,
      // d3's angles run clockwise from twelve o'clock.
      x: center.x + Math.sin(middle) * radius,
      y: center.y - Math.cos(middle) * radius,
      align: 'center',
      role: 'value',
      width: input.measure(text, 'value') * labelScale,
      size: labelScale === 1 ? undefined : input.textSize * labelScale,
      opacity,
      on: color,
    });
  });
}
