// The Node host for the shared drawing code: Skia canvases from @napi-rs/canvas.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
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

// Every pixel read is a fresh 8 MB buffer outside V8's heap (@napi-rs/canvas has no read into a
// caller's buffer). By default V8 runs a full garbage collection each time such external memory grows
// past a small limit: every 4–8 frames, 56 of them in product-launch, 1.5 s of CPU on its helper
// threads. Counted in the heap's global limit instead, no full collection is forced; the reads die
// young, so a young-generation collection every other read frees them for a fraction of a
// millisecond (400 frames of the reference video: 6.3 → 5.1–5.3 s of CPU, peak memory 386 → 242 MB).
// Flags are process-wide: this reaches worker threads too; `gc` is exposed to new contexts only.
setFlagsFromString('--external-memory-accounted-in-global-limit');
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as (options: { type: 'minor' }) => void;
const READS_PER_COLLECTION = 2;
let readsSinceCollection = 0;

export interface SkiaSurface extends OffscreenSurface {
  readonly skia: Canvas;
}

export function createSkiaSurface(width: number, height: number): SkiaSurface {
  const skia = createCanvas(Math.max(1, Math.round(width)), Math.max(1, Math.round(height)));
  // @napi-rs/canvas implements the standard Canvas 2D API; the DOM types describe it for shared code.
  const ctx = skia.getContext('2d') as unknown as Ctx2D;
  return { skia, canvas: skia as unknown as OffscreenSurface['canvas'], ctx };
}

type TextReport = NonNullable<DrawReviewHooks['text']>;

/**
 * Makes the surface's context report every run of text it draws, with the font it is drawn in
 * (review's missing_glyph reads which characters each element drew). Drawing is unchanged.
 */
export function reportingText<T extends OffscreenSurface>(surface: T, report: TextReport): T {
  const { ctx } = surface;
  const fill = ctx.fillText.bind(ctx);
  const stroke = ctx.strokeText.bind(ctx);
  // maxWidth is passed only when given: Skia reads an explicit undefined as no room at all.
  ctx.fillText = (text, x, y, maxWidth) => {
    report(ctx.font, text);
    if (maxWidth === undefined) fill(text, x, y);
    else fill(text, x, y, maxWidth);
  };
  ctx.strokeText = (text, x, y, maxWidth) => {
    report(ctx.font, text);
    if (maxWidth === undefined) stroke(text, x, y);
    else stroke(text, x, y, maxWidth);
  };
  return surface;
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
    createSurface: review?.text
      ? (width, height) => reportingText(createSkiaSurface(width, height), review.text!)
      : createSkiaSurface,
    createPath: (d) => new SkiaPath2D(d) as unknown as Path2D,
  };
}

/**
 * The frame's pixels as straight (non-premultiplied) RGBA, which is what ffmpeg's rgba input means.
 * getImageData is also the faster read: measured 4.3 ms against 10.8 ms for canvas.data() at
 * 1080×1920, whose buffer is premultiplied besides.
 */
export function readRgba(surface: SkiaSurface): Uint8Array {
  // Before the read: the last reads' buffers are garbage by now (each caller converts or writes one
  // and lets go of it).
  if (++readsSinceCollection >= READS_PER_COLLECTION) {
    readsSinceCollection = 0;
    collectGarbage({ type: 'minor' });
  }
  const { width, height } = surface.skia;
  const image = surface.ctx.getImageData(0, 0, width, height);
  return new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
}
