// Building blocks shared by every part of the spec: lengths, positions, easing, animation, paint.
import { z } from 'zod';
import { ColorSchema } from './color.ts';
import { TimeSchema } from './time.ts';

/**
 * A length: a number is design pixels (pixels on a frame whose shorter side is 1080); a string may be
 * "64px", "50%" (of the containing box along that axis), "10vw", "10vh", "5vmin" or "5vmax".
 */
export const LENGTH_PATTERN = /^(-?\d+(?:\.\d+)?)(px|%|vw|vh|vmin|vmax)$/;
/** Design pixels beyond this are never a size anyone means, and would overflow the layout maths. */
export const MAX_LENGTH = 100_000;
export const LengthSchema = z
  .union([
    z.number().min(-MAX_LENGTH).max(MAX_LENGTH),
    z.string().regex(LENGTH_PATTERN, 'expected a length like 64, "64px", "50%", "10vw", "10vh" or "5vmin"'),
  ])
  .describe('A length: design pixels as a number, or "64px", "50%", "10vw", "10vh", "5vmin", "5vmax".');
export type Length = z.infer<typeof LengthSchema>;

/** A position: a number is a fraction of the containing box (0 = left/top, 1 = right/bottom). */
export const PositionSchema = z
  .union([
    z.number().finite().min(-2).max(3),
    z.string().regex(LENGTH_PATTERN, 'expected a fraction like 0.5, or a length like "120px" or "30%"'),
  ])
  .describe('A position: a fraction of the containing box (0..1), or a length from its left/top edge.');
export type Position = z.infer<typeof PositionSchema>;

export const AnchorSchema = z.enum([
  'center',
  'top',
  'bottom',
  'left',
  'right',
  'top-left',
  'top-right',
  'bottom-left',
  'bottom-right',
]);
export type Anchor = z.infer<typeof AnchorSchema>;

export const EASING_NAMES = [
  'linear',
  'smooth',
  'snappy',
  'gentle',
  'in',
  'out',
  'inOut',
  'back',
  'bounce',
  'elastic',
  'spring',
] as const;
export const EasingNameSchema = z.enum(EASING_NAMES);

export const SpringSchema = z.strictObject({
  stiffness: z.number().positive().max(10_000).optional(),
  damping: z.number().positive().max(1_000).optional(),
  mass: z.number().positive().max(100).optional(),
});
export type Spring = z.infer<typeof SpringSchema>;

export const EasingSchema = z
  .union([
    EasingNameSchema,
    z.strictObject({ spring: SpringSchema }),
    z.strictObject({
      cubicBezier: z.tuple([z.number().min(0).max(1), z.number(), z.number().min(0).max(1), z.number()]),
    }),
  ])
  .describe('An easing name, {spring: {stiffness, damping, mass}} or {cubicBezier: [x1, y1, x2, y2]}.');
export type Easing = z.infer<typeof EasingSchema>;

export const ANIMATION_PRESETS = [
  'fadeIn',
  'fadeOut',
  'slideIn',
  'slideOut',
  'slideFadeIn',
  'slideFadeOut',
  'pop',
  'scaleIn',
  'scaleOut',
  'blurIn',
  'blurOut',
  'maskWipeIn',
  'maskWipeOut',
  'maskRevealIn',
  'maskRevealOut',
  'flipIn',
  'flipOut',
  'rotateIn',
  'rotateOut',
  'dropIn',
  'bounceIn',
  'elasticIn',
  'shake',
  'spin',
  'float',
  'pulse',
  'rock',
  'glow',
  'drift',
  'kenBurns',
  'wordByWord',
  'typewriter',
] as const;
// The kinds here are those of shared/animation/presets.ts, which a test holds this text to.
export const AnimationPresetSchema = z
  .enum(ANIMATION_PRESETS)
  .describe(
    'Entrances (play once into place): fadeIn, slideIn, slideFadeIn, pop, scaleIn, blurIn, maskWipeIn, ' +
      'maskRevealIn, flipIn, rotateIn, dropIn, bounceIn, elasticIn, wordByWord, typewriter. ' +
      'Exits (end as the element leaves): fadeOut, slideOut, slideFadeOut, scaleOut, blurOut, maskWipeOut, ' +
      'maskRevealOut, flipOut, rotateOut. Emphasis (once, back to rest): shake. ' +
      'Loops (forever by default): spin, float, pulse, rock, glow. Lifetime: drift, kenBurns.',
  );
export type AnimationPreset = z.infer<typeof AnimationPresetSchema>;

export const DirectionSchema = z.enum(['left', 'right', 'up', 'down']);
export type Direction = z.infer<typeof DirectionSchema>;

/**
 * When an animation starts. "elementStart" (the default for all but exits) and "elementEnd" (the
 * default for exits, which then end as the element leaves) follow the element; "sceneStart"/"sceneEnd"
 * follow its scene; {at} is a time from the scene start; {after: id} starts when that element's
 * animations have all finished.
 */
export const TriggerSchema = z.union([
  z.enum(['elementStart', 'elementEnd', 'sceneStart', 'sceneEnd']),
  z.strictObject({ at: TimeSchema }),
  z.strictObject({ after: z.string().min(1) }),
]);
export type Trigger = z.infer<typeof TriggerSchema>;

export const AnimationSchema = z.strictObject({
  preset: AnimationPresetSchema,
  duration: TimeSchema.optional(),
  delay: TimeSchema.optional(),
  easing: EasingSchema.optional(),
  trigger: TriggerSchema.optional(),
  repeat: z
    .union([z.number().int().min(1).max(10_000), z.literal('forever')])
    .optional()
    .describe(
      'How many times the animation plays; loops (spin, float, pulse, rock, glow) default to forever.',
    ),
  stagger: TimeSchema.optional().describe('Delay between children of a group, or words of wordByWord.'),
  direction: DirectionSchema.optional().describe(
    'The way it moves (slides, drift, dropIn, maskReveal, shake), the edge a maskWipe starts from, or the axis a flip turns about (left/right: the vertical one).',
  ),
  distance: LengthSchema.optional().describe(
    'How far it moves, in design pixels or a length ("30%" is of the frame along the motion): slides 120, float 18, drift 60, dropIn 240, shake 16.',
  ),
  by: z
    .enum(['character', 'word'])
    .optional()
    .describe('typewriter: type a character (default) or a word at a time.'),
  rate: z
    .number()
    .positive()
    .max(1000)
    .optional()
    .describe('typewriter: characters (or words) a second; default 18 (4 by word). A duration overrides it.'),
  cursor: z
    .union([
      z.boolean(),
      z.strictObject({
        color: ColorSchema.optional().describe("Default the text's colour."),
        blink: z.boolean().optional().describe('Blink while not typing; default true.'),
      }),
    ])
    .optional()
    .describe('typewriter: a bar cursor after the last typed character.'),
  amount: z
    .number()
    .finite()
    .optional()
    .describe(
      'Strength: start scale for pop (0.5), scaleIn (0), bounceIn (0.3) and elasticIn (0), extra scale fraction for pulse (0.05) and kenBurns (0.15), degrees per turn for spin (360), degrees turned by rotateIn/Out (90) and either way by rock (6), blur radius for blurIn/Out (30), halo radius for glow (24).',
    ),
  color: ColorSchema.optional().describe('glow: the colour of the halo; default white.'),
});
export type Animation = z.infer<typeof AnimationSchema>;

export const ANIMATABLE_PROPERTIES = [
  'x',
  'y',
  'width',
  'height',
  'rotation',
  'scale',
  'opacity',
  'color',
  'fill',
  'size',
  'letterSpacing',
  'radius',
  'blur',
  'progress',
] as const;
export const AnimatablePropertySchema = z.enum(ANIMATABLE_PROPERTIES);
export type AnimatableProperty = z.infer<typeof AnimatablePropertySchema>;

export const KeyframeSchema = z.strictObject({
  at: TimeSchema.describe('Time from the element start.'),
  value: z.union([z.number().finite(), ColorSchema]),
  easing: EasingSchema.optional().describe('Easing from the previous keyframe to this one.'),
});
export type Keyframe = z.infer<typeof KeyframeSchema>;

export const KeyframesSchema = z.partialRecord(AnimatablePropertySchema, z.array(KeyframeSchema).min(1));
export type Keyframes = z.infer<typeof KeyframesSchema>;

export const GradientKindSchema = z.enum(['linear', 'radial']);
export const GradientSchema = z.strictObject({
  type: GradientKindSchema,
  colors: z.array(ColorSchema).min(2).max(16),
  stops: z
    .array(z.number().min(0).max(1))
    .optional()
    .describe('Positions of the colors, 0..1; evenly spaced when omitted.'),
  angle: z.number().finite().optional().describe('Linear: degrees, 0 = left to right, 90 = top to bottom.'),
  center: z
    .strictObject({ x: z.number(), y: z.number() })
    .optional()
    .describe('Radial: center as fractions.'),
  radius: z.number().positive().optional().describe('Radial: radius as a fraction of the diagonal.'),
});
export type Gradient = z.infer<typeof GradientSchema>;

export const PaintSchema = z.union([ColorSchema, GradientSchema]).describe('A color or a gradient.');
export type Paint = z.infer<typeof PaintSchema>;

export const StrokeSchema = z.strictObject({
  color: ColorSchema,
  width: LengthSchema,
  dash: z.array(z.number().nonnegative()).max(8).optional(),
});
export type Stroke = z.infer<typeof StrokeSchema>;

export const ShadowSchema = z.strictObject({
  color: ColorSchema,
  blur: LengthSchema.optional(),
  x: LengthSchema.optional(),
  y: LengthSchema.optional(),
});
export type Shadow = z.infer<typeof ShadowSchema>;

export const FitSchema = z.enum(['cover', 'contain', 'fill']);
export type Fit = z.infer<typeof FitSchema>;

/**
 * A media source: "asset:<path>" inside the render project, a path relative to the project, or an
 * http(s) URL that the project's media policy allows.
 */
export const MediaSourceSchema = z
  .string()
  .min(1)
  .max(2048)
  .refine((s) => !s.includes('\0'), 'must not contain NUL')
  .describe('"asset:<path>", a path relative to the project, or an allowed http(s) URL.');
export type MediaSource = z.infer<typeof MediaSourceSchema>;

export const TrimSchema = z.strictObject({ start: TimeSchema.optional(), end: TimeSchema.optional() });
export type Trim = z.infer<typeof TrimSchema>;
