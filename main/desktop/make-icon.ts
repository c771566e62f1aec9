// The app icon (build/resources/icon.png, 512×512, from which electron-builder makes the .icns and
// .ico): the Kino mark of examples/media-src/paint-logo.ts without the wordmark, on the macOS icon
// grid (the body fills ~80% of the canvas, leaving room for its shadow).
// Run: node main/desktop/make-icon.ts (build.ts also writes it when it is missing).
import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';

export const ICON_SIZE = 512;
export const ICON_PATH = fileURLToPath(new URL('../../build/resources/icon.png', import.meta.url));

export function paintIcon(size = ICON_SIZE): Buffer {
  const unit = size / 512;
  const canvas = createCanvas(size, size);
  const ctx = canvas.getContext('2d');
  const side = 412 * unit;
  const left = (size - side) / 2;
  const top = left - 6 * unit;
  const radius = 92 * unit;

  ctx.save();
  ctx.shadowColor = 'rgba(60, 20, 90, 0.40)';
  ctx.shadowBlur = 20 * unit;
  ctx.shadowOffsetY = 8 * unit;
  const body = ctx.createLinearGradient(left, top, left + side, top + side);
  body.addColorStop(0, '#ff7a59');
  body.addColorStop(0.55, '#f0487f');
  body.addColorStop(1, '#7b4dff');
  ctx.fillStyle = body;
  ctx.beginPath();
  ctx.roundRect(left, top, side, side, radius);
  ctx.fill();
  ctx.restore();

  const sheen = ctx.createLinearGradient(0, top, 0, top + side * 0.6);
  sheen.addColorStop(0, 'rgba(255, 255, 255, 0.22)');
  sheen.addColorStop(1, 'rgba(255, 255, 255, 0)');
  ctx.fillStyle = sheen;
  ctx.beginPath();
  ctx.roundRect(left, top, side, side, radius);
  ctx.fill();

  // The play triangle cut into three bands, like frames passing a gate.
  const layer = createCanvas(size, size);
  const mark = layer.getContext('2d');
  const cx = size / 2 + 16 * unit;
  const cy = top + side / 2;
  const s = 1.03 * unit;
  mark.fillStyle = '#ffffff';
  mark.strokeStyle = '#ffffff';
  mark.lineJoin = 'round';
  mark.lineWidth = 44 * s;
  mark.beginPath();
  mark.moveTo(cx - 88 * s, cy - 112 * s);
  mark.lineTo(cx + 112 * s, cy);
  mark.lineTo(cx - 88 * s, cy + 112 * s);
  mark.closePath();
  mark.fill();
  mark.stroke();
  mark.globalCompositeOperation = 'destination-out';
  for (const offset of [-46, 46]) mark.fillRect(0, cy + (offset - 9) * s, size, 18 * s);
  ctx.save();
  ctx.shadowColor = 'rgba(80, 20, 60, 0.35)';
  ctx.shadowBlur = 12 * unit;
  ctx.shadowOffsetY = 4 * unit;
  ctx.drawImage(layer, 0, 0);
  ctx.restore();
  return canvas.encodeSync('png');
}

/** Writes the icon unless it is already there (it is committed; this restores a missing one). */
export async function ensureIcon(file = ICON_PATH, options: { force?: boolean } = {}): Promise<boolean> {
  if (!options.force && (await stat(file).catch(() => undefined))) return false;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, paintIcon());
  return true;
}

if (import.meta.main) {
  await ensureIcon(ICON_PATH, { force: true });
  process.stdout.write(`${path.relative(process.cwd(), ICON_PATH)}\n`);
}
