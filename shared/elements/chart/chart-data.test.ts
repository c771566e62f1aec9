import { describe, expect, it } from 'vitest';
import { ChartElementSchema } from '../../spec/chart-element.ts';
import { chartData, checkCharts } from './chart-data.ts';
import { parseDataTable } from './data-table.ts';
import type { VideoModel } from '../../spec/model.ts';

const SALES = 'month,revenue,cost\r\nJan,12,8\n"Feb, short",18.5,9\nMar,24,"1""0"\n';

function fileChart(data: Record<string, unknown>, kind = 'bar') {
  return ChartElementSchema.parse({ type: 'chart', kind, data: { src: 'asset:data/sales.csv', ...data } });
}

describe('data files', () => {
  it('reads RFC 4180 CSV: quoted commas, doubled quotes, CRLF and LF', () => {
    const table = parseDataTable('asset:sales.csv', SALES);
    expect(table.columns).toEqual(['month', 'revenue', 'cost']);
    expect(table.rows.map((row) => [...row.cells.values()])).toEqual([
      ['Jan', '12', '8'],
      ['Feb, short', '18.5', '9'],
      ['Mar', '24', '1"0'],
    ]);
    expect(table.rows.map((row) => row.where)).toEqual(['line 2', 'line 3', 'line 4']);
  });

  it('charts the label column and the series columns', () => {
    const data = chartData(
      fileChart({ label: 'month', series: ['revenue'] }),
      () => 'month,revenue\nJan,12\nFeb,18.5\n',
    );
    expect(data).toMatchObject({ labels: ['Jan', 'Feb'], series: [{ name: 'revenue', values: [12, 18.5] }] });
  });

  it('names the line and column of a cell that is not a number', () => {
    expect(() => chartData(fileChart({}), () => SALES)).toThrow(
      'asset:data/sales.csv: line 4, column "cost": "1\\"0" is not a number',
    );
    expect(() => chartData(fileChart({}), () => 'm,v\nJan,\n')).toThrow(
      'line 2, column "v": empty is not a number',
    );
  });

  it('names a missing column and lists the ones there are', () => {
    expect(() => chartData(fileChart({ series: ['profit'] }), () => SALES)).toThrow(
      'asset:data/sales.csv: no column "profit" (data.series); the columns are "month", "revenue", "cost"',
    );
  });

  it('reports rows of the wrong width and unclosed quotes by line', () => {
    expect(() => parseDataTable('a.csv', 'a,b\n1,2,3\n')).toThrow(
      'a.csv: line 2: 3 fields, but the header names 2 columns',
    );
    expect(() => parseDataTable('a.csv', 'a,b\n1,"2\n')).toThrow(
      'a.csv: line 2: a quoted field is never closed',
    );
  });

  it('reads a JSON array of objects, and names the item of a bad value', () => {
    const json = '[{"x": 1, "y": 2, "team": "A"}, {"x": 3, "y": "4", "team": "B"}]';
    const scatter = fileChart({ src: 'asset:points.json', x: 'x', y: 'y', group: 'team' }, 'scatter');
    expect(chartData(scatter, () => json)!.series.map((series) => [series.name, series.points])).toEqual([
      ['A', [[1, 2]]],
      ['B', [[3, 4]]],
    ]);
    expect(() => parseDataTable('p.json', '{"x": 1}')).toThrow('p.json: expected a JSON array of objects');
    expect(() => chartData(scatter, () => '[{"x": 1, "y": true, "team": "A"}]')).toThrow(
      'asset:points.json: item 1, field "y": expected a number or a string',
    );
  });

  it('checks every chart before the render, inside groups too', () => {
    const model = {
      scenes: [{ elements: [{ type: 'group', children: [fileChart({})] }] }],
    } as unknown as VideoModel;
    expect(() => checkCharts(model, () => SALES)).toThrow(/line 4, column "cost"/);
  });
});
