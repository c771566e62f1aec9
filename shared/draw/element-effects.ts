// What animations do to an element beyond moving it: the masks it is clipped by (wipe, reveal) and
// the filter it is drawn through (blur, glow). The frame drawer applies them after the transform, so
// a mask turns and scales with the element.
import type { AnimatedState } from '../animation/state.ts';
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
