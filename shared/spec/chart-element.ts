// The chart element: bar, line, area, pie, donut and scatter charts of inline data or of a project CSV
// or JSON file, built on with an animation and tweened to new values by timed updates. Geometry and
// drawing are shared/elements' part (chart-geometry.ts, chart-draw.ts).
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { ColorSchema } from './color.ts';
import { CounterFormatSchema, MAX_COUNTER_VALUE } from './counter-element.ts';
import { elementBaseShape } from './element-base.ts';
import { EasingSchema, LengthSchema, MediaSourceSchema } from './primitives.ts';
import { TimeSchema } from './time.ts';

export const CHART_KINDS = ['bar', 'line', 'area', 'pie', 'donut', 'scatter'] as const;
export type ChartKind = (typeof CHART_KINDS)[number];

/** More categories than this no longer read as a chart on a video frame. */
export const MAX_CHART_LABELS = 100;
export const MAX_CHART_SERIES = 12;
export const MAX_CHART_POINTS = 1000;
export const MAX_CHART_UPDATES = 50;

const ChartValueSchema = z.number().finite().min(-MAX_COUNTER_VALUE).max(MAX_COUNTER_VALUE);
const ChartPointSchema = z.tuple([ChartValueSchema, ChartValueSchema]).describe('An [x, y] pair.');
const ColumnSchema = z.string().min(1).max(100);

export const ChartSeriesSchema = z
  .strictObject({
    name: z.string().min(1).max(80).describe('Shown in the legend.'),
    values: z
      .array(ChartValueSchema)
      .max(MAX_CHART_LABELS)
      .optional()
      .describe('One value per label (bar, line, area, pie, donut).'),
    points: z
      .array(ChartPointSchema)
      .max(MAX_CHART_POINTS)
      .optional()
      .describe('Scatter only: the [x, y] points.'),
    color: ColorSchema.optional().describe('Default: the next colour of `colors` (or the built-in palette).'),
  })
  .describe('One data series.');
export type ChartSeries = z.infer<typeof ChartSeriesSchema>;

export const ChartDataFileSchema = z
  .strictObject({
    src: MediaSourceSchema.describe(
      'A CSV file (first row: column names) or a JSON array of objects: "asset:data/sales.csv" or a project path.',
    ),
    label: ColumnSchema.optional().describe('The column naming each category; default the first column.'),
    series: z
      .array(ColumnSchema)
      .min(1)
      .max(MAX_CHART_SERIES)
      .optional()
      .describe('The columns to chart, one series each, named after the column; default every other column.'),
    x: ColumnSchema.optional().describe('Scatter: the column of x values (required for scatter).'),
    y: ColumnSchema.optional().describe('Scatter: the column of y values (required for scatter).'),
    group: ColumnSchema.optional().describe('Scatter: a column whose values split the points into series.'),
  })
  .describe(
    'Chart data read from a project file, checked before the render: a bad cell names its row and column.',
  );
export type ChartDataFile = z.infer<typeof ChartDataFileSchema>;

const UpdateSeriesSchema = z.strictObject({
  values: z.array(ChartValueSchema).max(MAX_CHART_LABELS).optional(),
  points: z.array(ChartPointSchema).max(MAX_CHART_POINTS).optional(),
});

export const ChartUpdateSchema = z
  .strictObject({
    at: TimeSchema.describe('When the change starts, from the element start.'),
    series: z
      .array(UpdateSeriesSchema)
      .min(1)
      .max(MAX_CHART_SERIES)
      .describe(
        'New data for each series, in the order of the chart series: the same number of values (or points) as before.',
      ),
    duration: TimeSchema.optional().describe('How long the tween takes; default 0.8s.'),
    easing: EasingSchema.optional().describe('Default "inOut".'),
  })
  .describe('A change of data at a time: bars, lines, slices and the value axis tween to it.');
export type ChartUpdate = z.infer<typeof ChartUpdateSchema>;

export const ChartElementSchema = withAspects(
  z.strictObject({
    type: z.literal('chart'),
    ...elementBaseShape,
    kind: z
      .enum(CHART_KINDS)
      .describe('bar, line, area, pie, donut (a pie with a hole) or scatter (x/y points).'),
    labels: z
      .array(z.string().max(60))
      .max(MAX_CHART_LABELS)
      .optional()
      .describe('The categories: bar groups, points along a line or area, pie slices.'),
    series: z.array(ChartSeriesSchema).min(1).max(MAX_CHART_SERIES).optional().describe('Inline data.'),
    data: ChartDataFileSchema.optional(),
    horizontal: z.boolean().optional().describe('Bar: bars run left to right, labels down the side.'),
    stacked: z
      .boolean()
      .optional()
      .describe('Bar and area: series stack on each other instead of side by side.'),
    curve: z
      .enum(['linear', 'smooth', 'step'])
      .optional()
      .describe('Line and area: straight segments, a smooth curve through the points (default) or steps.'),
    colors: z
      .array(ColorSchema)
      .min(1)
      .max(MAX_CHART_SERIES)
      .optional()
      .describe('The palette, in series order (slice order for pie and donut); default a built-in palette.'),
    color: ColorSchema.optional().describe('Text, axes and gridlines; default a soft white.'),
    font: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('Text font: "sans" (default), "serif", "mono", "display" or a project font.'),
    size: LengthSchema.optional().describe('Text size of labels and ticks; default 34 design pixels.'),
    legend: z
      .enum(['top', 'bottom', 'none'])
      .optional()
      .describe(
        'Where the legend sits; default top when there are several series (or pie and donut slices).',
      ),
    valueLabels: z
      .enum(['value', 'share', 'none'])
      .optional()
      .describe(
        'Numbers on bars and slices: the value, its share of the total (pie, donut) or stack, or none. Default value for bars, share for pie and donut, none for the rest.',
      ),
    grid: z.boolean().optional().describe('Gridlines across the plot at the value ticks; default true.'),
    min: ChartValueSchema.optional().describe(
      'Value axis start; default 0 or the data minimum, rounded to a tick.',
    ),
    max: ChartValueSchema.optional().describe('Value axis end; default the data maximum, rounded to a tick.'),
    ticks: z.number().int().min(2).max(20).optional().describe('About how many value ticks; default 5.'),
    innerRadius: z
      .number()
      .min(0)
      .max(0.95)
      .optional()
      .describe('Donut: the hole as a fraction of the radius; default 0.6.'),
    radius: z.number().min(0).max(200).optional().describe('Bar corner radius in design pixels; default 6.'),
    lineWidth: z
      .number()
      .min(0.5)
      .max(40)
      .optional()
      .describe('Line and area stroke in design pixels; default 5.'),
    dots: z.boolean().optional().describe('Line: a dot on each point; default true.'),
    locale: z
      .string()
      .min(2)
      .max(35)
      .optional()
      .describe('A BCP 47 locale for numbers, like "en-US" or "de-DE"; default "en-US".'),
    format: CounterFormatSchema.optional().describe('Intl.NumberFormat options for values and ticks.'),
    buildDelay: TimeSchema.optional().describe('When the build starts, from the element start; default 0.'),
    buildDuration: TimeSchema.optional().describe(
      'How long each item takes to build (bars grow, lines draw, slices sweep, points pop); default 1.2s; 0 shows it built.',
    ),
    stagger: TimeSchema.optional().describe(
      'Delay between one item (bar group, series, point) and the next; default 0.08s.',
    ),
    easing: EasingSchema.optional().describe('Build easing; default "out".'),
    updates: z.array(ChartUpdateSchema).max(MAX_CHART_UPDATES).optional(),
  }),
  {
    fixed: ['data'],
    refine: (chart, context) => {
      checkChartData(chart, context);
      try {
        new Intl.NumberFormat(chart.locale ?? 'en-US', chart.format);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const path =
          chart.locale !== undefined && /locale|language tag/i.test(reason) ? ['locale'] : ['format'];
        context.addIssue({ code: 'custom', message: `Intl.NumberFormat refuses it: ${reason}`, path });
      }
    },
  },
);
export type ChartElement = z.infer<typeof ChartElementSchema>;

type ChartFields = Omit<ChartElement, 'type'>;

function checkChartData(chart: ChartFields, context: z.RefinementCtx): void {
  const issue = (message: string, path: (string | number)[]) =>
    context.addIssue({ code: 'custom', message, path });
  if ((chart.series === undefined) === (chart.data === undefined)) {
    issue('give the data inline as "series" or from a file as "data", one of the two', ['series']);
    return;
  }
  const scatter = chart.kind === 'scatter';
  if (chart.data) {
    if (scatter && (chart.data.x === undefined || chart.data.y === undefined))
      issue('a scatter chart from a file needs the "x" and "y" columns', ['data']);
    if (!scatter && (chart.data.x ?? chart.data.y ?? chart.data.group) !== undefined)
      issue('"x", "y" and "group" are for scatter charts; use "label" and "series"', ['data']);
    if (chart.updates?.length) issue('updates need inline "series" data', ['updates']);
    return;
  }
  const series = chart.series ?? [];
  const labelCount = chart.labels?.length ?? 0;
  if (!scatter && chart.labels === undefined) issue(`a ${chart.kind} chart needs "labels"`, ['labels']);
  if ((chart.kind === 'pie' || chart.kind === 'donut') && series.length > 1)
    issue(`a ${chart.kind} chart shows one series; give one, with a value per slice`, ['series']);
  series.forEach((one, index) => {
    if (scatter) {
      if (!one.points) issue('a scatter series needs "points": [[x, y], ...]', ['series', index, 'points']);
      if (one.values) issue('scatter series take "points", not "values"', ['series', index, 'values']);
      return;
    }
    if (one.points) issue('"points" are for scatter charts; give "values"', ['series', index, 'points']);
    if (!one.values) issue('the series needs "values", one per label', ['series', index, 'values']);
    else if (one.values.length !== labelCount)
      issue(`${one.values.length} values for ${labelCount} labels; give one value per label`, [
        'series',
        index,
        'values',
      ]);
    if ((chart.kind === 'pie' || chart.kind === 'donut') && one.values?.some((value) => value < 0))
      issue('pie and donut values cannot be negative', ['series', index, 'values']);
  });
  chart.updates?.forEach((update, at) => {
    if (update.series.length !== series.length)
      issue(`${update.series.length} series for a chart of ${series.length}; give new data for each`, [
        'updates',
        at,
        'series',
      ]);
    update.series.forEach((next, index) => {
      const before = series[index];
      if (!before) return;
      const field = scatter ? 'points' : 'values';
      const count = (scatter ? before.points : before.values)?.length ?? 0;
      const given = next[field];
      if (given === undefined || given.length !== count)
        issue(`give ${count} ${field}, as many as the series has, so each one tweens`, [
          'updates',
          at,
          'series',
          index,
          field,
        ]);
    });
  });
}
