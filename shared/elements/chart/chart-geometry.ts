// A chart at one moment as plain shapes in real pixels (chart-shapes.ts): the legend first, then
// the layout of its kind. The scales, ticks, stacks and pie angles are d3's; drawing is chart-draw.ts's.
import type { Box } from '../../canvas/types.ts';
import type { ChartElement } from '../../spec/chart-element.ts';
import type { ChartData } from './chart-data.ts';
import { isRadial, mixData } from './chart-data.ts';
import { layoutHorizontalBars } from './chart-bars.ts';
import { layoutColumns } from './chart-columns.ts';
import { layoutPie, sliceColor } from './chart-round.ts';
import { layoutScatter } from './chart-scatter.ts';
import { legendPlace } from './chart-scales.ts';
import type { ChartGeometry, ChartGeometryInput } from './chart-shapes.ts';

export type * from './chart-shapes.ts';
export { lastBuildItem, legendPlace, niceDomain, valueLabelKind } from './chart-scales.ts';

interface LegendItem {
  name: string;
  color: string;
}

function legendItems(element: ChartElement, data: ChartData): LegendItem[] {
  if (!isRadial(element)) return data.series.map((series) => ({ name: series.name, color: series.color }));
  return data.labels.map((name, index) => ({ name, color: sliceColor(element, index) }));
}

/** Lays the legend out in rows across the box; returns the rows' height and adds its shapes. */
export function layoutLegend(
  input: ChartGeometryInput,
  data: ChartData,
  geometry: ChartGeometry,
  top: number,
): number {
  const { box, textSize } = input;
  const items = legendItems(input.element, data);
  const swatch = textSize * 0.7;
  const inner = textSize * 0.4;
  const gap = textSize * 1.2;
  const rowHeight = textSize * 1.6;
  const rows: { items: { item: LegendItem; width: number }[]; width: number }[] = [];
  for (const item of items) {
    const width = swatch + inner + input.measure(item.name, 'legend');
    const row = rows.at(-1);
    if (row && row.width + gap + width <= box.width) {
      row.items.push({ item, width });
      row.width += gap + width;
    } else rows.push({ items: [{ item, width }], width });
  }
  rows.forEach((row, index) => {
    let x = box.x + (box.width - row.width) / 2;
    const y = top + rowHeight * (index + 0.5);
    for (const { item, width } of row.items) {
      geometry.swatches.push({ x, y: y - swatch / 2, width: swatch, height: swatch, color: item.color });
      const textWidth = width - swatch - inner;
      geometry.texts.push({
        text: item.name,
        x: x + swatch + inner,
        y,
        align: 'left',
        role: 'legend',
        width: textWidth,
        opacity: geometry.chrome,
      });
      x += width + gap;
    }
  });
  return rows.length * rowHeight;
}

/**
 * A pie fills only a square of a tall region: the legend moves towards it (down when on top, up when
 * below) so legend and pie sit together in the middle of the box instead of at its far ends.
 */
function hugRound(region: Box, legendSide: 1 | -1, geometry: ChartGeometry): Box {
  const spare = region.height - Math.min(region.width, region.height);
  if (spare <= 0) return region;
  const shift = (spare / 2) * legendSide;
  for (const swatch of geometry.swatches) swatch.y += shift;
  for (const text of geometry.texts) text.y += shift;
  return { ...region, y: region.y + spare / 2, height: region.height - spare };
}

export function chartGeometry(input: ChartGeometryInput): ChartGeometry {
  const { element, moment, box, textSize } = input;
  const data = mixData(moment);
  const geometry: ChartGeometry = {
    chrome: input.build.chrome,
    plot: box,
    center: undefined,
    grid: [],
    bars: [],
    areas: [],
    lines: [],
    slices: [],
    dots: [],
    swatches: [],
    texts: [],
  };
  const legend = legendPlace(element, data);
  let region = box;
  if (legend !== 'none') {
    const probeTop = legend === 'top' ? box.y : 0;
    const height = layoutLegend(input, data, geometry, probeTop);
    if (legend === 'bottom') {
      // Laid out at 0 to learn its height, then moved to the bottom of the box.
      const shift = box.y + box.height - height;
      for (const swatch of geometry.swatches) swatch.y += shift;
      for (const text of geometry.texts) text.y += shift;
    }
    const room = height + textSize * 0.8;
    region = { ...box, y: legend === 'top' ? box.y + room : box.y, height: Math.max(0, box.height - room) };
    if (isRadial(element)) region = hugRound(region, legend === 'top' ? 1 : -1, geometry);
  }
  if (isRadial(element)) layoutPie(input, data, region, geometry);
  else if (element.kind === 'scatter') layoutScatter(input, data, region, geometry);
  else if (element.kind === 'bar' && element.horizontal) layoutHorizontalBars(input, data, region, geometry);
  else layoutColumns(input, data, region, geometry);
  return geometry;
}
