import { describe, expect, it } from 'vitest';
import { ChartElementSchema } from '../../shared/spec/chart-element.ts';
import { chartLabel, chartParts } from './chart-facts.ts';

const chart = (fields: Record<string, unknown>) => ChartElementSchema.parse({ type: 'chart', ...fields });

describe('chart facts', () => {
  it('names the kind and counts the series, one part per series with its first and last value', () => {
    const element = chart({
      kind: 'bar',
      stacked: true,
      labels: ['Q1', 'Q2', 'Q3', 'Q4'],
      series: [
        { name: 'Revenue', values: [12, 20, 31, 48] },
        { name: 'Cost', values: [8, 9, 9.5, 10.25] },
        { name: 'Staff', values: [1, 1, 2, 2] },
      ],
    });
    expect(chartLabel(element)).toBe('stacked bar chart, 3 series');
    expect(chartParts(element)).toEqual([
      'Revenue: 4 values, 12 → 48',
      'Cost: 4 values, 8 → 10.25',
      'Staff: 4 values, 1 → 2',
    ]);
  });

  it('lists the columns a file chart reads, and the points of a scatter', () => {
    const file = chart({
      kind: 'line',
      data: { src: 'asset:data/sales.csv', label: 'month', series: ['a', 'b'] },
    });
    expect(chartLabel(file)).toBe('line chart from asset:data/sales.csv');
    expect(chartParts(file)).toEqual(['labels: month', 'series: a, b']);
    const scatter = chart({
      kind: 'scatter',
      series: [
        {
          name: 'P',
          points: [
            [1, 2],
            [3, 4],
          ],
        },
      ],
    });
    expect(chartParts(scatter)).toEqual(['P: 2 points']);
  });
});
