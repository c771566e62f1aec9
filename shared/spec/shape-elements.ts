// Vector shapes: rect (optionally rounded), ellipse, line and SVG path.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { elementBaseShape } from './element-base.ts';
import { LengthSchema, PaintSchema, PositionSchema, StrokeSchema } from './primitives.ts';

const paintFields = {
  fill: PaintSchema.optional(),
  stroke: StrokeSchema.optional(),
};

export const RectElementSchema = withAspects(
  z.strictObject({
    type: z.literal('rect'),
    ...elementBaseShape,
    ...paintFields,
    radius: LengthSchema.optional().describe('Corner radius; a rounded rect when set.'),
  }),
);
export type RectElement = z.infer<typeof RectElementSchema>;

export const EllipseElementSchema = withAspects(
  z.strictObject({
    type: z.literal('ellipse'),
    ...elementBaseShape,
    ...paintFields,
  }),
);
export type EllipseElement = z.infer<typeof EllipseElementSchema>;

export const LineElementSchema = withAspects(
  z.strictObject({
    type: z.literal('line'),
    ...elementBaseShape,
    x2: PositionSchema.describe('End point; (x, y) is the start.'),
    y2: PositionSchema,
    stroke: StrokeSchema,
    cap: z.enum(['butt', 'round', 'square']).optional(),
    progress: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('How much of the line is drawn (animate it to draw on).'),
  }),
);
export type LineElement = z.infer<typeof LineElementSchema>;

export const PathElementSchema = withAspects(
  z.strictObject({
    type: z.literal('path'),
    ...elementBaseShape,
    ...paintFields,
    d: z.string().min(1).max(20_000).describe('SVG path data.'),
    viewBox: z
      .strictObject({ width: z.number().positive(), height: z.number().positive() })
      .optional()
      .describe("The path's coordinate space, scaled to the element's width and height; default 100×100."),
  }),
);
export type PathElement = z.infer<typeof PathElementSchema>;
