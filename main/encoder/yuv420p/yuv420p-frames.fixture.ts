// Test frames for the yuv420p conversion: noise (every rounding path), smooth gradients (the
// chroma filter's edges and neighbours) and semi-transparent pixels (alpha must be ignored); and
// whether the machine's ffmpeg is the one the conversion reproduces exactly.
import { execFileSync } from 'node:child_process';
import { ffmpegPath } from '../../ffmpeg/binaries.ts';

/** The ffmpeg tests run, and whether it rounds as the reference (5.1 on x86-64); undefined if none. */
export function ffmpegForYuvTests(): { path: string; version: string; exact: boolean } | undefined {
  try {
    const path = ffmpegPath();
    const version = execFileSync(path, ['-version'], { encoding: 'utf8' }).split('\n')[0] ?? '';
    return { path, version, exact: process.arch === 'x64' && /version n?5\.1/.test(version) };
  } catch {
    return undefined;
  }
}

export type FrameContent = 'random' | 'gradient' | 'semi-transparent';

export const FRAME_CONTENTS: FrameContent[] = ['random', 'gradient', 'semi-transparent'];

/** A deterministic straight-RGBA frame of the given content. */
export function testFrame(content: FrameContent, width: number, height: number, seed = 11): Uint8Array {
  const rgba = new Uint8Array(width * height * 4);
  let state = seed >>> 0;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) >>> 24;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 4;
      if (content === 'random') {
        rgba[p] = random();
        rgba[p + 1] = random();
        rgba[p + 2] = random();
        rgba[p + 3] = 255;
      } else if (content === 'gradient') {
        rgba[p] = (x * 255) / Math.max(1, width - 1);
        rgba[p + 1] = (y * 255) / Math.max(1, height - 1);
        rgba[p + 2] = ((x + y) * 3) & 255;
        rgba[p + 3] = 255;
      } else {
        // Stripes of noise and gradient, with every alpha: the colour channels are straight RGB.
        const smooth = (x >> 5) % 2 === 0;
        rgba[p] = smooth ? (x + y) & 255 : random();
        rgba[p + 1] = smooth ? (3 * y) & 255 : random();
        rgba[p + 2] = smooth ? (255 - x) & 255 : random();
        rgba[p + 3] = random();
      }
    }
  }
  return rgba;
}
