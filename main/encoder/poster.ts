// A still of one frame beside the video (thumbnails, link previews), written like the video: to a
// hidden partial file first, renamed into place only when complete.
import { createCanvas } from '@napi-rs/canvas';
import { rename, unlink, writeFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { OutputPathError, partialPathFor } from './frame-encoder.ts';

const JPEG_QUALITY = 90;

export type PosterType = 'png' | 'jpeg';

export function posterTypeFor(path: string): PosterType {
  const ext = extname(path).toLowerCase();
  if (ext === '.png') return 'png';
  if (ext === '.jpg' || ext === '.jpeg') return 'jpeg';
  throw new OutputPathError(`${path}: a poster is written as .png or .jpg; change the extension.`);
}

/** Encodes straight (not premultiplied) RGBA pixels; JPEG drops alpha onto black. */
export async function encodePoster(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  type: PosterType,
) {
  if (rgba.byteLength !== width * height * 4) {
    throw new Error(`poster pixels: ${rgba.byteLength} bytes is not a ${width}×${height} RGBA image.`);
  }
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(width, height);
  image.data.set(rgba);
  ctx.putImageData(image, 0, 0);
  return type === 'png' ? canvas.encode('png') : canvas.encode('jpeg', JPEG_QUALITY);
}

export async function writePoster(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  outputPath: string,
): Promise<{ path: string; bytes: number }> {
  const encoded = await encodePoster(rgba, width, height, posterTypeFor(outputPath));
  const partial = partialPathFor(outputPath);
  try {
    await writeFile(partial, encoded, { flag: 'wx' });
    await rename(partial, outputPath);
  } catch (error) {
    await unlink(partial).catch(() => {});
    const err = error as NodeJS.ErrnoException;
    throw new OutputPathError(
      `cannot write poster ${outputPath} (${err.code ?? err.message}); choose a writable location.`,
      {
        cause: error,
      },
    );
  }
  return { path: outputPath, bytes: encoded.byteLength };
}
