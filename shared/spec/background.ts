import { z } from 'zod';
import { ColorSchema } from './color.ts';
import { FitSchema, GradientSchema, MediaSourceSchema, TrimSchema } from './primitives.ts';

const dim = z
  .number()
  .min(0)
  .max(1)
  .optional()
  .describe('Darkens the media by this fraction, for legible text.');

export const BackgroundSchema = z.union([
  ColorSchema,
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('color'), color: ColorSchema }),
    GradientSchema.extend({
      animate: z.boolean().optional().describe('Slowly rotates a linear gradient or drifts a radial one.'),
    }),
    z.strictObject({
      type: z.literal('image'),
      src: MediaSourceSchema,
      fit: FitSchema.optional(),
      kenBurns: z.boolean().optional(),
      dim,
    }),
    z.strictObject({
      type: z.literal('video'),
      src: MediaSourceSchema,
      fit: FitSchema.optional(),
      trim: TrimSchema.optional(),
      rate: z.number().min(0.25).max(4).optional(),
      loop: z.boolean().optional(),
      dim,
    }),
    z.strictObject({
      type: z.literal('noise'),
      color: ColorSchema.optional().describe('The base color under the grain.'),
      grain: z.number().min(0).max(1).optional().describe('Grain strength, default 0.12.'),
      scale: z.number().min(1).max(64).optional().describe('Grain size in pixels, default 2.'),
      animated: z.boolean().optional().describe('New grain every frame (default true).'),
      seed: z.number().int().optional(),
    }),
  ]),
]);
export type Background = z.infer<typeof BackgroundSchema>;
