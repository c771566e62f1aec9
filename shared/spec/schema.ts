// The video spec, version 1: the one model that JSON specs and code compositions both produce.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { ElementSchema } from './elements.ts';
import { AudioTrackSchema } from './audio.ts';
import { BackgroundSchema } from './background.ts';
import { DirectionSchema, EasingSchema, MediaSourceSchema } from './primitives.ts';
import { AspectSchema } from './sizes.ts';
import { TimeSchema } from './time.ts';
import { VariablesSchema } from './variable-schema.ts';

export const TRANSITION_TYPES = ['cut', 'crossFade', 'wipe', 'slide', 'zoom', 'flip', 'clockWipe'] as const;
export const TransitionTypeSchema = z.enum(TRANSITION_TYPES);
export type TransitionType = z.infer<typeof TransitionTypeSchema>;

export const TransitionSchema = z.strictObject({
  type: TransitionTypeSchema,
  duration: TimeSchema.optional().describe('Overlap with the previous scene; default 0.6s (0 for cut).'),
  easing: EasingSchema.optional(),
  direction: DirectionSchema.optional().describe('wipe and slide: where the new scene comes from.'),
});
export type Transition = z.infer<typeof TransitionSchema>;

// A scene's aspects patch how it looks (background, transition, hold); its duration and sound are the
// same in every aspect, so every output of a video lasts and sounds the same, and its elements carry
// their own overrides.
export const SceneSchema = withAspects(
  z.strictObject({
    id: z.string().min(1).max(64).optional(),
    duration: TimeSchema,
    background: BackgroundSchema.optional(),
    transition: TransitionSchema.optional().describe(
      'How this scene enters over the end of the previous one.',
    ),
    elements: z.array(ElementSchema).max(500).optional(),
    audio: z
      .array(AudioTrackSchema)
      .max(64)
      .optional()
      .describe('Sound effects, timed from the scene start.'),
    hold: z.boolean().optional().describe('A deliberate still: review does not flag it as frozen.'),
  }),
  { fixed: ['duration', 'elements', 'audio'], owner: 'scene' },
);
export type Scene = z.infer<typeof SceneSchema>;

export const FontFaceSchema = z.strictObject({
  family: z.string().min(1).max(100),
  src: MediaSourceSchema,
  weight: z.number().int().min(100).max(900).optional(),
  italic: z.boolean().optional(),
});
export type FontFace = z.infer<typeof FontFaceSchema>;

export const VideoSpecSchema = z
  .strictObject({
    $schema: z.string().optional(),
    kinoSpec: z.literal(1),
    title: z.string().max(200).optional(),
    variables: VariablesSchema.optional().describe(
      'Makes the spec a template: typed variables used as "{{name}}" in strings or {"var": "name"} for a whole value, bound by each render (and removed from the spec it renders).',
    ),
    fps: z.number().int().min(1).max(120).optional().describe('Frames per second; default 30.'),
    aspect: AspectSchema.optional().describe('Default "reels" (1080×1920).'),
    background: BackgroundSchema.optional().describe('Default background of every scene.'),
    fonts: z.array(FontFaceSchema).max(64).optional(),
    audio: z
      .array(AudioTrackSchema)
      .max(64)
      .optional()
      .describe('Music and sound, timed from the video start.'),
    overlays: z
      .array(ElementSchema)
      .max(100)
      .optional()
      .describe(
        'Elements over the whole video (captions, a logo, a progress bar): start and duration count from the video start (default: all of it), drawn above every scene and untouched by transitions.',
      ),
    scenes: z.array(SceneSchema).min(1).max(500),
  })
  .describe('A Kino video spec, version 1.');
export type VideoSpec = z.infer<typeof VideoSpecSchema>;

export const DEFAULT_FPS = 30;
export const DEFAULT_BACKGROUND = '#0b0d12';
