// How inspect names a chart and lists its series: from the spec alone, so a chart whose data is in a
// file lists the columns it reads rather than values it has not loaded.
import type { ChartElement } from '../../shared/spec/chart-element.ts';

const compact = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function chartLabel(element: ChartElement): string {
  const shape = [element.stacked ? 'stacked' : '', element.horizontal ? 'horizontal' : '', element.kind]
    .filter(Boolean)
    .join(' ');
  if (element.data) return `${shape} chart from ${element.data.src}`;
  const count = element.series?.length ?? 0;
  return `${shape} chart, ${count} series`;
}

export function chartParts(element: ChartElement): string[] {
  if (element.data) {
    const { label, series, x, y, group } = element.data;
    if (element.kind === 'scatter') return [`x: ${x}, y: ${y}${group ? `, by ${group}` : ''}`];
    return [`labels: ${label ?? 'first column'}`, `series: ${series?.join(', ') ?? 'every other column'}`];
  }
  return (element.series ?? []).map((series) => {
    if (element.kind === 'scatter') return `${series.name}: ${series.points?.length ?? 0} points`;
    const values = series.values ?? [];
    const span =
      values.length === 0 ? '' : `, ${compact.format(values[0]!)} → ${compact.format(values.at(-1)!)}`;
    return `${series.name}: ${values.length} value${values.length === 1 ? '' : 's'}${span}`;
  });
}
