// Output sizes. Layout is relative to the frame, so one spec renders in every aspect.
import { z } from 'zod';

export const ASPECTS = {
  reels: { width: 1080, height: 1920 },
  square: { width: 1080, height: 1080 },
  landscape: { width: 1920, height: 1080 },
  portrait45: { width: 1080, height: 1350 },
} as const;

export type AspectName = keyof typeof ASPECTS;
export const ASPECT_NAMES = Object.keys(ASPECTS) as AspectName[];

export const AspectNameSchema = z.enum(['reels', 'square', 'landscape', 'portrait45']);

const EvenDimension = z
  .number()
  .int()
  .min(16)
  .max(7680)
  .refine((n) => n % 2 === 0, 'must be even (H.264 with yuv420p needs even dimensions)');

export const AspectSchema = z.union([
  AspectNameSchema,
  z.strictObject({ width: EvenDimension, height: EvenDimension }),
]);
export type Aspect = z.infer<typeof AspectSchema>;

export interface FrameSize {
  width: number;
  height: number;
}

export function resolveAspect(aspect: Aspect): FrameSize {
  return typeof aspect === 'string' ? { ...ASPECTS[aspect] } : { width: aspect.width, height: aspect.height };
}

/** Frames whose height-to-width ratios differ by less than this have the same shape (sizes are even). */
const SHAPE_TOLERANCE = 0.01;

/** Whether two frames have the same shape: a draft render at half size has its aspect's shape. */
export function sameShape(a: FrameSize, b: FrameSize): boolean {
  return Math.abs(a.height / a.width - b.height / b.width) < SHAPE_TOLERANCE;
}

/** The named aspect a frame size has the shape of (540×960 is reels), if any. */
export function aspectOfSize(size: FrameSize): AspectName | undefined {
  return ASPECT_NAMES.find((name) => sameShape(size, ASPECTS[name]));
}

/**
 * Design pixels are pixels on a frame whose shorter side is 1080, so the standard aspects draw
 * lengths 1:1 and custom sizes scale them.
 */
export function designScale(size: FrameSize): number {
  return Math.min(size.width, size.height) / 1080;
}

export interface Insets {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/**
 * Safe area as fractions of the frame. For reels it keeps clear of the platform UI: the caption and
 * buttons at the bottom, the action rail at the right and the header at the top.
 */
export function safeAreaInsets(size: FrameSize): Insets {
  const ratio = size.height / size.width;
  // Symmetric sides keep centred layouts centred; the action rail is checked by review (unsafe_area).
  if (ratio >= 1.6) return { top: 0.11, right: 0.1, bottom: 0.2, left: 0.1 };
  if (ratio >= 1.2) return { top: 0.07, right: 0.07, bottom: 0.09, left: 0.07 };
  if (ratio >= 0.9) return { top: 0.07, right: 0.07, bottom: 0.08, left: 0.07 };
  return { top: 0.08, right: 0.06, bottom: 0.1, left: 0.06 };
}

/** The platform UI zones of a reels frame, where text is covered by the app's own controls. */
export function reelsUnsafeZones(size: FrameSize): { x: number; y: number; width: number; height: number }[] {
  const { width, height } = size;
  return [
    { x: 0, y: 0, width, height: height * 0.08 },
    { x: 0, y: height * 0.82, width, height: height * 0.18 },
    { x: width * 0.88, y: height * 0.45, width: width * 0.12, height: height * 0.37 },
  ];
}
