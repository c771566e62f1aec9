// Elements that show a picture or a video file.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { ColorSchema } from './color.ts';
import { elementBaseShape } from './element-base.ts';
import { FitSchema, LengthSchema, MediaSourceSchema, TrimSchema } from './primitives.ts';

export const ImageElementSchema = withAspects(
  z.strictObject({
    type: z.literal('image'),
    ...elementBaseShape,
    src: MediaSourceSchema,
    fit: FitSchema.optional().describe('Default cover.'),
    radius: LengthSchema.optional().describe('Rounded corners.'),
    border: z.strictObject({ color: ColorSchema, width: LengthSchema }).optional(),
    kenBurns: z
      .union([
        z.boolean(),
        z.strictObject({
          zoom: z.number().min(1).max(3).optional().describe('End zoom, default 1.15.'),
          direction: z.enum(['left', 'right', 'up', 'down']).optional(),
        }),
      ])
      .optional()
      .describe('A slow zoom and pan of the picture inside its box over the element lifetime.'),
  }),
  { fixed: ['src'] },
);
export type ImageElement = z.infer<typeof ImageElementSchema>;

export const ClipElementSchema = withAspects(
  z.strictObject({
    type: z.literal('clip'),
    ...elementBaseShape,
    src: MediaSourceSchema,
    trim: z.optional(TrimSchema).describe('Which part of the source plays.'),
    fit: FitSchema.optional().describe('Default cover.'),
    rate: z.number().min(0.25).max(4).optional().describe('Playback rate, default 1.'),
    loop: z.boolean().optional().describe('Loop the trimmed part when the element outlasts it.'),
    muted: z.boolean().optional().describe("Mute the clip's own audio (default: mixed in)."),
    volume: z.number().min(0).max(4).optional().describe('Gain of its own audio, default 1.'),
    radius: LengthSchema.optional(),
    border: z.strictObject({ color: ColorSchema, width: LengthSchema }).optional(),
  }),
  { fixed: ['src', 'trim', 'rate', 'loop', 'muted', 'volume'] },
);
export type ClipElement = z.infer<typeof ClipElementSchema>;
