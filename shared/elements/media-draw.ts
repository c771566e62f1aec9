// Drawing pictures (images, video frames) into a box: fit, rounded corners, border, Ken Burns.
import { roundedRectPath } from '../canvas/paint.ts';
import type { Box, Ctx2D, DrawableImage } from '../canvas/types.ts';
import { resolveLength } from '../layout/length.ts';
import type { Fit, Length } from '../spec/primitives.ts';
import { grownBox } from './definition.ts';
import type { ElementDrawArgs, Ink, InkArgs } from './definition.ts';
import { canvasColor } from '../spec/color.ts';

export function mediaIntrinsicSize(
  media: DrawableImage | undefined,
  maxWidth: number,
  maxHeight: number,
): { width: number; height: number } {
  if (!media || media.width === 0 || media.height === 0) return { width: maxWidth, height: maxHeight };
  const scale = Math.min(1, maxWidth / media.width, maxHeight / media.height);
  return { width: media.width * scale, height: media.height * scale };
}

/** The source rectangle of `media` that fills `box` under `fit`, zoomed by `zoom` around (panX, panY). */
export function fitRects(
  media: { width: number; height: number },
  box: Box,
  fit: Fit,
  zoom = 1,
  pan = { x: 0, y: 0 },
): { source: Box; dest: Box } {
  const full = { x: 0, y: 0, width: media.width, height: media.height };
  if (fit === 'fill') return { source: full, dest: box };
  const scale =
    fit === 'cover'
      ? Math.max(box.width / media.width, box.height / media.height)
      : Math.min(box.width / media.width, box.height / media.height);
  if (fit === 'contain') {
    const width = media.width * scale;
    const height = media.height * scale;
    return {
      source: full,
      dest: { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height },
    };
  }
  const sw = box.width / (scale * zoom);
  const sh = box.height / (scale * zoom);
  const sx = (media.width - sw) / 2 + pan.x * (media.width - sw) * 0.5;
  const sy = (media.height - sh) / 2 + pan.y * (media.height - sh) * 0.5;
  return { source: { x: sx, y: sy, width: sw, height: sh }, dest: box };
}

/** Draws `media` into `box` under `fit` (see fitRects). */
export function drawFitted(
  ctx: Ctx2D,
  media: DrawableImage,
  box: Box,
  fit: Fit,
  zoom = 1,
  pan = { x: 0, y: 0 },
): void {
  const { source, dest } = fitRects(media, box, fit, zoom, pan);
  ctx.drawImage(
    media,
    source.x,
    source.y,
    source.width,
    source.height,
    dest.x,
    dest.y,
    dest.width,
    dest.height,
  );
}

interface MediaElementFields {
  fit?: Fit | undefined;
  radius?: Length | undefined;
  border?: { color: string; width: Length } | undefined;
  kenBurns?: boolean | { zoom?: number | undefined; direction?: string | undefined } | undefined;
}

const PAN: Record<string, { x: number; y: number }> = {
  left: { x: -1, y: 0 },
  right: { x: 1, y: 0 },
  up: { x: 0, y: -1 },
  down: { x: 0, y: 1 },
};

/**
 * A picture is clipped to its box; only its border, centred on the box's edge, reaches past. Turned,
 * it gives no ink: a turned picture under a mask wipe drew a few pixels a few levels apart with its
 * layer bounded (main/engine/filter-bounds-draw.test.ts), so it keeps the canvas-sized layer.
 */
export function mediaInkArea({ ctx, element, box, env }: InkArgs<MediaElementFields>): Ink | undefined {
  const m = ctx.getTransform();
  if (m.b !== 0 || m.c !== 0) return undefined;
  const border = element.border;
  const context = { frame: env.size, scale: env.scale };
  const width = border ? resolveLength(border.width, Math.min(box.width, box.height), context) : 0;
  return { box: grownBox(box, Math.max(0, width)), spread: 0 };
}

export function drawMedia(args: ElementDrawArgs<MediaElementFields>, media: DrawableImage | undefined): void {
  const { ctx, element, box, env, state, time } = args;
  const context = { frame: env.size, scale: env.scale };
  const keyedRadius = state.props.radius;
  const radius =
    typeof keyedRadius === 'number'
      ? keyedRadius * env.scale
      : element.radius === undefined
        ? 0
        : resolveLength(element.radius, Math.min(box.width, box.height), context);
  ctx.save();
  ctx.beginPath();
  roundedRectPath(ctx, box, radius);
  ctx.clip();
  if (media && media.width > 0 && media.height > 0) {
    let zoom = 1;
    let pan = { x: 0, y: 0 };
    const ken = element.kenBurns;
    if (ken || state.kenBurns) {
      const progress =
        state.kenBurns?.progress ?? Math.min(1, time.elementSeconds / Math.max(0.001, time.elementDuration));
      const endZoom = typeof ken === 'object' && ken.zoom ? ken.zoom : 1 + (state.kenBurns?.amount ?? 0.15);
      const direction = (typeof ken === 'object' && ken.direction) || state.kenBurns?.direction || 'right';
      zoom = 1 + (endZoom - 1) * progress;
      const toward = PAN[direction] ?? PAN.right!;
      pan = { x: toward.x * progress, y: toward.y * progress };
    }
    drawFitted(ctx, media, box, element.fit ?? 'cover', zoom, pan);
  } else {
    // Media that failed to load draws as a neutral placeholder; the loader already reported it.
    ctx.fillStyle = '#2a2f3a';
    ctx.fillRect(box.x, box.y, box.width, box.height);
  }
  ctx.restore();
  if (element.border) {
    ctx.beginPath();
    roundedRectPath(ctx, box, radius);
    ctx.strokeStyle = canvasColor(element.border.color);
    ctx.lineWidth = resolveLength(element.border.width, Math.min(box.width, box.height), context);
    ctx.stroke();
  }
}
