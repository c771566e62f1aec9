// The narrow interface between the pure drawing code and whoever hosts it (Skia in Node, an HTML
// canvas in the browser). Everything here is the standard Canvas 2D API.
import type { AnimatedState } from '../animation/state.ts';
import type { ModelElement } from '../spec/model.ts';
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
  /** A caption file's text (SRT or WebVTT), by its source string; hosts without captions leave it out. */
  captionText?(src: string): string | undefined;
  /** A chart's data file text (CSV or JSON), by its source string; hosts without charts leave it out. */
  dataText?(src: string): string | undefined;
}

/** One run of highlighted code: its text and its colour and style in the theme. */
export interface CodeToken {
  text: string;
  /** A CSS colour; undefined: the theme's foreground. */
  color: string | undefined;
  bold: boolean;
  italic: boolean;
  underline: boolean;
}

/** Code as a theme colours it: its lines of tokens and the theme's own colours. */
export interface HighlightedCode {
  lines: CodeToken[][];
  foreground: string;
  background: string;
  /** The theme is dark: chrome drawn around the code (bars, dots, highlights) follows. */
  dark: boolean;
}

/**
 * Syntax highlighting the host prepared before drawing (grammars and themes load asynchronously;
 * drawing never waits). Undefined for a language or theme the host did not load.
 */
export interface CodeHighlighter {
  highlight(code: string, language: string, theme: string): HighlightedCode | undefined;
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
  /** Syntax highlighting for code and markdown elements; without it code draws in one colour. */
  readonly code?: CodeHighlighter | undefined;
  /** Set only by review: sees every element as it is drawn, and can leave some out. */
  readonly review?: DrawReviewHooks | undefined;
}

/** The canvas transform an element is drawn under: device = (a·x + c·y + e, b·x + d·y + f). */
export interface Transform2D {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

/** One element as drawn on one frame: what review checks read instead of guessing the layout. */
export interface DrawnElement {
  /** The element's path in the video, e.g. "s0/e2/e1" (an overlay's: "o/e0"). */
  key: string;
  element: ModelElement;
  /** Its box before the transform, in the surface's pixels. */
  box: Box;
  /** The transform of the element and its groups (rotation, scale, animation offsets). */
  transform: Transform2D;
  /** The opacity it is drawn with: its own, its animations' and its groups'. */
  alpha: number;
  state: AnimatedState;
  /** Drawn onto a transition's offscreen layer, so its place on the frame is only approximate. */
  inTransition: boolean;
}

export interface DrawReviewHooks {
  observe?(drawn: DrawnElement): void;
  /** Elements for which this answers true are not drawn (review samples backgrounds without text). */
  hide?(element: ModelElement): boolean;
  /**
   * An element (by key) starts drawing, and is done: what is drawn between is its own, inside any
   * group's pair. Review attributes the text runs the host reports (below) with these.
   */
  enter?(key: string): void;
  leave?(key: string): void;
  /**
   * Every run of text drawn (fillText, strokeText) with the CSS font it is drawn in, reported by
   * the host on every surface it makes; review reads which characters each element drew.
   */
  text?(font: string, text: string): void;
}
