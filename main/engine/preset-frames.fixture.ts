// Test support: draws one element's frames with the real frame drawing on Skia, on a black square
// frame where a design pixel is a real pixel, and measures what a viewer would see in them.
import type { DrawEnv } from '../../shared/canvas/types.ts';
import { drawFrame } from '../../shared/draw/frame.ts';
import type { SpecElement } from '../../shared/spec/elements.ts';
import type { Animation, Paint } from '../../shared/spec/primitives.ts';
import { assertSpec } from '../../shared/spec/validate.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { createDrawEnv } from './canvas-host.ts';

/** 1080 × 1080: the shorter side is 1080, so design pixels are real pixels. */
export const SIDE = 1080;
export const CENTRE = SIDE / 2;
export const FPS = 30;
const noMedia = { image: () => undefined, videoFrame: () => undefined };

let env: DrawEnv | undefined;

/** Where the lit pixels lie (inclusive pixel edges), or undefined when nothing is lit. */
export interface Bounds {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
  centreX: number;
  centreY: number;
}

export interface DrawnFrame {
  /** The pixel's [r, g, b]. */
  at(x: number, y: number): [number, number, number];
  /** Whether the pixel shows anything brighter than `threshold` (0..255) in any channel. */
  lit(x: number, y: number, threshold?: number): boolean;
  bounds(threshold?: number): Bounds | undefined;
}

/** Draws `elements` in one scene on black at `seconds` from the scene start. */
export function drawAt(elements: SpecElement[], seconds: number, duration = 4): DrawnFrame {
  env ??= createDrawEnv({ width: SIDE, height: SIDE }, FPS, noMedia);
  const video = resolveTimeline(
    assertSpec({
      kinoSpec: 1,
      fps: FPS,
      aspect: { width: SIDE, height: SIDE },
      scenes: [{ duration, background: '#000000', elements }],
    }),
  );
  const surface = env.createSurface(SIDE, SIDE);
  drawFrame(surface.ctx, video, Math.round(seconds * FPS), env);
  const data = surface.ctx.getImageData(0, 0, SIDE, SIDE).data;
  const at = (x: number, y: number): [number, number, number] => {
    const i = (Math.round(y) * SIDE + Math.round(x)) * 4;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
  const lit = (x: number, y: number, threshold = 40) => Math.max(...at(x, y)) > threshold;
  return {
    at,
    lit,
    bounds(threshold = 40) {
      let left = SIDE;
      let top = SIDE;
      let right = -1;
      let bottom = -1;
      for (let y = 0; y < SIDE; y++) {
        for (let x = 0; x < SIDE; x++) {
          const i = (y * SIDE + x) * 4;
          if (Math.max(data[i]!, data[i + 1]!, data[i + 2]!) <= threshold) continue;
          left = Math.min(left, x);
          right = Math.max(right, x);
          top = Math.min(top, y);
          bottom = Math.max(bottom, y);
        }
      }
      if (right < 0) return undefined;
      const width = right - left + 1;
      const height = bottom - top + 1;
      return {
        left,
        top,
        right,
        bottom,
        width,
        height,
        centreX: left + width / 2,
        centreY: top + height / 2,
      };
    },
  };
}

/** A rectangle centred on the frame, white unless a fill is given. */
export function centredRect(
  width: number,
  height: number,
  animate: Animation[],
  fill: Paint = '#ffffff',
): Extract<SpecElement, { type: 'rect' }> {
  return { type: 'rect', box: 'frame', x: 0.5, y: 0.5, width, height, fill, animate };
}
