// The browser host for the shared drawing code: the same DrawEnv the Skia host builds in Node
// (main/engine/canvas-host.ts), with HTML canvases and the browser's own Path2D.
import type {
  CodeHighlighter,
  Ctx2D,
  DrawReviewHooks,
  DrawEnv,
  MediaLookup,
  OffscreenSurface,
} from '../../shared/canvas/types.ts';
import { designScale } from '../../shared/spec/sizes.ts';
import type { FrameSize } from '../../shared/spec/sizes.ts';
import { resolveFontFamily } from '../../shared/fonts/fonts.ts';

/**
 * A scratch canvas (transitions, blur layers). A detached HTML canvas rather than OffscreenCanvas:
 * it is sure to share the document's loaded fonts.
 */
export function createBrowserSurface(width: number, height: number): OffscreenSurface {
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(width));
  canvas.height = Math.max(1, Math.round(height));
  return { canvas, ctx: context2d(canvas) };
}

export function context2d(canvas: HTMLCanvasElement): Ctx2D {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('this browser gives no 2D canvas context');
  return ctx;
}

/** A new env per loaded composition: per-host caches in the drawing code are keyed by it. */
export function createBrowserDrawEnv(
  size: FrameSize,
  fps: number,
  media: MediaLookup,
  code?: CodeHighlighter,
  review?: DrawReviewHooks,
): DrawEnv {
  return {
    code,
    review,
    size,
    scale: designScale(size),
    fps,
    media,
    fontFamily: resolveFontFamily,
    createSurface: createBrowserSurface,
    createPath: (d) => new Path2D(d),
  };
}
