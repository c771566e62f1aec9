// What animations do to an element beyond moving it: the masks it is clipped by (wipe, reveal) and
// the filter it is drawn through (blur, glow). The frame drawer applies them after the transform, so
// a mask turns and scales with the element.
import type { AnimatedState } from '../animation/state.ts';
import { canvasRect, transformedBounds } from '../canvas/device-rect.ts';
import type { Box, Ctx2D } from '../canvas/types.ts';
import { canvasColor } from '../spec/color.ts';

/** How far a mask reaches past the box where no edge is being drawn, so strokes and shadows are kept. */
function outerPad(box: Box): { x: number; y: number } {
  return { x: box.width * 0.5 + 64, y: box.height * 0.5 + 64 };
}

/** Clips to the part a mask wipe shows: `visible` of the box from its `from` edge. */
export function clipToWipe(ctx: Ctx2D, box: Box, state: AnimatedState): void {
  const wipe = state.wipe;
  if (!wipe) return;
  const visible = Math.min(1, Math.max(0, wipe.visible));
  const pad = outerPad(box);
  ctx.beginPath();
  switch (wipe.from) {
    case 'left':
      ctx.rect(box.x - pad.x, box.y - pad.y, pad.x + box.width * visible, box.height + 2 * pad.y);
      break;
    case 'right':
      ctx.rect(
        box.x + box.width * (1 - visible),
        box.y - pad.y,
        box.width * visible + pad.x,
        box.height + 2 * pad.y,
      );
      break;
    case 'up':
      ctx.rect(box.x - pad.x, box.y - pad.y, box.width + 2 * pad.x, pad.y + box.height * visible);
      break;
    case 'down':
      ctx.rect(
        box.x - pad.x,
        box.y + box.height * (1 - visible),
        box.width + 2 * pad.x,
        box.height * visible + pad.y,
      );
      break;
  }
  ctx.clip();
}

/**
 * How far past the box's edge a mask reveal's edge lies, as a share of the box along the motion: a
 * shape's stroke or a glyph's overhang reach a little past the box, and cut off there they would
 * jump into view the moment the reveal ends and the mask goes.
 */
export const REVEAL_EDGE_MARGIN = 0.2;

/**
 * A mask reveal: clips at a line just past the box's edge on the `toward` side (only there, so the
 * element's strokes and shadows elsewhere stay whole), then moves what is drawn `hidden` of the way
 * from its place to wholly past that line.
 */
export function revealFromEdge(ctx: Ctx2D, box: Box, state: AnimatedState): void {
  const reveal = state.reveal;
  if (!reveal) return;
  // Below 0 an overshooting easing carries it past its place, away from the mask edge.
  const hidden = Math.min(1, reveal.hidden);
  const pad = outerPad(box);
  const marginX = box.width * REVEAL_EDGE_MARGIN;
  const marginY = box.height * REVEAL_EDGE_MARGIN;
  let left = box.x - pad.x;
  let top = box.y - pad.y;
  let right = box.x + box.width + pad.x;
  let bottom = box.y + box.height + pad.y;
  if (reveal.toward === 'left') left = box.x - marginX;
  if (reveal.toward === 'right') right = box.x + box.width + marginX;
  if (reveal.toward === 'up') top = box.y - marginY;
  if (reveal.toward === 'down') bottom = box.y + box.height + marginY;
  ctx.beginPath();
  ctx.rect(left, top, right - left, bottom - top);
  ctx.clip();
  const dx = reveal.toward === 'left' ? -1 : reveal.toward === 'right' ? 1 : 0;
  const dy = reveal.toward === 'up' ? -1 : reveal.toward === 'down' ? 1 : 0;
  ctx.translate(dx * (box.width + marginX) * hidden, dy * (box.height + marginY) * hidden);
}

/**
 * The CSS filter the element is drawn through, or undefined for none. A glow is two drop shadows of
 * the halo colour, a wide soft one then a tight one that also brightens the first, since one alone is
 * too faint to read as light.
 */
export function elementFilter(blur: number, state: AnimatedState): string | undefined {
  const parts: string[] = [];
  if (blur > 0.05) parts.push(`blur(${blur.toFixed(2)}px)`);
  const glow = state.glow;
  if (glow && glow.radius > 0.05) {
    const color = canvasColor(glow.color);
    parts.push(`drop-shadow(0px 0px ${glow.radius.toFixed(2)}px ${color})`);
    parts.push(`drop-shadow(0px 0px ${(glow.radius / 3).toFixed(2)}px ${color})`);
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** A canvas shadow in device pixels, as the frame drawer sets it on the context. */
export interface CanvasShadow {
  blur: number;
  x: number;
  y: number;
}

/**
 * How far, in device pixels, the element's filter and shadow carry what it draws. Skia's Gaussian
 * stops at 3σ; `blur(Npx)` is σ = N, and a drop-shadow's or a canvas shadow's length is taken as σ
 * too (it is 2σ: the pad is generous, which costs little). The filters chain, so their reaches add,
 * and 2 more pixels cover the anti-aliased edge.
 */
export function filterReach(blur: number, state: AnimatedState, shadow?: CanvasShadow): number {
  let sigma = blur > 0.05 ? blur : 0;
  const glow = state.glow;
  if (glow && glow.radius > 0.05) sigma += glow.radius + glow.radius / 3;
  let offset = 0;
  if (shadow) {
    sigma += Math.max(0, shadow.blur);
    offset = Math.hypot(shadow.x, shadow.y);
  }
  return 3 * sigma + offset + 2;
}

/**
 * Clips to the device pixels around `ink` (where the element draws, in its own coordinates) grown by
 * `reach` device pixels. A filter or an image's shadow is drawn through a layer, and with no clip
 * Skia makes that layer as large as the whole canvas: a blurred 58 px line cost 23 ms at 1080×1920.
 * Bounded, the layer is only as large as the clip, and the pixels are the same, since nothing drawn
 * or spread reaches the clip's edges.
 *
 * Unless the ink is `shiftable`, the clip keeps the canvas's top-left corner and only its right and
 * bottom edges move: a layer whose top-left corner is elsewhere draws paths, gradients and pictures
 * with that offset folded into their transform, whose rounding moves some edge pixels by a level or
 * two (seen with strokes, turned gradients and any picture). A layer at the canvas's origin draws
 * exactly as the whole-canvas one, only smaller. Glyphs alone may take the tight clip: text low on
 * the frame otherwise blurs a layer reaching up to the top (40-110 ms a frame in product-launch).
 */
export function clipToInk(ctx: Ctx2D, ink: Box, reach: number, shiftable = false): void {
  const m = ctx.getTransform();
  const bounds = transformedBounds(ink, m);
  // Not finite: a transform flattened to nothing or blown up; left unbounded.
  if (![bounds.x0, bounds.y0, bounds.x1, bounds.y1, reach].every(Number.isFinite)) return;
  // Nothing of the ink or its reach on the canvas: an empty clip, so nothing is drawn or blurred.
  const rect = canvasRect(ctx, bounds, { x: 0, y: 0, grow: reach }) ?? { x0: 0, y0: 0, x1: 0, y1: 0 };
  const x0 = shiftable ? rect.x0 : 0;
  const y0 = shiftable ? rect.y0 : 0;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.beginPath();
  ctx.rect(x0, y0, rect.x1 - x0, rect.y1 - y0);
  ctx.clip();
  ctx.setTransform(m.a, m.b, m.c, m.d, m.e, m.f);
}
