import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadImages } from './images.ts';
import { MediaError } from './media-error.ts';

let dir: string;
let png: string;
let jpeg: string;
let svg: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kino-images-'));
  const canvas = createCanvas(40, 30);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ff0000';
  ctx.fillRect(0, 0, 20, 30);
  ctx.fillStyle = '#0000ff';
  ctx.fillRect(20, 0, 20, 30);
  png = join(dir, 'split.png');
  jpeg = join(dir, 'split.jpg');
  svg = join(dir, 'dot.svg');
  await writeFile(png, canvas.toBuffer('image/png'));
  await writeFile(jpeg, canvas.toBuffer('image/jpeg', 95));
  await writeFile(
    svg,
    '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32"><rect width="64" height="32" fill="#00ff00"/></svg>',
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function failure(paths: Map<string, string>): Promise<MediaError> {
  const error = await loadImages(paths).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MediaError);
  return error as MediaError;
}

describe('loadImages', () => {
  it('decodes PNG, JPEG and SVG, keyed by source, drawable with their pixels', async () => {
    const images = await loadImages(
      new Map([
        ['asset:split.png', png],
        ['photos/split.jpg', jpeg],
        ['asset:dot.svg', svg],
      ]),
    );
    expect([...images.keys()]).toEqual(['asset:split.png', 'photos/split.jpg', 'asset:dot.svg']);
    const image = images.get('asset:split.png')!;
    expect([image.width, image.height]).toEqual([40, 30]);
    expect([images.get('asset:dot.svg')!.width, images.get('asset:dot.svg')!.height]).toEqual([64, 32]);

    const target = createCanvas(40, 30);
    const ctx = target.getContext('2d');
    ctx.drawImage(images.get('photos/split.jpg')!, 0, 0);
    const left = ctx.getImageData(5, 15, 1, 1).data;
    const right = ctx.getImageData(35, 15, 1, 1).data;
    expect(left[0]).toBeGreaterThan(200);
    expect(left[2]).toBeLessThan(50);
    expect(right[2]).toBeGreaterThan(200);
    expect(right[0]).toBeLessThan(50);
  });

  it('names the source of a corrupt image', async () => {
    const broken = join(dir, 'broken.png');
    const good = await import('node:fs/promises').then((fs) => fs.readFile(png));
    await writeFile(broken, good.subarray(0, 40));
    const error = await failure(new Map([['asset:broken.png', broken]]));
    expect(error.code).toBe('media_corrupt_image');
    expect(error.source).toBe('asset:broken.png');
    expect(error.message).toContain('asset:broken.png');
  });

  it('refuses text pretending to be an image, and empty files', async () => {
    const text = join(dir, 'text.png');
    const empty = join(dir, 'empty.png');
    await writeFile(text, 'hello, not an image');
    await writeFile(empty, '');
    expect((await failure(new Map([['text.png', text]]))).code).toBe('media_corrupt_image');
    expect((await failure(new Map([['empty.png', empty]]))).code).toBe('media_corrupt_image');
  });

  it('names the source of a missing file', async () => {
    const error = await failure(new Map([['asset:gone.png', join(dir, 'gone.png')]]));
    expect(error.code).toBe('missing_asset');
    expect(error.message).toContain('asset:gone.png');
  });

  it('returns an empty map for no images', async () => {
    expect((await loadImages(new Map())).size).toBe(0);
  });
});
