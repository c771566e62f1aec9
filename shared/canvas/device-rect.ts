// Where a box lands on the frame under a transform: what a layer or a clip around it needs, what
// review reads of a drawn element, and what an annotation sees of the element it points at.
import type { Box, Ctx2D, Transform2D } from './types.ts';

/** A rectangle on the frame by its edges, in device pixels: x0/y0 top left, x1/y1 bottom right. */
export interface FrameRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A FrameRect on whole pixels (x1/y1 exclusive), kept to the canvas. */
export type DeviceRect = FrameRect;

/** The bounds of a box's four corners carried through a transform: unrounded, not kept to the frame. */
export function transformedBounds(box: Box, m: Transform2D): FrameRect {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ] as const) {
    xs.push(m.a * x + m.c * y + m.e);
    ys.push(m.b * x + m.d * y + m.f);
  }
  return { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
}

/** How a DeviceRect is taken from bounds: moved by x/y, grown by `grow` on every side. */
export interface DeviceShift {
  x: number;
  y: number;
  grow: number;
}

/**
 * The device-pixel bounds of a box under the canvas's current transform, moved and grown by `shift`,
 * kept to the canvas; undefined when nothing of it is on it.
 */
export function deviceRect(ctx: Ctx2D, area: Box, shift?: DeviceShift): DeviceRect | undefined {
  return canvasRect(ctx, transformedBounds(area, ctx.getTransform()), shift);
}

/** `bounds` (see transformedBounds) moved and grown by `shift`, on whole pixels, kept to ctx's canvas. */
export function canvasRect(
  ctx: Ctx2D,
  bounds: FrameRect,
  shift: DeviceShift = { x: 0, y: 0, grow: 0 },
): DeviceRect | undefined {
  const canvas = (ctx as { canvas?: { width: number; height: number } }).canvas;
  const rect = {
    x0: Math.floor(Math.max(bounds.x0 + shift.x - shift.grow, canvas ? 0 : -Infinity)),
    y0: Math.floor(Math.max(bounds.y0 + shift.y - shift.grow, canvas ? 0 : -Infinity)),
    x1: Math.ceil(Math.min(bounds.x1 + shift.x + shift.grow, canvas?.width ?? Infinity)),
    y1: Math.ceil(Math.min(bounds.y1 + shift.y + shift.grow, canvas?.height ?? Infinity)),
  };
  return rect.x1 > rect.x0 && rect.y1 > rect.y0 ? rect : undefined;
}
