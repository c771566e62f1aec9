// "photo-city.jpg": a skyline at dusk over still water. Three depths of towers (the far ones lost in
// haze), warm lit windows on the nearest, a few aircraft-warning lights, and a rippled reflection.
import { createCanvas } from '@napi-rs/canvas';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { addFilmGrain } from './film-grain.ts';
import { seededRandom } from './random.ts';

const WIDTH = 1600;
const HEIGHT = 1067;
const HORIZON = Math.round(HEIGHT * 0.7);

const WINDOW_COLORS = ['#ffd27a', '#ffe3a8', '#ffc061', '#fff0cf', '#bfe0ff'];

function paintSky(ctx: SKRSContext2D, random: () => number): void {
  const sky = ctx.createLinearGradient(0, 0, 0, HORIZON);
  sky.addColorStop(0, '#0d0f2b');
  sky.addColorStop(0.38, '#2c2358');
  sky.addColorStop(0.72, '#8c3f74');
  sky.addColorStop(0.9, '#e07a6a');
  sky.addColorStop(1, '#f6a86a');
  ctx.fillStyle = sky;
  ctx.fillRect(0, 0, WIDTH, HORIZON);

  for (let i = 0; i < 140; i++) {
    const y = Math.pow(random(), 1.8) * HORIZON * 0.55;
    const alpha = (1 - y / (HORIZON * 0.55)) * (0.25 + random() * 0.6);
    ctx.fillStyle = `rgba(255, 248, 235, ${alpha.toFixed(3)})`;
    ctx.beginPath();
    ctx.arc(random() * WIDTH, y, 0.6 + random() * 1.1, 0, Math.PI * 2);
    ctx.fill();
  }

  // A thin crescent: a lit disc with an offset disc cut out of it, then a soft glow around it.
  const moon = createCanvas(80, 80);
  const moonCtx = moon.getContext('2d');
  moonCtx.fillStyle = '#fdf1dc';
  moonCtx.beginPath();
  moonCtx.arc(40, 40, 30, 0, Math.PI * 2);
  moonCtx.fill();
  moonCtx.globalCompositeOperation = 'destination-out';
  moonCtx.beginPath();
  moonCtx.arc(53, 32, 28, 0, Math.PI * 2);
  moonCtx.fill();
  ctx.save();
  ctx.shadowColor = 'rgba(255, 236, 200, 0.6)';
  ctx.shadowBlur = 30;
  ctx.drawImage(moon, WIDTH * 0.8 - 40, HEIGHT * 0.16 - 40);
  ctx.restore();
}

interface Tower {
  x: number;
  width: number;
  height: number;
  setback: number;
  spire: number;
}

interface SkylineShape {
  minHeight: number;
  maxHeight: number;
  minWidth: number;
  maxWidth: number;
  /** How often a gap opens between towers, and how wide it may get. */
  gapChance: number;
  maxGap: number;
}

function towers(random: () => number, shape: SkylineShape): Tower[] {
  const { minHeight, maxHeight, minWidth, maxWidth, gapChance, maxGap } = shape;
  const list: Tower[] = [];
  let x = -20;
  while (x < WIDTH + 20) {
    const width = minWidth + random() * (maxWidth - minWidth);
    // A few tall towers cluster around two downtown centres; the rest stay low.
    const downtown = Math.max(
      Math.exp(-(((x - WIDTH * 0.42) / 260) ** 2)),
      0.8 * Math.exp(-(((x - WIDTH * 0.78) / 180) ** 2)),
    );
    const height =
      minHeight +
      (maxHeight - minHeight) * Math.min(1, random() * random() * 0.5 + downtown * (0.2 + random() * 0.75));
    list.push({
      x,
      width,
      height,
      setback: random() < 0.35 ? 0.1 + random() * 0.15 : 0,
      spire: random() < 0.18 ? 20 + random() * 50 : 0,
    });
    x += width + (random() < gapChance ? 10 + random() * maxGap : 1);
  }
  return list;
}

function towerPath(ctx: SKRSContext2D, tower: Tower): void {
  const top = HORIZON - tower.height;
  const inset = tower.width * 0.18;
  const step = tower.height * tower.setback;
  ctx.beginPath();
  ctx.moveTo(tower.x, HORIZON);
  ctx.lineTo(tower.x, top + step);
  if (step > 0) {
    ctx.lineTo(tower.x + inset, top + step);
    ctx.lineTo(tower.x + inset, top);
    ctx.lineTo(tower.x + tower.width - inset, top);
    ctx.lineTo(tower.x + tower.width - inset, top + step);
  } else {
    ctx.lineTo(tower.x + tower.width, top);
  }
  ctx.lineTo(tower.x + tower.width, top + step);
  ctx.lineTo(tower.x + tower.width, HORIZON);
  ctx.closePath();
}

function paintLayer(ctx: SKRSContext2D, list: Tower[], color: string): void {
  ctx.fillStyle = color;
  for (const tower of list) {
    towerPath(ctx, tower);
    ctx.fill();
    if (tower.spire > 0) {
      ctx.fillRect(tower.x + tower.width / 2 - 1.5, HORIZON - tower.height - tower.spire, 3, tower.spire);
    }
  }
}

function paintWindows(ctx: SKRSContext2D, list: Tower[], random: () => number): void {
  for (const tower of list) {
    const lit = 0.15 + random() * 0.4;
    const columns = Math.max(2, Math.floor(tower.width / 11));
    const cell = tower.width / columns;
    const top = HORIZON - tower.height + tower.height * tower.setback + 8;
    for (let y = top; y < HORIZON - 10; y += 13) {
      for (let c = 0; c < columns; c++) {
        if (random() > lit) continue;
        ctx.fillStyle = WINDOW_COLORS[Math.floor(random() * WINDOW_COLORS.length)]!;
        ctx.globalAlpha = 0.45 + random() * 0.55;
        ctx.fillRect(tower.x + c * cell + cell * 0.25, y, cell * 0.5, 6);
      }
    }
    if (tower.spire > 0) {
      ctx.globalAlpha = 1;
      ctx.fillStyle = '#ff4a4a';
      ctx.shadowColor = '#ff4a4a';
      ctx.shadowBlur = 10;
      ctx.beginPath();
      ctx.arc(tower.x + tower.width / 2, HORIZON - tower.height - tower.spire, 2.6, 0, Math.PI * 2);
      ctx.fill();
      ctx.shadowBlur = 0;
    }
  }
  ctx.globalAlpha = 1;
}

function paintHaze(ctx: SKRSContext2D, height: number, alpha: number): void {
  const haze = ctx.createLinearGradient(0, HORIZON - height, 0, HORIZON);
  haze.addColorStop(0, 'rgba(224, 122, 106, 0)');
  haze.addColorStop(1, `rgba(224, 122, 106, ${alpha})`);
  ctx.fillStyle = haze;
  ctx.fillRect(0, HORIZON - height, WIDTH, height);
}

/**
 * The city above the horizon, flipped into the water in thin rows that shift like ripples (more
 * the nearer the row), softened, with a few horizontal glints.
 */
function paintReflection(ctx: SKRSContext2D, source: SKRSContext2D['canvas'], random: () => number): void {
  const depth = HEIGHT - HORIZON;
  const water = ctx.createLinearGradient(0, HORIZON, 0, HEIGHT);
  water.addColorStop(0, '#4a2a58');
  water.addColorStop(0.4, '#221a3c');
  water.addColorStop(1, '#08081a');
  ctx.fillStyle = water;
  ctx.fillRect(0, HORIZON, WIDTH, depth);

  const mirrored = createCanvas(WIDTH, depth);
  const mirroredCtx = mirrored.getContext('2d');
  for (let y = 0; y < depth; y += 2) {
    const nearness = y / depth;
    const shift = (Math.sin(y * 0.21 + random() * 0.6) * 1.5 + (random() - 0.5) * 3) * (0.5 + nearness * 4);
    mirroredCtx.globalAlpha = 0.6 * (1 - nearness) ** 1.3;
    mirroredCtx.drawImage(source, 0, HORIZON - y * 0.9 - 2, WIDTH, 2, shift, y, WIDTH, 2);
  }
  ctx.save();
  ctx.filter = 'blur(1.5px)';
  ctx.drawImage(mirrored, 0, HORIZON);
  ctx.restore();

  for (let i = 0; i < 90; i++) {
    const y = HORIZON + Math.pow(random(), 1.5) * depth;
    const length = 10 + random() * 60;
    ctx.fillStyle = `rgba(255, 214, 160, ${(0.05 + random() * 0.12).toFixed(3)})`;
    ctx.fillRect(random() * WIDTH, y, length, 1.5);
  }
  ctx.fillStyle = 'rgba(255, 200, 150, 0.3)';
  ctx.fillRect(0, HORIZON, WIDTH, 1.5);
}

export function paintCity(): Buffer {
  const random = seededRandom(2031);
  const city = createCanvas(WIDTH, HEIGHT);
  const cityCtx = city.getContext('2d');
  paintSky(cityCtx, random);
  const far = { minHeight: 50, maxHeight: 260, minWidth: 50, maxWidth: 110, gapChance: 0.1, maxGap: 20 };
  paintLayer(cityCtx, towers(random, far), '#5b3a6e');
  paintHaze(cityCtx, 220, 0.4);
  const middle = towers(random, {
    minHeight: 40,
    maxHeight: 360,
    minWidth: 40,
    maxWidth: 90,
    gapChance: 0.3,
    maxGap: 40,
  });
  paintLayer(cityCtx, middle, '#2d2148');
  paintWindows(
    cityCtx,
    middle.filter(() => random() < 0.5),
    random,
  );
  paintHaze(cityCtx, 120, 0.18);
  const near = towers(random, {
    minHeight: 24,
    maxHeight: 440,
    minWidth: 45,
    maxWidth: 100,
    gapChance: 0.5,
    maxGap: 90,
  });
  paintLayer(cityCtx, near, '#130f24');
  paintWindows(cityCtx, near, random);

  const canvas = createCanvas(WIDTH, HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(city, 0, 0);
  paintReflection(ctx, city, random);
  addFilmGrain(ctx, WIDTH, HEIGHT, 6, 91);
  return canvas.encodeSync('jpeg', 82);
}
