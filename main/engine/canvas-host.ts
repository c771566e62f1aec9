// The Node host for the shared drawing code: Skia canvases from @napi-rs/canvas.
import { createCanvas, Path2D as SkiaPath2D } from '@napi-rs/canvas';
import type { Canvas } from '@napi-rs/canvas';
import type {
  CodeHighlighter,
  Ctx2D,
  DrawEnv,
  DrawReviewHooks,
  MediaLookup,
  OffscreenSurface,
} from '../../shared/canvas/types.ts';
import { designScale } from '../../shared/spec/sizes.ts';
import type { FrameSize } from '../../shared/spec/sizes.ts';
import { resolveFontFamily } from '../../shared/fonts/fonts.ts';

export interface SkiaSurface extends OffscreenSurface {
  readonly skia: Canvas;
}

export function createSkiaSurface(width: number, height: number): SkiaSurface {
  const skia = createCanvas(Math.max(1, Math.round(width)), Math.max(1, Math.round(height)));
  // @napi-rs/canvas implements the standard Canvas 2D API; the DOM types describe it for shared code.
  const ctx = skia.getContext('2d') as unknown as Ctx2D;
  return { skia, canvas: skia as unknown as OffscreenSurface['canvas'], ctx };
}

export function createDrawEnv(
  size: FrameSize,
  fps: number,
  media: MediaLookup,
  review?: DrawReviewHooks,
  code?: CodeHighlighter,
): DrawEnv {
  return {
    review,
    code,
    size,
    scale: designScale(size),
    fps,
    media,
    fontFamily: resolveFontFamily,
    createSurface: createSkiaSurface,
    createPath: (d) => new SkiaPath2D(d) as unknown as Path2D,
  };
}

/**
 * The frame's pixels as straight (non-premultiplied) RGBA, which is what ffmpeg's rgba input means.
 * getImageData is also the faster read: measured 4.3 ms against 10.8 ms for canvas.data() at
 * 1080×1920, whose buffer is premultiplied besides.
 */
export function readRgba(surface: SkiaSurface): Uint8Array {
  const { width, height } = surface.skia;
  const image = surface.ctx.getImageData(0, 0, width, height);
  return new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
}
