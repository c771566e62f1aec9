// How one element type draws: its natural size and its drawing. Its fields and media needs are the
// spec's part (shared/spec/elements.ts).
import type { AnimatedState } from '../animation/state.ts';
import type { Box, Ctx2D, DrawEnv } from '../canvas/types.ts';
import type { TextElement } from '../spec/text-element.ts';

export interface ElementTime {
  frame: number;
  /** Seconds from the scene start. */
  sceneSeconds: number;
  /** Seconds from the element start. */
  elementSeconds: number;
  /** The element's on-screen duration in seconds. */
  elementDuration: number;
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
  draw(args: ElementDrawArgs<T>): void;
}
