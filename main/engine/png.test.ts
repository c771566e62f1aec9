import { createCanvas, loadImage } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { encodePng } from './png.ts';

async function decode(png: Buffer, width: number, height: number): Promise<Uint8ClampedArray> {
  const image = await loadImage(png);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return ctx.getImageData(0, 0, width, height).data;
}

describe('encodePng', () => {
  it('round-trips opaque pixels exactly, rows that differ from the row above included', async () => {
    const width = 37;
    const height = 23;
    const rgba = new Uint8Array(width * height * 4);
    for (let i = 0; i < rgba.length; i++) rgba[i] = i % 4 === 3 ? 255 : (i * 37 + (i >> 7) * 11) & 0xff;
    const png = await encodePng(rgba, width, height);
    expect([...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    expect([...(await decode(png, width, height))]).toEqual([...rgba]);
  });

  it('refuses pixels that do not match the size', async () => {
    await expect(encodePng(new Uint8Array(10), 2, 2)).rejects.toThrow('is not 2×2 RGBA');
  });
});
