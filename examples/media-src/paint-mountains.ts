// "photo-mountains.jpg": layered ridges fading into a warm, hazy dawn, with the sun low on the
// horizon. Far ridges take the sky's colour (aerial perspective); the nearest are almost black,
// which leaves calm, dark space for text over the lower half.
import { createCanvas } from '@napi-rs/canvas';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { addFilmGrain } from './film-grain.ts';
import { fractalNoise1d, seededRandom } from './random.ts';

const WIDTH = 1600;
const HEIGHT = 1067;

interface Rgb {
  r: number;
  g: number;
  b: number;
}

const hex = (value: string): Rgb => ({
  r: parseInt(value.slice(1, 3), 16),
  g: parseInt(value.slice(3, 5), 16),
  b: parseInt(value.slice(5, 7), 16),
});
const mix = (a: Rgb, b: Rgb, t: number): Rgb => ({
  r: a.r + (b.r - a.r) * t,
  g: a.g + (b.g - a.g) * t,
  b: a.b + (b.b - a.b) * t,
});
const css = ({ r, g, b }: Rgb, alpha = 1) =>
  `rgba(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)}, ${alpha})`;

const SUN = { x: WIDTH * 0.66, y: HEIGHT * 0.385 };
const HAZE = hex('#f6c9a4');
const FAR_RIDGE = hex('#b7a3c4');
const NEAR_RIDGE = hex('#120f22');

function paintSky(ctx: SKRSContext2D): void {
  const sky = ctx.createLinearGradient(0, 0, 0, HEIGHT * 0.62);
  sky.addColorStop(0, '#1b2147');
  sky.addColorStop(0.35, '#4a4d82');
  sky.addColorStop(0.7, '#c98a9a');
  sky.addColorStop(1, '#fbd2a6');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, WIDTH, HEIGHT);

  const glow = ctx.createRadialGradient(SUN.x, SUN.y, 0, SUN.x, SUN.y, WIDTH * 0.55);
  glow.addColorStop(0, 'rgba(255, 236, 200, 0.95)');
  glow.addColorStop(0.08, 'rgba(255, 214, 160, 0.6)');
  glow.addColorStop(0.35, 'rgba(250, 170, 130, 0.22)');
  glow.addColorStop(1, 'rgba(250, 170, 130, 0)');
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, WIDTH, HEIGHT);

  ctx.fillStyle = '#fff3dc';
  ctx.beginPath();
  ctx.arc(SUN.x, SUN.y, 46, 0, Math.PI * 2);
  ctx.fill();
}

/** Long, thin clouds lit from below by the low sun. */
function paintClouds(ctx: SKRSContext2D, random: () => number): void {
  for (let i = 0; i < 9; i++) {
    const y = HEIGHT * (0.12 + random() * 0.26);
    const x = WIDTH * (random() * 1.1 - 0.05);
    const length = WIDTH * (0.18 + random() * 0.3);
    const thickness = 6 + random() * 14;
    const lit = mix(hex('#f7b8a0'), hex('#8a6f9e'), 1 - y / (HEIGHT * 0.4));
    ctx.save();
    ctx.filter = `blur(${6 + random() * 6}px)`;
    ctx.fillStyle = css(lit, 0.35 + random() * 0.25);
    ctx.beginPath();
    ctx.ellipse(x, y, length / 2, thickness, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
  }
}

function paintRidges(ctx: SKRSContext2D, random: () => number): void {
  const layers = 6;
  for (let layer = 0; layer < layers; layer++) {
    const depth = layer / (layers - 1);
    const noise = fractalNoise1d(random, 6);
    const base = HEIGHT * (0.49 + depth * 0.36);
    const amplitude = HEIGHT * (0.12 + depth * 0.08);
    const wavelength = 900 - depth * 420;
    const offset = random() * 200;
    const color = mix(FAR_RIDGE, NEAR_RIDGE, Math.pow(depth, 0.8));
    const top = base - amplitude;

    ctx.beginPath();
    ctx.moveTo(0, HEIGHT);
    for (let x = 0; x <= WIDTH; x += 4) {
      // abs() of the noise folds it into sharp peaks and rounded valleys, like real ridgelines.
      const ridge = 1 - Math.abs(noise(offset + x / wavelength));
      const detail = noise(offset * 3 + x / (wavelength * 0.18)) * 0.12;
      ctx.lineTo(x, base - amplitude * (ridge * 1.1 + detail));
    }
    ctx.lineTo(WIDTH, HEIGHT);
    ctx.closePath();

    const body = ctx.createLinearGradient(0, top, 0, HEIGHT);
    body.addColorStop(0, css(mix(color, HAZE, 0.12 * (1 - depth))));
    body.addColorStop(0.45, css(color));
    body.addColorStop(1, css(mix(color, NEAR_RIDGE, 0.5)));
    ctx.fillStyle = body;
    ctx.fill();

    // Haze pooling in the valley in front of this ridge separates it from the next one.
    if (layer < layers - 1) {
      const fogTop = base - amplitude * 0.2;
      const fog = ctx.createLinearGradient(0, fogTop, 0, base + HEIGHT * 0.08);
      const fogColor = mix(HAZE, FAR_RIDGE, depth);
      fog.addColorStop(0, css(fogColor, 0));
      fog.addColorStop(1, css(fogColor, 0.55 - depth * 0.35));
      ctx.fillStyle = fog;
      ctx.fillRect(0, fogTop, WIDTH, HEIGHT - fogTop);
    }
  }
}

function paintBirds(ctx: SKRSContext2D, random: () => number): void {
  ctx.strokeStyle = 'rgba(40, 30, 60, 0.7)';
  ctx.lineCap = 'round';
  for (let i = 0; i < 5; i++) {
    const x = WIDTH * 0.28 + random() * 180;
    const y = HEIGHT * 0.3 + random() * 90;
    const span = 7 + random() * 6;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x - span, y - span * 0.4);
    ctx.quadraticCurveTo(x - span * 0.4, y - span * 0.55, x, y);
    ctx.quadraticCurveTo(x + span * 0.4, y - span * 0.55, x + span, y - span * 0.4);
    ctx.stroke();
  }
}

/** The low sun's light scatters in front of the ridges too. */
function paintSunHaze(ctx: SKRSContext2D): void {
  ctx.save();
  ctx.globalCompositeOperation = 'screen';
  const haze = ctx.createRadialGradient(SUN.x, SUN.y, 0, SUN.x, SUN.y, WIDTH * 0.4);
  haze.addColorStop(0, 'rgba(255, 210, 160, 0.55)');
  haze.addColorStop(0.4, 'rgba(240, 160, 130, 0.16)');
  haze.addColorStop(1, 'rgba(240, 160, 130, 0)');
  ctx.fillStyle = haze;
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  ctx.restore();
}

function paintVignette(ctx: SKRSContext2D): void {
  const vignette = ctx.createRadialGradient(
    WIDTH / 2,
    HEIGHT * 0.45,
    HEIGHT * 0.35,
    WIDTH / 2,
    HEIGHT * 0.5,
    WIDTH * 0.75,
  );
  vignette.addColorStop(0, 'rgba(0, 0, 0, 0)');
  vignette.addColorStop(1, 'rgba(8, 6, 20, 0.45)');
  ctx.fillStyle = vignette;
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
}

export function paintMountains(): Buffer {
  const canvas = createCanvas(WIDTH, HEIGHT);
  const ctx = canvas.getContext('2d');
  const random = seededRandom(1867);
  paintSky(ctx);
  paintClouds(ctx, random);
  paintBirds(ctx, random);
  paintRidges(ctx, random);
  paintSunHaze(ctx);
  paintVignette(ctx);
  addFilmGrain(ctx, WIDTH, HEIGHT, 5, 77);
  return canvas.encodeSync('jpeg', 82);
}
