// A faint, seeded film grain: it makes flat procedural gradients read as photographs and dithers
// away the banding that JPEG and H.264 would otherwise show in smooth skies.
import type { SKRSContext2D } from '@napi-rs/canvas';
import { seededRandom } from './random.ts';

export function addFilmGrain(
  ctx: SKRSContext2D,
  width: number,
  height: number,
  strength: number,
  seed: number,
): void {
  const random = seededRandom(seed);
  const image = ctx.getImageData(0, 0, width, height);
  const data = image.data;
  for (let i = 0; i < data.length; i += 4) {
    const n = (random() + random() - 1) * strength;
    data[i] = data[i]! + n;
    data[i + 1] = data[i + 1]! + n;
    data[i + 2] = data[i + 2]! + n;
  }
  ctx.putImageData(image, 0, 0);
}
