import { z } from 'zod';
import { ColorSchema } from '../spec/color.ts';
import { elementBaseShape } from '../spec/element-base.ts';
import { FitSchema, LengthSchema, MediaSourceSchema, TrimSchema } from '../spec/primitives.ts';
import { defineElement } from './definition.ts';
import { drawMedia } from './media-draw.ts';

export const ClipElementSchema = z.strictObject({
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
});
export type ClipElement = z.infer<typeof ClipElementSchema>;

export const clipElement = defineElement<ClipElement>({
  type: 'clip',
  schema: ClipElementSchema,
  builder: { name: 'clip', positional: 'src' },
  media: (element) => ({ images: [], videos: [element.src] }),
  intrinsicSize: (_element, _env, maxWidth, maxHeight) => ({ width: maxWidth, height: maxHeight }),
  draw: (args) => drawMedia(args, args.env.media.videoFrame(args.key)),
});
