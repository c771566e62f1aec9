import { z } from 'zod';
import { MediaSourceSchema, TrimSchema } from './primitives.ts';
import { TimeSchema } from './time.ts';

export const AudioTrackSchema = z.strictObject({
  src: MediaSourceSchema,
  start: TimeSchema.optional().describe(
    'When it starts: from the video start (top level) or the scene start.',
  ),
  trim: TrimSchema.optional().describe('Which part of the source plays.'),
  duration: TimeSchema.optional().describe(
    'How long it plays; default to its end (or the video end if looped).',
  ),
  volume: z.number().min(0).max(4).optional().describe('Gain, 1 = unchanged.'),
  fadeIn: TimeSchema.optional(),
  fadeOut: TimeSchema.optional(),
  loop: z.boolean().optional(),
});
export type AudioTrack = z.infer<typeof AudioTrackSchema>;
