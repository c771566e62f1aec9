// Fields every element has: placement, timing and animation.
import { z } from 'zod';
import {
  AnchorSchema,
  AnimationSchema,
  KeyframesSchema,
  LengthSchema,
  PositionSchema,
  ShadowSchema,
} from './primitives.ts';
import { TimeSchema } from './time.ts';

export const ELEMENT_ID_PATTERN = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

export const elementBaseShape = {
  id: z
    .string()
    .regex(ELEMENT_ID_PATTERN, 'ids start with a letter and hold letters, digits, "-" and "_"')
    .optional(),
  x: PositionSchema.optional().describe('Horizontal position of the anchor; default 0.5 (centre).'),
  y: PositionSchema.optional().describe('Vertical position of the anchor; default 0.5 (centre).'),
  anchor: AnchorSchema.optional().describe('Which point of the element sits at (x, y); default centre.'),
  width: LengthSchema.optional(),
  height: LengthSchema.optional(),
  box: z
    .enum(['safe', 'frame'])
    .optional()
    .describe('Lay out inside the safe area (default) or the full frame.'),
  rotation: z.number().finite().optional().describe('Degrees, clockwise.'),
  scale: z.number().finite().nonnegative().optional(),
  opacity: z.number().min(0).max(1).optional(),
  shadow: ShadowSchema.optional(),
  start: TimeSchema.optional().describe('When the element appears, from the scene start; default 0.'),
  duration: TimeSchema.optional().describe('How long it stays; default until the scene ends.'),
  animate: z.array(AnimationSchema).max(32).optional(),
  keyframes: KeyframesSchema.optional(),
};

export const ElementBaseSchema = z.strictObject(elementBaseShape);
export type ElementBase = z.infer<typeof ElementBaseSchema>;
