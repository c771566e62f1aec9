// "logo.png": the Kino mark on a transparent ground. A rounded square in a coral-to-violet gradient
// holds a play triangle sliced into three bands (a nod to film frames), with the wordmark "KINO" set
// in Bebas Neue beneath it.
import { createRequire } from 'node:module';
import { GlobalFonts, createCanvas } from '@napi-rs/canvas';
import type { SKRSContext2D } from '@napi-rs/canvas';

const SIZE = 800;
const require = createRequire(import.meta.url);

function roundedRect(
  ctx: SKRSContext2D,
  x: number,
  y: number,
  width: number,
  height: number,
  radius: number,
): void {
  ctx.beginPath();
  ctx.roundRect(x, y, width, height, radius);
}

function paintMark(ctx: SKRSContext2D): void {
  const side = 400;
  const left = (SIZE - side) / 2;
  const top = 90;

  ctx.save();
  ctx.shadowColor = 'rgba(60, 20, 90, 0.45)';
  ctx.shadowBlur = 40;
  ctx.shadowOffsetY = 16;
  const body = ctx.createLinearGradient(left, top, left + side, top + side);
  body.addColorStop(0, '#ff7a59');
  body.addColorStop(0.55, '#f0487f');
  body.addColorStop(1, '#7b4dff');
  ctx.fillStyle = body;
  roundedRect(ctx, left, top, side, side, 104);
  ctx.fill();
  ctx.restore();

  // A soft sheen across the upper half gives the flat square some depth.
  const sheen = ctx.createLinearGradient(0, top, 0, top + side * 0.6);
  sheen.addColorStop(0, 'rgba(255, 255, 255, 0.22)');
  sheen.addColorStop(1, 'rgba(255, 255, 255, 0)');
  ctx.fillStyle = sheen;
  roundedRect(ctx, left, top, side, side, 104);
  ctx.fill();

  // A rounded play triangle sliced by two gaps into three bands, like frames passing a gate.
  const layer = createCanvas(SIZE, SIZE);
  const layerCtx = layer.getContext('2d');
  const cx = SIZE / 2 + 16;
  const cy = top + side / 2;
  layerCtx.fillStyle = '#ffffff';
  layerCtx.strokeStyle = '#ffffff';
  layerCtx.lineJoin = 'round';
  layerCtx.lineWidth = 44;
  layerCtx.beginPath();
  layerCtx.moveTo(cx - 88, cy - 112);
  layerCtx.lineTo(cx + 112, cy);
  layerCtx.lineTo(cx - 88, cy + 112);
  layerCtx.closePath();
  layerCtx.fill();
  layerCtx.stroke();
  layerCtx.globalCompositeOperation = 'destination-out';
  for (const offset of [-46, 46]) layerCtx.fillRect(0, cy + offset - 9, SIZE, 18);
  ctx.save();
  ctx.shadowColor = 'rgba(80, 20, 60, 0.35)';
  ctx.shadowBlur = 24;
  ctx.shadowOffsetY = 8;
  ctx.drawImage(layer, 0, 0);
  ctx.restore();
}

function paintWordmark(ctx: SKRSContext2D): void {
  const fontPath = require.resolve('@expo-google-fonts/bebas-neue/400Regular/BebasNeue_400Regular.ttf');
  GlobalFonts.registerFromPath(fontPath, 'Kino Logo Bebas');
  ctx.font = '190px "Kino Logo Bebas"';
  ctx.letterSpacing = '28px';
  ctx.textAlign = 'center';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#f7f4ff';
  ctx.shadowColor = 'rgba(20, 10, 40, 0.35)';
  ctx.shadowBlur = 18;
  ctx.shadowOffsetY = 6;
  // letterSpacing also trails the last glyph; shift by half of it to keep the word optically centred.
  ctx.fillText('KINO', SIZE / 2 + 14, 720);
}

export function paintLogo(): Buffer {
  const canvas = createCanvas(SIZE, SIZE);
  const ctx = canvas.getContext('2d');
  paintMark(ctx);
  paintWordmark(ctx);
  return canvas.encodeSync('png');
}
