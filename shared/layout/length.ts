// Turning spec lengths and positions into real pixels.
import type { FrameSize } from '../spec/sizes.ts';
import { LENGTH_PATTERN } from '../spec/primitives.ts';
import type { Length, Position } from '../spec/primitives.ts';

export interface LengthContext {
  frame: FrameSize;
  /** Design pixels to real pixels. */
  scale: number;
}

/** A length in real pixels; `reference` is the containing box's size along the same axis (for %). */
export function resolveLength(length: Length, reference: number, context: LengthContext): number {
  if (typeof length === 'number') return length * context.scale;
  const match = LENGTH_PATTERN.exec(length);
  if (!match) return 0;
  const value = Number(match[1]);
  const { width, height } = context.frame;
  switch (match[2]) {
    case 'px':
      return value * context.scale;
    case '%':
      return (value / 100) * reference;
    case 'vw':
      return (value / 100) * width;
    case 'vh':
      return (value / 100) * height;
    case 'vmin':
      return (value / 100) * Math.min(width, height);
    case 'vmax':
      return (value / 100) * Math.max(width, height);
    default:
      return 0;
  }
}

/** A position along an axis of a box starting at `origin` with `extent` pixels. */
export function resolvePosition(
  position: Position,
  origin: number,
  extent: number,
  context: LengthContext,
): number {
  if (typeof position === 'number') return origin + position * extent;
  return origin + resolveLength(position, extent, context);
}
