// The frames of "clip-waves.mp4": translucent ribbons of light rolling over a deep night-blue
// ground. Every motion completes whole cycles over the clip, so it loops without a seam.
import { createCanvas } from '@napi-rs/canvas';
import type { SKRSContext2D } from '@napi-rs/canvas';

export const WAVES_WIDTH = 1280;
export const WAVES_HEIGHT = 720;
export const WAVES_FPS = 30;
export const WAVES_SECONDS = 4;

interface Ribbon {
  colors: [string, string];
  baseline: number;
  amplitude: number;
  /** Spatial waves across the frame, and temporal cycles over the clip (whole numbers: seamless). */
  waves: number;
  cycles: number;
  phase: number;
  thickness: number;
}

const RIBBONS: Ribbon[] = [
  {
    colors: ['#2ec5d3', '#3a7bd5'],
    baseline: 0.42,
    amplitude: 0.09,
    waves: 1.2,
    cycles: 1,
    phase: 0,
    thickness: 0.2,
  },
  {
    colors: ['#7b5cff', '#c86dd7'],
    baseline: 0.52,
    amplitude: 0.11,
    waves: 0.9,
    cycles: -1,
    phase: 1.3,
    thickness: 0.16,
  },
  {
    colors: ['#ff7a59', '#f0487f'],
    baseline: 0.6,
    amplitude: 0.07,
    waves: 1.6,
    cycles: 2,
    phase: 2.1,
    thickness: 0.1,
  },
  {
    colors: ['#47e6b1', '#2ec5d3'],
    baseline: 0.68,
    amplitude: 0.06,
    waves: 2.1,
    cycles: -2,
    phase: 0.6,
    thickness: 0.08,
  },
  {
    colors: ['#ffd27a', '#ff7a59'],
    baseline: 0.47,
    amplitude: 0.05,
    waves: 2.6,
    cycles: 3,
    phase: 4.2,
    thickness: 0.03,
  },
];

function ribbonEdge(ribbon: Ribbon, x: number, t: number, offset: number): number {
  const turn = Math.PI * 2;
  const u = x / WAVES_WIDTH;
  const main = Math.sin(turn * (u * ribbon.waves + ribbon.cycles * t) + ribbon.phase + offset);
  const swell = Math.sin(turn * (u * ribbon.waves * 0.5 - ribbon.cycles * t) + ribbon.phase * 2) * 0.35;
  return WAVES_HEIGHT * (ribbon.baseline + ribbon.amplitude * (main + swell));
}

function paintRibbon(ctx: SKRSContext2D, ribbon: Ribbon, t: number): void {
  const half = (WAVES_HEIGHT * ribbon.thickness) / 2;
  ctx.beginPath();
  for (let x = 0; x <= WAVES_WIDTH; x += 8) ctx.lineTo(x, ribbonEdge(ribbon, x, t, 0) - half);
  for (let x = WAVES_WIDTH; x >= 0; x -= 8) {
    // The lower edge runs slightly out of phase, so the ribbon swells and pinches as it moves.
    const pinch = 0.55 + 0.45 * Math.sin((Math.PI * 2 * x) / WAVES_WIDTH + Math.PI * 2 * t + ribbon.phase);
    ctx.lineTo(x, ribbonEdge(ribbon, x, t, 0.5) + half * pinch);
  }
  ctx.closePath();
  const fill = ctx.createLinearGradient(0, 0, WAVES_WIDTH, 0);
  fill.addColorStop(0, ribbon.colors[0]);
  fill.addColorStop(1, ribbon.colors[1]);
  ctx.fillStyle = fill;
  ctx.fill();
}

/** Frame `index` of the clip as unpremultiplied RGBA bytes. */
export function paintWaveFrame(index: number): Uint8ClampedArray {
  const t = index / (WAVES_FPS * WAVES_SECONDS);
  const canvas = createCanvas(WAVES_WIDTH, WAVES_HEIGHT);
  const ctx = canvas.getContext('2d');

  const ground = ctx.createLinearGradient(0, 0, 0, WAVES_HEIGHT);
  ground.addColorStop(0, '#070a1c');
  ground.addColorStop(0.6, '#0f1433');
  ground.addColorStop(1, '#070a1c');
  ctx.fillStyle = ground;
  ctx.fillRect(0, 0, WAVES_WIDTH, WAVES_HEIGHT);

  // A slow light drifting along a loop behind the ribbons.
  const lightX = WAVES_WIDTH * (0.5 + 0.22 * Math.cos(Math.PI * 2 * t));
  const lightY = WAVES_HEIGHT * (0.45 + 0.08 * Math.sin(Math.PI * 2 * t));
  const light = ctx.createRadialGradient(lightX, lightY, 0, lightX, lightY, WAVES_WIDTH * 0.45);
  light.addColorStop(0, 'rgba(120, 110, 255, 0.35)');
  light.addColorStop(1, 'rgba(120, 110, 255, 0)');
  ctx.fillStyle = light;
  ctx.fillRect(0, 0, WAVES_WIDTH, WAVES_HEIGHT);

  ctx.globalCompositeOperation = 'screen';
  for (const ribbon of RIBBONS) {
    ctx.save();
    ctx.globalAlpha = 0.5;
    ctx.filter = 'blur(18px)';
    paintRibbon(ctx, ribbon, t);
    ctx.restore();
    ctx.globalAlpha = 0.55;
    paintRibbon(ctx, ribbon, t);
  }
  ctx.globalAlpha = 1;
  ctx.globalCompositeOperation = 'source-over';
  return ctx.getImageData(0, 0, WAVES_WIDTH, WAVES_HEIGHT).data;
}
