// A chart's data as drawn: inline series or a project data file read into labels and series, each
// with its colour, and the data at a moment, tweening from one update to the next.
import { easingFunction } from '../../animation/easing.ts';
import type { ChartElement } from '../../spec/chart-element.ts';
import { MAX_CHART_LABELS, MAX_CHART_SERIES } from '../../spec/chart-element.ts';
import type { ModelElement, VideoModel } from '../../spec/model.ts';
import { topLevelElements } from '../../spec/element-lists.ts';
import { timeToSeconds } from '../../spec/time.ts';
import { DataFileError, numberCell, parseDataTable } from './data-table.ts';
import type { DataTable } from './data-table.ts';

/**
 * Eight hues of even weight, mid lightness and moderate saturation: distinct from each other (and
 * for the common colour blindnesses, blue/orange first), legible on dark and on light backgrounds.
 */
export const CHART_PALETTE = [
  '#4c8df6',
  '#f5a524',
  '#2fbf8f',
  '#ef5b6b',
  '#9b72f2',
  '#26b5d4',
  '#f07ab6',
  '#a3b236',
] as const;

export type ChartPoint = readonly [number, number];

export interface ChartSeriesData {
  name: string;
  values: number[];
  points: ChartPoint[];
  color: string;
}

export interface ChartData {
  labels: string[];
  series: ChartSeriesData[];
}

/** A data file's text as the host loaded it (undefined while it is not loaded). */
export type DataFileText = (src: string) => string | undefined;

/** Reading a chart's data file failed: the fault, named by row and column. */
export class ChartDataError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ChartDataError';
  }
}

export const DEFAULT_UPDATE_SECONDS = 0.8;

function paletteColor(element: ChartElement, index: number): string {
  const colors = element.colors ?? CHART_PALETTE;
  return colors[index % colors.length]!;
}

/** Pie and donut colour their slices (labels); the other kinds their series. */
export function isRadial(element: Pick<ChartElement, 'kind'>): boolean {
  return element.kind === 'pie' || element.kind === 'donut';
}

function inlineData(element: ChartElement): ChartData {
  return {
    labels: element.labels ?? [],
    series: (element.series ?? []).map((series, index) => ({
      name: series.name,
      values: series.values ?? [],
      points: series.points ?? [],
      color: series.color ?? paletteColor(element, index),
    })),
  };
}

function column(table: DataTable, name: string, src: string, field: string): string {
  if (table.columns.includes(name)) return name;
  throw new DataFileError(
    `${src}: no column "${name}" (data.${field}); the columns are ${table.columns.map((c) => `"${c}"`).join(', ')}`,
  );
}

function scatterFromTable(element: ChartElement, table: DataTable, src: string): ChartData {
  const file = element.data!;
  const x = column(table, file.x!, src, 'x');
  const y = column(table, file.y!, src, 'y');
  const group = file.group === undefined ? undefined : column(table, file.group, src, 'group');
  const groups = new Map<string, ChartPoint[]>();
  for (const row of table.rows) {
    const name = group === undefined ? `${y}` : String(row.cells.get(group) ?? '');
    const points = groups.get(name) ?? [];
    points.push([numberCell(row, x, src), numberCell(row, y, src)]);
    groups.set(name, points);
  }
  if (groups.size > MAX_CHART_SERIES)
    throw new DataFileError(
      `${src}: ${groups.size} groups in "${group}", over the limit of ${MAX_CHART_SERIES}`,
    );
  return {
    labels: [],
    series: [...groups].map(([name, points], index) => ({
      name,
      values: [],
      points,
      color: paletteColor(element, index),
    })),
  };
}

function categoriesFromTable(element: ChartElement, table: DataTable, src: string): ChartData {
  const file = element.data!;
  const label = column(table, file.label ?? table.columns[0]!, src, 'label');
  const names = (file.series ?? table.columns.filter((name) => name !== label)).map((name) =>
    column(table, name, src, 'series'),
  );
  if (names.length === 0) throw new DataFileError(`${src}: no column left to chart besides "${label}"`);
  if (names.length > MAX_CHART_SERIES)
    throw new DataFileError(
      `${src}: ${names.length} series columns, over the limit of ${MAX_CHART_SERIES}; choose some with data.series`,
    );
  if (isRadial(element) && names.length > 1)
    throw new DataFileError(
      `${src}: a ${element.kind} chart shows one series; choose one column with data.series (of ${names.map((n) => `"${n}"`).join(', ')})`,
    );
  if (table.rows.length > MAX_CHART_LABELS)
    throw new DataFileError(
      `${src}: ${table.rows.length} rows, over the limit of ${MAX_CHART_LABELS} categories`,
    );
  return {
    labels: table.rows.map((row) => String(row.cells.get(label) ?? '')),
    series: names.map((name, index) => ({
      name,
      values: table.rows.map((row) => {
        const value = numberCell(row, name, src);
        if (isRadial(element) && value < 0)
          throw new DataFileError(
            `${src}: ${row.where}, column "${name}": pie and donut values cannot be negative`,
          );
        return value;
      }),
      points: [],
      color: paletteColor(element, index),
    })),
  };
}

const cache = new WeakMap<ChartElement, { text: string | undefined; data: ChartData | undefined }>();

/** The element's data; undefined while its data file is not loaded. Throws ChartDataError on a bad file. */
export function chartData(element: ChartElement, fileText: DataFileText): ChartData | undefined {
  const src = element.data?.src;
  const text = src === undefined ? undefined : fileText(src);
  const cached = cache.get(element);
  if (cached && cached.text === text) return cached.data;
  let data: ChartData | undefined;
  if (src === undefined) data = inlineData(element);
  else if (text !== undefined) {
    try {
      const table = parseDataTable(src, text);
      data =
        element.kind === 'scatter'
          ? scatterFromTable(element, table, src)
          : categoriesFromTable(element, table, src);
    } catch (error) {
      if (error instanceof DataFileError) throw new ChartDataError(error.message);
      throw error;
    }
  }
  cache.set(element, { text, data });
  return data;
}

/**
 * Reads every chart's data file once, so a bad file stops the render before its first frame with
 * the fault's row and column, instead of in the middle of drawing.
 */
export function checkCharts(model: VideoModel, fileText: DataFileText): void {
  const visit = (element: ModelElement) => {
    if (element.type === 'chart') chartData(element, fileText);
    if (element.type === 'group') element.children.forEach(visit);
  };
  topLevelElements(model).forEach(visit);
}

/** The data a chart shows at a moment: `from` and `to` with the eased share `t` of the way between. */
export interface ChartMoment {
  from: ChartData;
  to: ChartData;
  t: number;
}

function updated(base: ChartData, element: ChartElement, index: number): ChartData {
  const update = element.updates![index]!;
  return {
    labels: base.labels,
    series: base.series.map((series, at) => ({
      ...series,
      values: update.series[at]?.values ?? series.values,
      points: update.series[at]?.points ?? series.points,
    })),
  };
}

/** Where the data stands at `elementSeconds`: the last update begun, tweening from the one before. */
export function chartMoment(
  element: ChartElement,
  base: ChartData,
  elementSeconds: number,
  fps: number,
): ChartMoment {
  const updates = (element.updates ?? [])
    .map((update, index) => ({ index, at: timeToSeconds(update.at, fps), update }))
    .sort((a, b) => a.at - b.at);
  let from = base;
  let to = base;
  let t = 1;
  for (const { index, at, update } of updates) {
    if (elementSeconds < at) break;
    from = to;
    to = updated(base, element, index);
    const duration =
      update.duration === undefined ? DEFAULT_UPDATE_SECONDS : timeToSeconds(update.duration, fps);
    const linear = duration <= 0 ? 1 : Math.min(1, (elementSeconds - at) / duration);
    t = easingFunction(update.easing ?? 'inOut')(linear);
  }
  return { from, to, t };
}

const lerp = (a: number, b: number, t: number) => a + (b - a) * t;

/** The data between two moments: values and points mixed by `t`. */
export function mixData({ from, to, t }: ChartMoment): ChartData {
  if (t >= 1) return to;
  return {
    labels: to.labels,
    series: to.series.map((series, index) => {
      const before = from.series[index] ?? series;
      return {
        ...series,
        values: series.values.map((value, at) => lerp(before.values[at] ?? value, value, t)),
        points: series.points.map(([x, y], at) => {
          const [x0, y0] = before.points[at] ?? [x, y];
          return [lerp(x0, x, t), lerp(y0, y, t)] as const;
        }),
      };
    }),
  };
}
