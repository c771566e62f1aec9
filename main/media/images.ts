// Decodes the still images a render uses, once per render, from files already resolved inside the
// project or the download cache. Reading the bytes ourselves (rather than handing loadImage a path)
// keeps loadImage from ever fetching a URL or reading anything but the resolved file.
import { readFile } from 'node:fs/promises';
import { loadImage } from '@napi-rs/canvas';
import type { Image } from '@napi-rs/canvas';
import { MediaError } from './media-error.ts';

async function loadOne(src: string, path: string): Promise<Image> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    throw new MediaError(
      missing ? 'missing_asset' : 'media_unreadable',
      `image "${src}" ${missing ? 'not found' : 'cannot be read'} (${path})`,
      { source: src, cause: error },
    );
  }
  const corrupt = (cause?: unknown): MediaError =>
    new MediaError(
      'media_corrupt_image',
      `image "${src}" could not be decoded (${path}); use a valid PNG, JPEG, WebP, GIF, AVIF or SVG file`,
      { source: src, cause },
    );
  if (bytes.length === 0) throw corrupt();
  let image: Image;
  try {
    image = await loadImage(bytes);
  } catch (error) {
    throw corrupt(error);
  }
  if (!(image.width > 0 && image.height > 0)) throw corrupt();
  return image;
}

/** Decodes every image, keyed by its source string as written in the spec; fails on the first bad one. */
export async function loadImages(paths: ReadonlyMap<string, string>): Promise<Map<string, Image>> {
  const entries = await Promise.all(
    [...paths].map(async ([src, path]) => [src, await loadOne(src, path)] as const),
  );
  return new Map(entries);
}
