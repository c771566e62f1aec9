import { z } from 'zod';
import { ColorSchema } from '../spec/color.ts';
import { elementBaseShape } from '../spec/element-base.ts';
import { FitSchema, LengthSchema, MediaSourceSchema } from '../spec/primitives.ts';
import { defineElement } from './definition.ts';
import { drawMedia, mediaIntrinsicSize } from './media-draw.ts';

export const ImageElementSchema = z.strictObject({
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
});
export type ImageElement = z.infer<typeof ImageElementSchema>;

export const imageElement = defineElement<ImageElement>({
  type: 'image',
  schema: ImageElementSchema,
  builder: { name: 'image', positional: 'src' },
  media: (element) => ({ images: [element.src], videos: [] }),
  intrinsicSize: (element, env, maxWidth, maxHeight) =>
    mediaIntrinsicSize(env.media.image(element.src), maxWidth, maxHeight),
  draw: (args) => drawMedia(args, args.env.media.image(args.element.src)),
});
