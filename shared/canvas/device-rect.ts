// Where a box lands on the canvas under the current transform: what a layer or a clip around it needs.
import type { Box, Ctx2D } from './types.ts';

/** A rectangle in device pixels: whole pixels, x0/y0 inclusive, x1/y1 exclusive. */
export interface DeviceRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The device-pixel bounds of a box under the current transform, kept to the canvas. */
export function deviceRect(ctx: Ctx2D, area: Box, shift = { x: 0, y: 0, grow: 0 }): DeviceRect | undefined {
  const m = ctx.getTransform();
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [x, y] of [
    [area.x, area.y],
    [area.x + area.width, area.y],
    [area.x, area.y + area.height],
    [area.x + area.width, area.y + area.height],
  ] as const) {
    xs.push(m.a * x + m.c * y + m.e + shift.x);
    ys.push(m.b * x + m.d * y + m.f + shift.y);
  }
  const canvas = (ctx as { canvas?: { width: number; height: number } }).canvas;
  const rect = {
    x0: Math.floor(Math.max(Math.min(...xs) - shift.grow, canvas ? 0 : -Infinity)),
    y0: Math.floor(Math.max(Math.min(...ys) - shift.grow, canvas ? 0 : -Infinity)),
    x1: Math.ceil(Math.min(Math.max(...xs) + shift.grow, canvas?.width ?? Infinity)),
    y1: Math.ceil(Math.min(Math.max(...ys) + shift.grow, canvas?.height ?? Infinity)),
  };
  return rect.x1 > rect.x0 && rect.y1 > rect.y0 ? rect : undefined;
}
