import type { Gradient, Paint } from '../spec/primitives.ts';
import type { Box, Ctx2D } from './types.ts';
import { canvasColor } from '../spec/color.ts';

function addStops(gradient: CanvasGradient, spec: Gradient): CanvasGradient {
  const count = spec.colors.length;
  spec.colors.forEach((color, index) => {
    const at = spec.stops?.[index] ?? (count === 1 ? 0 : index / (count - 1));
    gradient.addColorStop(Math.min(1, Math.max(0, at)), canvasColor(color));
  });
  return gradient;
}

/** A canvas gradient over a box; `angleOffset` and `centerOffset` animate it. */
export function createGradient(
  ctx: Ctx2D,
  spec: Gradient,
  box: Box,
  angleOffset = 0,
  centerOffset = { x: 0, y: 0 },
): CanvasGradient {
  if (spec.type === 'linear') {
    const angle = (((spec.angle ?? 90) + angleOffset) * Math.PI) / 180;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // Half the projection of the box onto the gradient direction, so the ends touch the corners.
    const half = (Math.abs(Math.cos(angle)) * box.width + Math.abs(Math.sin(angle)) * box.height) / 2;
    const dx = Math.cos(angle) * half;
    const dy = Math.sin(angle) * half;
    return addStops(ctx.createLinearGradient(cx - dx, cy - dy, cx + dx, cy + dy), spec);
  }
  const cx = box.x + ((spec.center?.x ?? 0.5) + centerOffset.x) * box.width;
  const cy = box.y + ((spec.center?.y ?? 0.5) + centerOffset.y) * box.height;
  const radius = (spec.radius ?? 0.75) * Math.hypot(box.width, box.height);
  return addStops(ctx.createRadialGradient(cx, cy, 0, cx, cy, radius), spec);
}

export function paintStyle(ctx: Ctx2D, paint: Paint, box: Box): string | CanvasGradient {
  return typeof paint === 'string' ? canvasColor(paint) : createGradient(ctx, paint, box);
}

/** Adds a rounded rectangle to the current path (radius clamped to the box). */
export function roundedRectPath(ctx: Ctx2D, box: Box, radius: number): void {
  const r = Math.max(0, Math.min(radius, box.width / 2, box.height / 2));
  if (r === 0) {
    ctx.rect(box.x, box.y, box.width, box.height);
    return;
  }
  ctx.roundRect(box.x, box.y, box.width, box.height, r);
}
