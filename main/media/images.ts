// Decodes the still images a render uses, once per render, from files already resolved inside the
// project or the download cache. Reading the bytes ourselves (rather than handing loadImage a path)
// keeps loadImage from ever fetching a URL or reading anything but the resolved file. The header is
// read first (image-size): a 27 KB PNG can declare 15000×15000 and decode to 900 MB, and an SVG
// rasterised at a declared 60000×60000 kills the process inside Skia.
import { readFile } from 'node:fs/promises';
import { Image } from '@napi-rs/canvas';
import { imageSize } from 'image-size';
import { MediaError } from './media-error.ts';
import { DEFAULT_MEDIA_POLICY } from './policy.ts';

export interface ImageLimits {
  /** Largest width × height decoded (media.maxImagePixels). */
  maxPixels: number;
}

const DEFAULT_LIMITS: ImageLimits = { maxPixels: DEFAULT_MEDIA_POLICY.maxImagePixels };

const megapixels = (pixels: number) => `${(pixels / 1e6).toFixed(pixels < 1e7 ? 1 : 0)} MP`;

function decode(bytes: Buffer, size?: { width: number; height: number }): Promise<Image> {
  // Built with a size, an SVG is rasterised at that size; other formats ignore it.
  const image = size ? new Image(size.width, size.height) : new Image();
  return new Promise((resolve, reject) => {
    image.onload = () => resolve(image);
    image.onerror = reject;
    image.src = bytes;
  });
}

/** An SVG's raster size: its declared size, scaled down (aspect kept) to fit the pixel limit. */
function svgRasterSize(width: number, height: number, maxPixels: number) {
  const scale = Math.min(1, Math.sqrt(maxPixels / (width * height)));
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

async function loadOne(src: string, path: string, limits: ImageLimits): Promise<Image> {
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
  let header: { width?: number | undefined; height?: number | undefined; type?: string | undefined };
  try {
    header = imageSize(bytes);
  } catch (error) {
    throw corrupt(error);
  }
  const { width = 0, height = 0, type } = header;
  if (!(width > 0 && height > 0)) throw corrupt();
  const pixels = width * height;
  let image: Image;
  try {
    if (type === 'svg') {
      image = await decode(bytes, svgRasterSize(width, height, limits.maxPixels));
    } else {
      if (pixels > limits.maxPixels) {
        throw new MediaError(
          'media_image_too_large',
          `image "${src}" is ${width}×${height} (${megapixels(pixels)}), over the ${megapixels(limits.maxPixels)} limit; scale it down, or raise media.maxImagePixels in the project config`,
          { source: src },
        );
      }
      image = await decode(bytes);
    }
  } catch (error) {
    if (error instanceof MediaError) throw error;
    throw corrupt(error);
  }
  if (!(image.width > 0 && image.height > 0)) throw corrupt();
  return image;
}

/** Decodes every image, keyed by its source string as written in the spec; fails on the first bad one. */
export async function loadImages(
  paths: ReadonlyMap<string, string>,
  limits: ImageLimits = DEFAULT_LIMITS,
): Promise<Map<string, Image>> {
  const entries = await Promise.all(
    [...paths].map(async ([src, path]) => [src, await loadOne(src, path, limits)] as const),
  );
  return new Map(entries);
}
