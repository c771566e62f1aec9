import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { assembleKernel, generatedModule } from './build-kernel.ts';
import { FRAME_CONTENTS, testFrame } from './yuv420p-frames.fixture.ts';
import { Yuv420pConverter } from './yuv420p-kernel.ts';
import { rgbaToYuv420pReference, yuv420pBytes } from './yuv420p-reference.ts';

function differingBytes(a: Uint8Array, b: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) count++;
  return count;
}

describe('Yuv420pConverter', () => {
  it('is the binary yuv420p.wat assembles to (npm run build:yuv-kernel)', async () => {
    const committed = await readFile(new URL('./yuv420p-kernel.generated.ts', import.meta.url), 'utf8');
    expect(committed).toBe(generatedModule(await assembleKernel()));
  });

  // Widths that are not a multiple of 8 or 16 take the kernel's overlapping last step; 8 and 10 are
  // the smallest frames it converts; one converter serves every size in turn, larger and smaller.
  const sizes = [
    [8, 8],
    [10, 8],
    [18, 10],
    [66, 50],
    [130, 66],
    [24, 8],
    [540, 960],
    [1082, 1922],
    [1080, 1920],
  ] as const;
  const converter = new Yuv420pConverter();
  for (const [width, height] of sizes) {
    it(`equals the reference at ${width}×${height}`, () => {
      const contents = width * height > 1e6 ? (['random'] as const) : FRAME_CONTENTS;
      for (const content of contents) {
        const rgba = testFrame(content, width, height, width * 7 + height);
        const expected = rgbaToYuv420pReference(rgba, width, height);
        const actual = converter.convert(rgba, width, height, new Uint8Array(yuv420pBytes(width, height)));
        expect({ content, differing: differingBytes(actual, expected) }).toEqual({ content, differing: 0 });
      }
    });
  }

  it('converts out of and into views of larger buffers', () => {
    const rgba = testFrame('gradient', 16, 8);
    const padded = new Uint8Array(rgba.length + 8);
    padded.set(rgba, 4);
    const slots = new Uint8Array(yuv420pBytes(16, 8) * 3).fill(7);
    const slot = slots.subarray(yuv420pBytes(16, 8), 2 * yuv420pBytes(16, 8));
    converter.convert(padded.subarray(4, 4 + rgba.length), 16, 8, slot);
    expect(differingBytes(slot, rgbaToYuv420pReference(rgba, 16, 8))).toBe(0);
    expect(slots.subarray(0, yuv420pBytes(16, 8)).every((b) => b === 7)).toBe(true);
    expect(slots.subarray(2 * yuv420pBytes(16, 8)).every((b) => b === 7)).toBe(true);
  });

  it('refuses sizes and buffers it cannot convert exactly', () => {
    expect(() => converter.convert(new Uint8Array(6 * 8 * 4), 6, 8, new Uint8Array(72))).toThrow(
      /even sides/,
    );
    expect(() => converter.convert(new Uint8Array(10), 8, 8, new Uint8Array(96))).toThrow(
      /RGBA frame has 256/,
    );
    expect(() => converter.convert(new Uint8Array(256), 8, 8, new Uint8Array(95))).toThrow(
      /yuv420p frame has 96/,
    );
  });
});
