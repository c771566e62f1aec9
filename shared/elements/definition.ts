// The element registry's contract: one module per element type holds its schema fields, how the
// builder names it, how big it is, what media it needs and how it draws.
import type { z } from 'zod';
import type { AnimatedState } from '../animation/state.ts';
import type { Box, Ctx2D, DrawEnv } from '../draw/types.ts';

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
  /** Draws child elements inside a box (groups only). */
  drawChildren: (children: readonly unknown[], box: Box) => void;
}

export interface MediaNeeds {
  images: string[];
  videos: string[];
}

export interface ElementDefinition<T extends { type: string } = { type: string }> {
  readonly type: T['type'];
  /** The strict object schema: the base element fields plus this type's own. */
  readonly schema: z.ZodType<T>;
  /** Builder function name and, when it takes one, its leading positional field: text('Hi', {...}). */
  readonly builder: { name: string; positional?: string; children?: boolean };
  /** Natural size in real pixels when width/height are not given; maxWidth is the box it sits in. */
  intrinsicSize?(
    element: T,
    env: DrawEnv,
    maxWidth: number,
    maxHeight: number,
  ): { width: number; height: number };
  media?(element: T): MediaNeeds;
  draw(args: ElementDrawArgs<T>): void;
}

export function defineElement<T extends { type: string }>(
  definition: ElementDefinition<T>,
): ElementDefinition<T> {
  return definition;
}
