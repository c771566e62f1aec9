import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
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

/** A real PNG of width × height in one grey, deflated by zlib: tiny on disk, huge when decoded. */
function greyPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const row = Buffer.alloc(width + 1, 0x80);
  row[0] = 0; // filter: none
  const rows = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('loadImages: pixel limit (issue 12)', () => {
  it('refuses an image whose header declares more pixels than the limit, before decoding it', async () => {
    const big = join(dir, 'big.png');
    await writeFile(big, greyPng(1200, 1000));
    const ok = join(dir, 'ok.png');
    await writeFile(ok, greyPng(1000, 1000));
    const limits = { maxPixels: 1_000_000 };
    expect((await loadImages(new Map([['asset:ok.png', ok]]), limits)).get('asset:ok.png')!.width).toBe(1000);
    const error = await loadImages(new Map([['asset:big.png', big]]), limits).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'media_image_too_large', source: 'asset:big.png' });
    expect((error as Error).message).toMatch(
      /1200×1000 \(1\.2 MP\), over the 1\.0 MP limit.*media\.maxImagePixels/,
    );
  });

  it('keeps the default limit at 40 MP: a 15000×15000 PNG of a few hundred KB is refused', async () => {
    const huge = join(dir, 'huge.png');
    await writeFile(huge, greyPng(15000, 15000));
    expect(await failure(new Map([['asset:huge.png', huge]]))).toMatchObject({
      code: 'media_image_too_large',
    });
  });

  it('rasterises an SVG that declares 60000×60000 under the limit, keeping its aspect', async () => {
    const vast = join(dir, 'vast.svg');
    await writeFile(
      vast,
      '<svg xmlns="http://www.w3.org/2000/svg" width="60000" height="30000" viewBox="0 0 2 1"><rect width="1" height="1" fill="#f00"/><rect x="1" width="1" height="1" fill="#00f"/></svg>',
    );
    const image = (await loadImages(new Map([['asset:vast.svg', vast]]), { maxPixels: 2_000_000 })).get(
      'asset:vast.svg',
    )!;
    expect(image.width * image.height).toBeLessThanOrEqual(2_000_000);
    expect(image.width / image.height).toBeCloseTo(2, 2);
    const canvas = createCanvas(image.width, image.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    expect([...ctx.getImageData(10, 10, 1, 1).data]).toEqual([255, 0, 0, 255]);
    expect([...ctx.getImageData(image.width - 10, 10, 1, 1).data]).toEqual([0, 0, 255, 255]);
  });
});
