// The narrow interface between the pure drawing code and whoever hosts it (Skia in Node, an HTML
// canvas in the browser). Everything here is the standard Canvas 2D API.
import type { FrameSize } from '../spec/sizes.ts';

export type Ctx2D = CanvasRenderingContext2D;

/** Anything drawImage accepts that also knows its size (an Image, a canvas, decoded video frame). */
export type DrawableImage = CanvasImageSource & { readonly width: number; readonly height: number };

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface OffscreenSurface {
  readonly canvas: DrawableImage;
  readonly ctx: Ctx2D;
}

/** Media the host has loaded before drawing a frame: drawing itself never waits. */
export interface MediaLookup {
  /** A decoded still image, by its source string as written in the spec. */
  image(src: string): DrawableImage | undefined;
  /**
   * The current frame of a video (clip element or video background). `key` identifies the use:
   * one source can play in several places at different times.
   */
  videoFrame(key: string): DrawableImage | undefined;
}

/** Maps the spec's family names ("sans", "serif", "mono", "display", custom) to loaded families. */
export type FontFamilyResolver = (family: string) => string;

export interface DrawEnv {
  readonly size: FrameSize;
  /** Design pixels to real pixels. */
  readonly scale: number;
  readonly fps: number;
  readonly media: MediaLookup;
  readonly fontFamily: FontFamilyResolver;
  createSurface(width: number, height: number): OffscreenSurface;
  /** A Path2D from SVG path data (Node has no global Path2D; the host supplies its own). */
  createPath(d: string): Path2D;
}
