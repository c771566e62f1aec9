// Annotations that point at things: arrows, callouts and spotlights. Each has a built-in entrance and
// exit (enterDuration, exitDuration), so a bare annotation already arrives and leaves as designed.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { ColorSchema } from './color.ts';
import { ELEMENT_ID_PATTERN, elementBaseShape } from './element-base.ts';
import { LengthSchema, PositionSchema } from './primitives.ts';
import { TimeSchema } from './time.ts';

/** Fields of the built-in entrance and exit, with the element's own defaults in their descriptions. */
export function buildTimingShape(enter: string, exit: string) {
  return {
    enterDuration: TimeSchema.optional().describe(`How long the built-in entrance takes: ${enter}. 0: none.`),
    exitDuration: TimeSchema.optional().describe(
      `How long the built-in exit takes, ending as the element ends: ${exit}. 0: none.`,
    ),
  };
}

export const PointSchema = z
  .strictObject({
    x: PositionSchema.describe('A fraction of the containing box (0 = left), or a length like "640px".'),
    y: PositionSchema.describe('A fraction of the containing box (0 = top), or a length like "360px".'),
  })
  .describe('A point in the box the element is laid out in (the safe area unless box is "frame").');
export type Point = z.infer<typeof PointSchema>;

const TargetIdSchema = z
  .string()
  .regex(ELEMENT_ID_PATTERN, 'an element id: a letter, then letters, digits, "-" and "_"')
  .describe('The id of an element in the same scene; the annotation follows it as it moves.');

const fontField = z
  .string()
  .min(1)
  .max(100)
  .optional()
  .describe('"sans" (default), "serif", "mono", "display", or a family declared in the project fonts.');

export const ARROW_HEADS = ['triangle', 'open', 'dot', 'none'] as const;

export const ArrowElementSchema = withAspects(
  z.strictObject({
    type: z.literal('arrow'),
    ...elementBaseShape,
    from: PointSchema.describe('Where the arrow starts (its tail).'),
    to: PointSchema.describe('Where the arrow points (its tip).'),
    curve: z
      .number()
      .min(-1)
      .max(1)
      .optional()
      .describe(
        'Bend: the curve bows sideways by this fraction of the arrow length (0.3 is a gentle arc); positive bows to the left of the direction of travel, negative to the right. Default 0 (straight).',
      ),
    color: ColorSchema.optional().describe('Line and head colour; default white.'),
    thickness: LengthSchema.optional().describe('Line width; default 6 design pixels.'),
    dash: z
      .array(z.number().nonnegative().max(1000))
      .max(8)
      .optional()
      .describe('Dash pattern in design pixels, like [18, 12]; default solid.'),
    head: z
      .enum(ARROW_HEADS)
      .optional()
      .describe('Head shape: "triangle" (default, filled), "open" (two strokes), "dot" or "none".'),
    heads: z
      .enum(['end', 'start', 'both'])
      .optional()
      .describe('Which ends carry a head; default "end" (the tip).'),
    headSize: LengthSchema.optional().describe('Head length; default 4.5 times the thickness.'),
    ...buildTimingShape(
      'default 0.7s, the line draws along its length, then the head pops in',
      'default 0.4s, the line retracts into its tip',
    ),
  }),
);
export type ArrowElement = z.infer<typeof ArrowElementSchema>;

export const CalloutElementSchema = withAspects(
  z.strictObject({
    type: z.literal('callout'),
    ...elementBaseShape,
    text: z.string().min(1).max(500).describe('What the callout says.'),
    target: z
      .union([PointSchema, TargetIdSchema])
      .describe(
        'What the pointer points at: a point {x, y} in the containing box, or the id of an element in the same scene (the pointer follows it as it moves).',
      ),
    color: ColorSchema.optional().describe('Text colour; default #0f172a (near black).'),
    background: ColorSchema.optional().describe('Box colour; default white.'),
    accent: ColorSchema.optional().describe('Pointer line and target dot; default #f59e0b (amber).'),
    font: fontField,
    size: LengthSchema.optional().describe('Font size; default 34 design pixels.'),
    weight: z
      .number()
      .int()
      .min(100)
      .max(900)
      .multipleOf(100)
      .optional()
      .describe('Font weight; default 600.'),
    radius: LengthSchema.optional().describe('Box corner radius; default 18 design pixels.'),
    padding: LengthSchema.optional().describe('Space between the box edge and the text; default 0.7 em.'),
    ...buildTimingShape(
      'default 0.8s, the target dot pops, the pointer draws out to the box, the box rises in',
      'default 0.4s, the box sinks away and the pointer retracts',
    ),
  }),
);
export type CalloutElement = z.infer<typeof CalloutElementSchema>;

export const SpotlightElementSchema = withAspects(
  z.strictObject({
    type: z.literal('spotlight'),
    ...elementBaseShape,
    shape: z
      .enum(['circle', 'rect'])
      .optional()
      .describe(
        'The lit hole: "circle" (default; an ellipse when width and height differ) or "rect" (rounded).',
      ),
    target: TargetIdSchema.optional().describe(
      "The id of an element in the same scene to light; the hole follows its box (plus padding). Without it, the hole is the spotlight's own box: x, y, width, height, keyframable.",
    ),
    padding: LengthSchema.optional().describe(
      "Room around the target's box, with a target; default 24 design pixels.",
    ),
    dim: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe('Opacity of the darkening outside the hole; default 0.7.'),
    color: ColorSchema.optional().describe('The darkening colour; default #020617 (near black).'),
    feather: LengthSchema.optional().describe('Softness of the hole edge; default 32 design pixels.'),
    radius: LengthSchema.optional().describe('Rect hole corner radius; default 24 design pixels.'),
    ...buildTimingShape(
      'default 0.8s, the dim fades in as the hole closes in from wide',
      'default 0.5s, the dim fades out as the hole opens',
    ),
  }),
);
export type SpotlightElement = z.infer<typeof SpotlightElementSchema>;
