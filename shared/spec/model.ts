// The in-memory video model: a spec, plus what only code can say (custom drawing elements).
import type { SpecElement } from './elements.ts';
import type { ElementBase } from './element-base.ts';
import type { Scene, VideoSpec } from './schema.ts';

export interface CustomDrawInfo {
  /** The element's box in real pixels. */
  width: number;
  height: number;
  frame: number;
  fps: number;
  /** Seconds from the element start, and its duration. */
  time: number;
  duration: number;
  /** 0..1 through the element's lifetime. */
  progress: number;
}

/** Code-only escape hatch: draws with the Canvas 2D API in a box whose top-left is (0, 0). */
export interface CustomElement extends ElementBase {
  type: 'custom';
  draw: (ctx: CanvasRenderingContext2D, info: CustomDrawInfo) => void;
}

export type ModelElement = SpecElement | CustomElement;

export interface ModelScene extends Omit<Scene, 'elements'> {
  elements?: ModelElement[];
}

export interface VideoModel extends Omit<VideoSpec, 'scenes' | 'overlays'> {
  scenes: ModelScene[];
  overlays?: ModelElement[];
}
