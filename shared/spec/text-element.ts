// The text element's fields, and the text styling that counters and captions share with it.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { ColorSchema } from './color.ts';
import { elementBaseShape } from './element-base.ts';
import { LengthSchema, ShadowSchema, StrokeSchema } from './primitives.ts';
import { TimeSchema } from './time.ts';

export const TextBackgroundSchema = z
  .strictObject({
    color: ColorSchema,
    paddingX: LengthSchema.optional(),
    paddingY: LengthSchema.optional(),
    radius: z.union([LengthSchema, z.literal('pill')]).optional(),
  })
  .describe('A box or pill behind each line of text.');
export type TextBackground = z.infer<typeof TextBackgroundSchema>;

/** Font, size, colour and alignment: every element that draws text has these. */
export const textFontShape = {
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
};

/** Outline, shadow and backing box of text. */
export const textDecorationShape = {
  stroke: StrokeSchema.optional(),
  textShadow: ShadowSchema.optional(),
  background: TextBackgroundSchema.optional(),
};

export const WordIndexSchema = z.number().int().min(0).max(5000);

export const HighlightSchema = z
  .strictObject({
    words: z
      .union([WordIndexSchema, z.tuple([WordIndexSchema, WordIndexSchema])])
      .optional()
      .describe('A word by its index (from 0), or [first, last] inclusive.'),
    match: z
      .string()
      .min(1)
      .max(500)
      .optional()
      .describe('Highlights every occurrence of this text (case-sensitive).'),
    color: ColorSchema.optional().describe('The marker; default #fde047 (a highlighter yellow).'),
    textColor: ColorSchema.optional().describe(
      'The highlighted words; default black or white, whichever reads best on the marker.',
    ),
    start: TimeSchema.optional().describe(
      'When the marker starts its sweep, from the element start; default 0.3s.',
    ),
    duration: TimeSchema.optional().describe('How long the sweep takes; default 0.5s (0: no sweep).'),
  })
  .refine((span) => (span.words === undefined) !== (span.match === undefined), {
    message: 'give either "words" or "match"',
  })
  .refine((span) => !Array.isArray(span.words) || span.words[0] <= span.words[1], {
    message: 'words: [first, last] with first ≤ last',
    path: ['words'],
  })
  .describe('A marker swept behind chosen words.');
export type Highlight = z.infer<typeof HighlightSchema>;

export const TextElementSchema = withAspects(
  z.strictObject({
    type: z.literal('text'),
    ...elementBaseShape,
    text: z.string().min(1).max(5000),
    ...textFontShape,
    maxLines: z.number().int().min(1).max(100).optional(),
    ...textDecorationShape,
    highlight: z.array(HighlightSchema).max(16).optional().describe('Markers behind words or phrases.'),
  }),
);
export type TextElement = z.infer<typeof TextElementSchema>;
