import { createCanvas, loadImage } from '@napi-rs/canvas';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutputPathError } from './frame-encoder.ts';
import { writePoster } from './poster.ts';

const W = 64;
const H = 48;
let dir: string;

/** Left half opaque red, right half 50% transparent green. */
function pixels(): Uint8Array {
  const rgba = new Uint8Array(W * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 4;
      rgba.set(x < W / 2 ? [255, 0, 0, 255] : [0, 200, 0, 128], o);
    }
  }
  return rgba;
}

async function readBack(path: string): Promise<Uint8ClampedArray> {
  const image = await loadImage(await readFile(path));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  expect([image.width, image.height]).toEqual([W, H]);
  return ctx.getImageData(0, 0, W, H).data;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kino-poster-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writePoster', () => {
  it('writes a PNG that reads back with the same pixels, alpha included', async () => {
    const path = join(dir, 'poster.png');
    const result = await writePoster(pixels(), W, H, path);
    expect(result.bytes).toBe((await readFile(path)).byteLength);
    const back = await readBack(path);
    expect([...back.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    const right = (10 * W + 50) * 4;
    expect(back[right + 1]).toBeGreaterThan(195);
    expect(back[right + 3]).toBe(128);
  });

  it('writes a JPEG by extension', async () => {
    const path = join(dir, 'poster.jpg');
    await writePoster(pixels(), W, H, path);
    const bytes = await readFile(path);
    expect([bytes[0], bytes[1]]).toEqual([0xff, 0xd8]);
    const back = await readBack(path);
    expect(back[0]).toBeGreaterThan(230);
    expect(back[1]).toBeLessThan(30);
  });

  it('replaces an existing poster and leaves no partial file', async () => {
    const path = join(dir, 'again.png');
    await writeFile(path, 'old');
    await writePoster(pixels(), W, H, path);
    expect((await readFile(path)).subarray(1, 4).toString()).toBe('PNG');
    expect((await readdir(dir)).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('refuses other extensions, wrong sizes and unwritable places with a clear message', async () => {
    await expect(writePoster(pixels(), W, H, join(dir, 'poster.bmp'))).rejects.toThrow(/\.png or \.jpg/);
    await expect(writePoster(pixels(), W + 1, H, join(dir, 'p.png'))).rejects.toThrow(
      /is not a 65×48 RGBA image/,
    );
    await expect(writePoster(pixels(), W, H, join(dir, 'missing', 'p.png'))).rejects.toThrow(OutputPathError);
  });
});
