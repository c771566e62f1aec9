// Compositing two rendered scenes during a transition.
import type { ResolvedTransition } from '../timeline/types.ts';
import type { Ctx2D, DrawableImage } from '../canvas/types.ts';

const OFFSETS = {
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
  up: { x: 0, y: -1 },
  down: { x: 0, y: 1 },
} as const;

/**
 * Draws the frame between `outgoing` and `incoming` at eased `progress` (0..1). `direction` is the
 * edge the incoming scene enters from.
 */
export function compositeTransition(
  ctx: Ctx2D,
  outgoing: DrawableImage,
  incoming: DrawableImage,
  transition: ResolvedTransition,
  progress: number,
  width: number,
  height: number,
): void {
  const p = Math.min(1, Math.max(0, progress));
  const from = OFFSETS[transition.direction];
  ctx.save();
  switch (transition.type) {
    case 'cut':
      ctx.drawImage(incoming, 0, 0);
      break;
    case 'crossFade':
      ctx.drawImage(outgoing, 0, 0);
      ctx.globalAlpha = p;
      ctx.drawImage(incoming, 0, 0);
      break;
    case 'wipe': {
      ctx.drawImage(outgoing, 0, 0);
      ctx.beginPath();
      // The revealed band grows from the entry edge.
      const w = width * p;
      const h = height * p;
      if (from.x < 0) ctx.rect(0, 0, w, height);
      else if (from.x > 0) ctx.rect(width - w, 0, w, height);
      else if (from.y < 0) ctx.rect(0, 0, width, h);
      else ctx.rect(0, height - h, width, h);
      ctx.clip();
      ctx.drawImage(incoming, 0, 0);
      break;
    }
    case 'slide': {
      // The outgoing scene is pushed out the opposite side as the incoming one slides in. Both move
      // by the same whole number of pixels, so they meet edge to edge: at fractional offsets each
      // layer's edge pixel is half covered and the seam shows through as a light line.
      const dx = Math.round(from.x * width * (1 - p));
      const dy = Math.round(from.y * height * (1 - p));
      ctx.drawImage(outgoing, dx - from.x * width, dy - from.y * height);
      ctx.drawImage(incoming, dx, dy);
      break;
    }
    case 'zoom': {
      ctx.save();
      const outScale = 1 + 0.35 * p;
      ctx.translate(width / 2, height / 2);
      ctx.scale(outScale, outScale);
      ctx.globalAlpha = 1 - p;
      ctx.drawImage(outgoing, -width / 2, -height / 2);
      ctx.restore();
      const inScale = 0.85 + 0.15 * p;
      ctx.translate(width / 2, height / 2);
      ctx.scale(inScale, inScale);
      ctx.globalAlpha = p;
      ctx.drawImage(incoming, -width / 2, -height / 2);
      break;
    }
    case 'flip': {
      ctx.fillStyle = '#000000';
      ctx.fillRect(0, 0, width, height);
      const first = p < 0.5;
      const squeeze = Math.max(0.001, Math.abs(Math.cos(p * Math.PI)));
      const vertical = from.y !== 0;
      ctx.translate(width / 2, height / 2);
      if (vertical) ctx.scale(1, squeeze);
      else ctx.scale(squeeze, 1);
      // Shade the card as it turns edge-on, like light falling off a rotating plane.
      ctx.drawImage(first ? outgoing : incoming, -width / 2, -height / 2);
      ctx.fillStyle = `rgba(0, 0, 0, ${0.55 * (1 - squeeze)})`;
      ctx.fillRect(-width / 2, -height / 2, width, height);
      break;
    }
    case 'clockWipe': {
      ctx.drawImage(outgoing, 0, 0);
      const cx = width / 2;
      const cy = height / 2;
      const radius = Math.hypot(width, height);
      const start = -Math.PI / 2;
      ctx.beginPath();
      ctx.moveTo(cx, cy);
      ctx.arc(cx, cy, radius, start, start + p * Math.PI * 2);
      ctx.closePath();
      ctx.clip();
      ctx.drawImage(incoming, 0, 0);
      break;
    }
  }
  ctx.restore();
}
