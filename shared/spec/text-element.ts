// The text element's fields.
import { z } from 'zod';
import { ColorSchema } from './color.ts';
import { elementBaseShape } from './element-base.ts';
import { LengthSchema, ShadowSchema, StrokeSchema } from './primitives.ts';

export const TextElementSchema = z.strictObject({
  type: z.literal('text'),
  ...elementBaseShape,
  text: z.string().min(1).max(5000),
  font: z
    .string()
    .min(1)
    .max(100)
    .optional()
    .describe('"sans" (default), "serif", "mono", "display", or a family declared in the project fonts.'),
  weight: z
    .number()
    .int()
    .min(100)
    .max(900)
    .multipleOf(100)
    .optional()
    .describe('Default 700 (400 for display, which has one weight).'),
  italic: z.boolean().optional(),
  size: LengthSchema.optional().describe('Font size; default 72 design pixels.'),
  lineHeight: z.number().min(0.5).max(4).optional().describe('Multiple of the font size; default 1.15.'),
  letterSpacing: z.number().min(-0.5).max(2).optional().describe('In em; default 0.'),
  color: ColorSchema.optional().describe('Default white.'),
  align: z.enum(['left', 'center', 'right']).optional(),
  transform: z.enum(['none', 'uppercase', 'lowercase']).optional(),
  maxLines: z.number().int().min(1).max(100).optional(),
  stroke: StrokeSchema.optional(),
  textShadow: ShadowSchema.optional(),
  background: z
    .strictObject({
      color: ColorSchema,
      paddingX: LengthSchema.optional(),
      paddingY: LengthSchema.optional(),
      radius: z.union([LengthSchema, z.literal('pill')]).optional(),
    })
    .optional()
    .describe('A box or pill behind the text.'),
});
export type TextElement = z.infer<typeof TextElementSchema>;
