// A PNG made smaller for a model to look at: vision models read images of about 768 px on the long
// side, and a 1080×1920 frame costs several times the tokens for no more that they can see.
import { createCanvas, loadImage } from '@napi-rs/canvas';

export interface ScaledPng {
  png: Buffer;
  width: number;
  height: number;
}

/** `png` scaled down (never up) so that its longer side is at most `maxSide` pixels. */
export async function scalePngToFit(png: Buffer, maxSide: number): Promise<ScaledPng> {
  const image = await loadImage(png);
  const scale = Math.min(1, maxSide / Math.max(image.width, image.height));
  if (scale === 1) return { png, width: image.width, height: image.height };
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.imageSmoothingEnabled = true;
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, 0, 0, width, height);
  return { png: await canvas.encode('png'), width, height };
}
