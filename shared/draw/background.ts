// Scene backgrounds: color, gradients (optionally drifting), image, video and film-grain noise.
import { perHost } from '../canvas/host-cache.ts';
import { seededRandom } from '../canvas/seeded-random.ts';
import { drawFitted } from '../elements/media-draw.ts';
import type { Background } from '../spec/background.ts';
import type { Box, Ctx2D, DrawableImage, DrawEnv, OffscreenSurface } from '../canvas/types.ts';
import { createGradient } from '../canvas/paint.ts';
import { canvasColor, parseColor } from '../spec/color.ts';

export interface BackgroundTime {
  frame: number;
  /** Seconds from the scene start, and the scene's duration. */
  seconds: number;
  duration: number;
}

function drawPicture(
  ctx: Ctx2D,
  picture: DrawableImage | undefined,
  box: Box,
  fit: 'cover' | 'contain' | 'fill',
  zoom = 1,
): void {
  if (!picture || picture.width === 0) {
    ctx.fillStyle = '#1b1f27';
    ctx.fillRect(box.x, box.y, box.width, box.height);
    return;
  }
  if (fit === 'contain') {
    // Letterbox on black rather than leave the previous frame's pixels.
    ctx.fillStyle = '#000000';
    ctx.fillRect(box.x, box.y, box.width, box.height);
  }
  drawFitted(ctx, picture, box, fit, zoom);
}

function dimOver(ctx: Ctx2D, box: Box, dim: number | undefined): void {
  if (!dim) return;
  ctx.fillStyle = `rgba(0, 0, 0, ${dim})`;
  ctx.fillRect(box.x, box.y, box.width, box.height);
}

const GRAIN_TILE = 256;
const GRAIN_VARIANTS = 6;
const grainTilesOf = perHost(() => new Map<number, OffscreenSurface>());

/**
 * Grain tiles are small and reused: animated grain cycles through a few tiles, which reads as
 * live film grain at video rates while costing one pattern fill per frame.
 */
function grainTile(env: DrawEnv, seed: number): OffscreenSurface {
  const tiles = grainTilesOf(env);
  let tile = tiles.get(seed);
  if (!tile) {
    tile = env.createSurface(GRAIN_TILE, GRAIN_TILE);
    const image = tile.ctx.createImageData(GRAIN_TILE, GRAIN_TILE);
    const random = seededRandom(seed);
    for (let i = 0; i < image.data.length; i += 4) {
      const v = Math.floor(random() * 256);
      image.data[i] = v;
      image.data[i + 1] = v;
      image.data[i + 2] = v;
      image.data[i + 3] = 255;
    }
    tile.ctx.putImageData(image, 0, 0);
    tiles.set(seed, tile);
  }
  return tile;
}

type NoiseBackground = Extract<Background, { type: 'noise' }>;

function paintNoise(ctx: Ctx2D, background: NoiseBackground, env: DrawEnv, seed: number): void {
  const box: Box = { x: 0, y: 0, width: env.size.width, height: env.size.height };
  ctx.fillStyle = canvasColor(background.color ?? NOISE_BASE);
  ctx.fillRect(0, 0, box.width, box.height);
  const tile = grainTile(env, seed);
  const pattern = ctx.createPattern(tile.canvas, 'repeat');
  if (!pattern) return;
  const scale = (background.scale ?? 2) * env.scale;
  ctx.save();
  ctx.globalAlpha = background.grain ?? 0.12;
  ctx.globalCompositeOperation = 'overlay';
  ctx.scale(scale, scale);
  ctx.fillStyle = pattern;
  ctx.fillRect(0, 0, box.width / scale, box.height / scale);
  ctx.restore();
  // A soft vignette gives the grain depth.
  const vignette = ctx.createRadialGradient(
    box.width / 2,
    box.height / 2,
    Math.min(box.width, box.height) * 0.3,
    box.width / 2,
    box.height / 2,
    Math.hypot(box.width, box.height) * 0.6,
  );
  vignette.addColorStop(0, 'rgba(0,0,0,0)');
  vignette.addColorStop(1, 'rgba(0,0,0,0.35)');
  ctx.fillStyle = vignette;
  ctx.fillRect(0, 0, box.width, box.height);
}

/**
 * Whole noise backgrounds, one per look and grain variant, painted once: a frame then costs one
 * opaque copy instead of three full-frame passes (an overlay blend of the scaled grain and a
 * vignette), a third of a busy frame's rasterising. Animated grain cycles through GRAIN_VARIANTS
 * frames, so a host keeps that many (8 MB each at 1080×1920) and repaints the oldest past that.
 */
const noiseFramesOf = perHost(() => new Map<string, OffscreenSurface>());

function noiseFrame(env: DrawEnv, background: NoiseBackground, seed: number): OffscreenSurface {
  const frames = noiseFramesOf(env);
  const key = [seed, background.color, background.grain, background.scale].join('\n');
  let surface = frames.get(key);
  if (surface) return surface;
  if (frames.size >= GRAIN_VARIANTS) {
    const [oldestKey, oldest] = frames.entries().next().value!;
    frames.delete(oldestKey);
    surface = oldest;
    surface.ctx.clearRect(0, 0, env.size.width, env.size.height);
  } else {
    surface = env.createSurface(env.size.width, env.size.height);
  }
  paintNoise(surface.ctx, background, env, seed);
  frames.set(key, surface);
  return surface;
}

const NOISE_BASE = '#14161c';

const opaqueColors = new Map<string, boolean>();

function colorIsOpaque(css: string): boolean {
  let opaque = opaqueColors.get(css);
  if (opaque === undefined) {
    opaque = parseColor(css)?.a === 1;
    if (opaqueColors.size > 4096) opaqueColors.clear();
    opaqueColors.set(css, opaque);
  }
  return opaque;
}

/**
 * Whether the background paints every pixel of the frame opaque, so whatever was under it cannot
 * show: the frame then need not be cleared first. Images and videos may have transparent pixels.
 */
export function backgroundIsOpaque(background: Background): boolean {
  if (typeof background === 'string') return colorIsOpaque(background);
  switch (background.type) {
    case 'color':
      return colorIsOpaque(background.color);
    case 'linear':
    case 'radial':
      return background.colors.every(colorIsOpaque);
    case 'noise':
      return colorIsOpaque(background.color ?? NOISE_BASE);
    default:
      return false;
  }
}

export function drawBackground(
  ctx: Ctx2D,
  background: Background,
  env: DrawEnv,
  time: BackgroundTime,
  videoKey: string,
): void {
  const box: Box = { x: 0, y: 0, width: env.size.width, height: env.size.height };
  if (typeof background === 'string') {
    ctx.fillStyle = canvasColor(background);
    ctx.fillRect(0, 0, box.width, box.height);
    return;
  }
  switch (background.type) {
    case 'color':
      ctx.fillStyle = canvasColor(background.color);
      ctx.fillRect(0, 0, box.width, box.height);
      return;
    case 'linear':
    case 'radial': {
      const drift = background.animate ? time.seconds : 0;
      const angleOffset = drift * 6;
      const centerOffset = { x: Math.sin(drift * 0.6) * 0.08, y: Math.cos(drift * 0.45) * 0.06 };
      ctx.fillStyle = createGradient(ctx, background, box, angleOffset, centerOffset);
      ctx.fillRect(0, 0, box.width, box.height);
      return;
    }
    case 'image': {
      const progress = time.duration > 0 ? Math.min(1, time.seconds / time.duration) : 0;
      drawPicture(
        ctx,
        env.media.image(background.src),
        box,
        background.fit ?? 'cover',
        background.kenBurns ? 1 + 0.12 * progress : 1,
      );
      dimOver(ctx, box, background.dim);
      return;
    }
    case 'video':
      drawPicture(ctx, env.media.videoFrame(videoKey), box, background.fit ?? 'cover');
      dimOver(ctx, box, background.dim);
      return;
    case 'noise': {
      const seed =
        (background.seed ?? 7) * 97 + (background.animated === false ? 0 : time.frame % GRAIN_VARIANTS);
      ctx.drawImage(noiseFrame(env, background, seed).canvas, 0, 0);
      return;
    }
  }
}
