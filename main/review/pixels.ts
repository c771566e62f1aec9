// Compact statistics of a drawn frame, computed right after drawing so review never holds on to
// full frames: how flat the frame is, and the colours behind a text's glyphs.
import type { FrameSize } from '../../shared/spec/sizes.ts';
import type { PixelRect } from './review-session.ts';
import type { FrameRect } from '../../shared/canvas/device-rect.ts';

/** The frame is judged in blocks of this many pixels, averaged, so film grain does not count as content. */
const BLOCK = 16;
/** Points read per block side (every BLOCK / POINTS pixels). */
const POINTS = 4;
/** A block differs from the dominant colour when a channel differs by more than this (of 255). */
const FLAT_TOLERANCE = 10;

export interface Flatness {
  /** The most common block colour, straight RGBA 0..255. */
  dominant: [number, number, number, number];
  /** Share of the frame's blocks within FLAT_TOLERANCE of the dominant colour. */
  flatShare: number;
}

export function flatness(rgba: Uint8Array, size: FrameSize): Flatness {
  const { width, height } = size;
  const step = BLOCK / POINTS;
  const colours: number[][] = [];
  const buckets = new Map<number, number[]>();
  for (let by = 0; by + BLOCK <= height; by += BLOCK) {
    for (let bx = 0; bx + BLOCK <= width; bx += BLOCK) {
      const sum = [0, 0, 0, 0];
      for (let y = by + step / 2; y < by + BLOCK; y += step) {
        for (let x = bx + step / 2; x < bx + BLOCK; x += step) {
          const i = (y * width + x) * 4;
          for (let c = 0; c < 4; c++) sum[c]! += rgba[i + c]!;
        }
      }
      const colour = sum.map((s) => s / (POINTS * POINTS));
      const bucket = colour.reduce((key, c) => key * 32 + (c >> 3), 0);
      colours.push(colour);
      const members = buckets.get(bucket);
      if (members) members.push(colours.length - 1);
      else buckets.set(bucket, [colours.length - 1]);
    }
  }
  let largest: number[] = [];
  for (const members of buckets.values()) if (members.length > largest.length) largest = members;
  const dominant = [0, 1, 2, 3].map(
    (c) => largest.reduce((s, i) => s + colours[i]![c]!, 0) / Math.max(1, largest.length),
  ) as Flatness['dominant'];
  const flat = colours.filter((colour) =>
    colour.every((value, c) => Math.abs(value - dominant[c]!) <= FLAT_TOLERANCE),
  ).length;
  return { dominant, flatShare: colours.length > 0 ? flat / colours.length : 1 };
}

/** A rect rounded out to whole pixels and kept on the frame; undefined when nothing is left. */
export function clampToFrame(rect: FrameRect, size: FrameSize): PixelRect | undefined {
  const clamped = {
    x0: Math.max(0, Math.floor(rect.x0)),
    y0: Math.max(0, Math.floor(rect.y0)),
    x1: Math.min(size.width, Math.ceil(rect.x1)),
    y1: Math.min(size.height, Math.ceil(rect.y1)),
  };
  return clamped.x1 > clamped.x0 && clamped.y1 > clamped.y0 ? clamped : undefined;
}

/** Pixels read per line band at most: enough for a stable percentile, cheap to hold per sample. */
const MAX_POINTS_PER_BAND = 1500;

/**
 * The colours inside `bands` (device rects, e.g. a text's glyph bands), as RGB triples, read from
 * `region` (the pixels of `area` on the frame) on an even grid of at most MAX_POINTS_PER_BAND each.
 */
export function samplePoints(region: Uint8Array, area: PixelRect, bands: readonly FrameRect[]): Uint8Array {
  const width = area.x1 - area.x0;
  const points: number[] = [];
  for (const band of bands) {
    const x0 = Math.max(area.x0, Math.floor(band.x0));
    const y0 = Math.max(area.y0, Math.floor(band.y0));
    const x1 = Math.min(area.x1, Math.ceil(band.x1));
    const y1 = Math.min(area.y1, Math.ceil(band.y1));
    if (x1 <= x0 || y1 <= y0) continue;
    const step = Math.max(1, Math.ceil(Math.sqrt(((x1 - x0) * (y1 - y0)) / MAX_POINTS_PER_BAND)));
    for (let y = y0; y < y1; y += step) {
      for (let x = x0; x < x1; x += step) {
        const i = ((y - area.y0) * width + (x - area.x0)) * 4;
        points.push(region[i]!, region[i + 1]!, region[i + 2]!);
      }
    }
  }
  return Uint8Array.from(points);
}
