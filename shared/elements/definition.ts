// How one element type draws: its natural size and its drawing. Its fields and media needs are the
// spec's part (shared/spec/elements.ts).
import type { AnimatedState } from '../animation/state.ts';
import type { Box, Ctx2D, DrawEnv } from '../canvas/types.ts';
import type { Anchor } from '../spec/primitives.ts';
import type { TextElement } from '../spec/text-element.ts';

export interface ElementTime {
  frame: number;
  /** Seconds from the scene start. */
  sceneSeconds: number;
  /** Seconds from the element start. */
  elementSeconds: number;
  /** The element's on-screen duration in seconds. */
  elementDuration: number;
  /** The scene's duration in seconds (progress bars); absent when drawn outside a video. */
  sceneDuration?: number | undefined;
  /** Seconds from the video start, and the video's duration (progress bars). */
  videoSeconds?: number | undefined;
  videoDuration?: number | undefined;
}

/** What an element can see of the scene around it, in its own drawing coordinates (those of `box`). */
export interface SceneLookup {
  /** The box the element is laid out in: the frame, the safe area or its group's box. */
  container: Box;
  /** The frame's bounds (what a full-frame overlay must cover). */
  frame(): Box;
  /**
   * The current box of the scene's element with this id, as drawn this frame (keyframes and
   * animations applied); undefined for an unknown id.
   */
  boxOf(id: string): Box | undefined;
}

export interface ElementDrawArgs<T> {
  ctx: Ctx2D;
  element: T;
  /** The element's laid-out box in real pixels, in the current transform. */
  box: Box;
  state: AnimatedState;
  env: DrawEnv;
  time: ElementTime;
  /** Unique path of this element in the video (e.g. "s0/e2/e1"), used to key video frames. */
  key: string;
  /**
   * Elements that draw text other than the text element (counters, captions) report here each text
   * block they draw, as a text element in its box, for review to read like any text.
   */
  observeText?: ((text: TextElement, box: Box) => void) | undefined;
  /** The scene around the element (annotations that point at other elements); absent in isolation. */
  scene?: SceneLookup | undefined;
  /** Draws child elements inside a box (groups only). */
  drawChildren: (children: readonly unknown[], box: Box) => void;
}

export interface ElementDrawer<T extends { type: string } = { type: string }> {
  /** Natural size in real pixels when width/height are not given; maxWidth is the box it sits in. */
  intrinsicSize?(
    element: T,
    env: DrawEnv,
    maxWidth: number,
    maxHeight: number,
  ): { width: number; height: number };
  /**
   * Its box, for elements placed by their own fields rather than x/y/width/height (an arrow spans
   * its from and to points).
   */
  place?(element: T, container: Box, env: DrawEnv): Box;
  /** Where it sits when x, y and anchor are not given, instead of the centre (lower thirds). */
  defaultPlacement?: DefaultPlacement;
  /**
   * Given only a width, its natural height is measured in that width (its lines wrap or its rows
   * fill it), instead of keeping the natural aspect ratio as a picture does.
   */
  heightFollowsWidth?: boolean;
  /**
   * Where its drawing can reach (see Ink). A filter or a shadow over the
   * element is clipped to this area plus the filter's own reach (shared/draw/element-effects.ts,
   * clipToInk), so Skia's layer for it is no larger than what it can change. Absent: the type may
   * draw anywhere, even outside its box (a path past its viewBox, an arrow, a chart's labels), and
   * its layer is left as large as the canvas.
   */
  ink?(args: InkArgs<T>): Ink | undefined;
  draw(args: ElementDrawArgs<T>): void;
}

/** Where an element draws: a box in its coordinates, and how far shadows it casts itself spread past it. */
export interface Ink {
  box: Box;
  /** Device pixels past `box` reached by a shadow the drawer casts (a text shadow). */
  spread: number;
  /**
   * Whether it draws the same pixels in a layer whose top-left corner is not the canvas's, so its
   * filter layer may be bounded on every side, not only right and bottom (clipToInk). True only of
   * glyphs alone (text with no outline, background, shadow, marker or cursor): Skia places glyph
   * masks at quarter-pixel steps, while a path's edge coverage (a pill background) moved a level
   * with the layer's offset.
   */
  shiftable?: boolean;
}

/** What an element's ink is worked out from: its drawing's arguments less the scene. */
export type InkArgs<T> = Pick<ElementDrawArgs<T>, 'ctx' | 'element' | 'box' | 'state' | 'env'>;

/** `box` grown by `by` on every side. */
export function grownBox(box: Box, by: number): Box {
  return { x: box.x - by, y: box.y - by, width: box.width + 2 * by, height: box.height + 2 * by };
}

export interface DefaultPlacement {
  x: number;
  y: number;
  anchor: Anchor;
}
