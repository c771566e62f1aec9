// Measures encode speed against fidelity to choose the "standard" quality (docs/quality.md).
// Renders a reference clip of raw RGBA frames once (gradient, photo-like texture, moving text and
// shapes, 1080×1920), encodes it with each setting exactly as the encoder would, and scores each
// encode by SSIM against the raw frames, both sides converted to yuv420p the same way.
//
// Usage: node main/launcher/node24.mjs main/bench/quality-sweep.ts [--seconds 3.5] [--json out.json] [--quick]
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import type { SKRSContext2D } from '@napi-rs/canvas';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { encoderArgs, videoFilter } from '../encoder/encoder-args.ts';
import type { OutputFormat } from '../../shared/output/formats.ts';
import type { VideoCodecSettings, Vp9Settings, X264Preset, X264Settings } from '../encoder/quality.ts';
import { ffmpegPath } from '../ffmpeg/binaries.ts';
import { runTool } from '../ffmpeg/run.ts';

const WIDTH = 1080;
const HEIGHT = 1920;
const FPS = 30;
/** Faster presets buy speed with size: ultrafast is ~4× larger at equal SSIM, too big for a default. */
const MAX_BYTES_RATIO = 1.5;

/** Deterministic noise, so every run encodes the same clip. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A photo-like texture: octaves of smoothed value noise in warm and cool tones, plus fine grain. */
export function photoTexture(width: number, height: number) {
  const random = mulberry32(7);
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(width, height);
  const octaves = [8, 24, 64].map((cells) => {
    const grid = Array.from({ length: (cells + 1) * (cells + 1) }, () => random());
    return { cells, grid };
  });
  const smooth = (t: number) => t * t * (3 - 2 * t);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let v = 0;
      let weight = 0.6;
      for (const { cells, grid } of octaves) {
        const gx = (x / width) * cells;
        const gy = (y / height) * cells;
        const ix = Math.floor(gx);
        const iy = Math.floor(gy);
        const fx = smooth(gx - ix);
        const fy = smooth(gy - iy);
        const at = (i: number, j: number) => grid[Math.min(j, cells) * (cells + 1) + Math.min(i, cells)] ?? 0;
        const top = at(ix, iy) * (1 - fx) + at(ix + 1, iy) * fx;
        const bottom = at(ix, iy + 1) * (1 - fx) + at(ix + 1, iy + 1) * fx;
        v += weight * (top * (1 - fy) + bottom * fy);
        weight *= 0.45;
      }
      const grain = (random() - 0.5) * 0.08;
      const o = (y * width + x) * 4;
      image.data[o] = Math.max(0, Math.min(255, 255 * (v * 1.1 + grain)));
      image.data[o + 1] = Math.max(0, Math.min(255, 255 * (v * 0.85 + 0.1 * (y / height) + grain)));
      image.data[o + 2] = Math.max(0, Math.min(255, 255 * (0.5 - v * 0.3 + 0.3 * (x / width) + grain)));
      image.data[o + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
  return canvas;
}

export function registerInter(): string {
  const dir = dirname(createRequire(import.meta.url).resolve('@expo-google-fonts/inter/package.json'));
  GlobalFonts.registerFromPath(join(dir, '700Bold', 'Inter_700Bold.ttf'), 'Bench Inter Bold');
  GlobalFonts.registerFromPath(join(dir, '400Regular', 'Inter_400Regular.ttf'), 'Bench Inter');
  return 'Bench Inter';
}

export function drawReferenceFrame(
  ctx: SKRSContext2D,
  texture: ReturnType<typeof photoTexture>,
  frame: number,
  total: number,
) {
  const t = frame / FPS;
  const p = frame / Math.max(1, total - 1);
  const bg = ctx.createLinearGradient(0, 0, WIDTH * (0.6 + 0.4 * p), HEIGHT);
  bg.addColorStop(0, `hsl(${230 + 40 * p}, 60%, 18%)`);
  bg.addColorStop(0.5, `hsl(${260 + 30 * p}, 55%, 28%)`);
  bg.addColorStop(1, '#0f172a');
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, WIDTH, HEIGHT);

  // Ken Burns over the texture inside a rounded card.
  ctx.save();
  ctx.beginPath();
  ctx.roundRect(80, 820, WIDTH - 160, 760, 40);
  ctx.clip();
  const zoom = 1.05 + 0.15 * p;
  const tw = (WIDTH - 160) * zoom;
  const th = 760 * zoom;
  ctx.drawImage(texture, 80 - (tw - (WIDTH - 160)) * p, 820 - (th - 760) * 0.5, tw, th);
  ctx.restore();

  ctx.fillStyle = 'rgba(129, 140, 248, 0.35)';
  ctx.beginPath();
  ctx.arc(880 + 40 * Math.sin(t * 2), 300 + 30 * Math.cos(t * 1.5), 200, 0, Math.PI * 2);
  ctx.fill();
  ctx.save();
  ctx.translate(220, 1700);
  ctx.rotate(t * 1.2);
  ctx.fillStyle = '#f472b6';
  ctx.fillRect(-70, -70, 140, 140);
  ctx.restore();

  const slide = Math.min(1, t / 0.8);
  ctx.globalAlpha = slide;
  ctx.fillStyle = '#ffffff';
  ctx.font = '700 130px "Bench Inter Bold"';
  ctx.textAlign = 'center';
  ctx.fillText('Chapter One', WIDTH / 2 - (1 - slide) * 300, 360);
  ctx.globalAlpha = 1;
  ctx.font = '400 54px "Bench Inter"';
  ctx.fillStyle = '#c7d2fe';
  const words = 'Programmatic video, rendered fast and verified by ffprobe.'.split(' ');
  const shown = words.slice(0, Math.ceil(words.length * Math.min(1, t / 2.5)));
  ctx.fillText(shown.slice(0, 4).join(' '), WIDTH / 2, 540);
  ctx.fillText(shown.slice(4).join(' '), WIDTH / 2, 610);
  ctx.font = '700 64px "Bench Inter Bold"';
  ctx.fillStyle = '#fde68a';
  ctx.fillText(`${Math.round(1000 * p)} views`, WIDTH / 2, 730);
  ctx.strokeStyle = '#818cf8';
  ctx.lineWidth = 8;
  ctx.beginPath();
  ctx.moveTo(108, 1780);
  ctx.lineTo(108 + (WIDTH - 216) * p, 1780);
  ctx.stroke();
}

export async function renderReference(path: string, frames: number): Promise<void> {
  registerInter();
  const texture = photoTexture(1024, 768);
  const canvas = createCanvas(WIDTH, HEIGHT);
  const ctx = canvas.getContext('2d');
  const out = createWriteStream(path);
  for (let frame = 0; frame < frames; frame++) {
    drawReferenceFrame(ctx, texture, frame, frames);
    const data = ctx.getImageData(0, 0, WIDTH, HEIGHT).data;
    if (!out.write(Buffer.from(data.buffer, data.byteOffset, data.byteLength))) {
      await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  }
  await new Promise<void>((resolve, reject) =>
    out.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
}

export interface SweepResult {
  codec: string;
  setting: string;
  /** Wall time, which other work on the machine inflates. */
  encodeMs: number;
  /** ffmpeg's own CPU time (user + system, all threads): what ranks the settings. */
  cpuMs: number;
  bytes: number;
  ssim: number;
}

function baseInput(format: OutputFormat, rawPath: string, outputPath: string) {
  return {
    format,
    quality: 'standard' as const,
    width: WIDTH,
    height: HEIGHT,
    fps: FPS,
    outputPath,
    videoInput: rawPath,
  };
}

async function ssimAgainstRaw(
  encoded: string,
  rawPath: string,
  settings: VideoCodecSettings,
  format: OutputFormat,
): Promise<number> {
  // The reference goes through the encoder's own RGB→YUV step, so only the codec's loss is scored.
  const reference = videoFilter(baseInput(format, rawPath, encoded), settings)
    .replace('[0:v]', '[1:v]')
    .replace('[vout]', ',format=yuv420p[ref]');
  const graph = `${reference};[0:v]format=yuv420p[main];[main][ref]ssim`;
  const { stderrTail } = await runTool(ffmpegPath(), [
    '-hide_banner',
    '-nostats',
    '-i',
    encoded,
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgba',
    '-s',
    `${WIDTH}x${HEIGHT}`,
    '-r',
    String(FPS),
    '-i',
    rawPath,
    '-filter_complex',
    graph,
    '-f',
    'null',
    '-',
  ]);
  const line = stderrTail.find((l) => l.includes('SSIM') && l.includes('All:'));
  const match = line ? /All:([0-9.]+)/.exec(line) : null;
  if (!match?.[1]) throw new Error(`no SSIM in ffmpeg output: ${stderrTail.slice(-3).join(' | ')}`);
  return Number(match[1]);
}

async function measure(
  format: OutputFormat,
  settings: VideoCodecSettings,
  label: string,
  rawPath: string,
  dir: string,
): Promise<SweepResult> {
  const outputPath = join(dir, `sweep${format === 'transparent' ? '.webm' : '.mp4'}`);
  const args = encoderArgs({ ...baseInput(format, rawPath, outputPath), codecSettings: settings });
  // -benchmark makes ffmpeg report its own CPU time, which concurrent work disturbs far less than wall time.
  const loglevel = args.indexOf('-loglevel');
  args.splice(loglevel, 2, '-loglevel', 'info', '-benchmark');
  const started = performance.now();
  const { stderrTail } = await runTool(ffmpegPath(), args);
  const encodeMs = performance.now() - started;
  const bench = stderrTail.map((l) => /utime=([0-9.]+)s stime=([0-9.]+)s/.exec(l)).find((m) => m !== null);
  if (!bench) throw new Error('ffmpeg -benchmark printed no CPU times');
  const cpuMs = (Number(bench[1]) + Number(bench[2])) * 1000;
  const { size } = await stat(outputPath);
  const ssim = await ssimAgainstRaw(outputPath, rawPath, settings, format);
  await rm(outputPath);
  return {
    codec: settings.codec,
    setting: label,
    encodeMs: Math.round(encodeMs),
    cpuMs: Math.round(cpuMs),
    bytes: size,
    ssim,
  };
}

/** Repeats a measurement and keeps the run with the median CPU time (the encodes are deterministic). */
async function measureMedian(times: number, run: () => Promise<SweepResult>): Promise<SweepResult> {
  const runs: SweepResult[] = [];
  for (let i = 0; i < times; i++) runs.push(await run());
  runs.sort((a, b) => a.cpuMs - b.cpuMs);
  return runs[Math.floor(runs.length / 2)]!;
}

/**
 * The rule from docs/quality.md: the fastest setting at least as faithful as the baseline and, when
 * maxBytesRatio is given, at most that many times its size.
 */
export function pickFastestAtLeast(
  results: SweepResult[],
  baseline: SweepResult,
  maxBytesRatio = Infinity,
): SweepResult {
  const eligible = results.filter(
    (r) => r.ssim >= baseline.ssim && r.bytes <= baseline.bytes * maxBytesRatio,
  );
  return eligible.reduce((best, r) => (r.cpuMs < best.cpuMs ? r : best), baseline);
}

function table(results: SweepResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.setting} | ${(r.cpuMs / 1000).toFixed(2)} | ${(r.encodeMs / 1000).toFixed(2)} | ${(r.bytes / 1024).toFixed(0)} | ${r.ssim.toFixed(5)} |`,
  );
  return [
    '| setting | CPU s | wall s | KiB | SSIM (All) |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows,
  ].join('\n');
}

async function main() {
  const { values } = parseArgs({
    options: {
      seconds: { type: 'string', default: '3.5' },
      json: { type: 'string' },
      quick: { type: 'boolean', default: false },
      'skip-vp9': { type: 'boolean', default: false },
      presets: { type: 'string' },
      crfs: { type: 'string' },
      repeat: { type: 'string', default: '1' },
    },
  });
  const repeat = Math.max(1, Number(values.repeat));
  const frames = Math.round(Number(values.seconds) * FPS);
  const dir = await mkdtemp(join(tmpdir(), 'kino-quality-'));
  const rawPath = join(dir, 'reference.rgba');
  try {
    let started = performance.now();
    await renderReference(rawPath, frames);
    console.error(
      `reference: ${frames} frames ${WIDTH}×${HEIGHT} drawn in ${((performance.now() - started) / 1000).toFixed(1)}s`,
    );

    const presets = (values.presets?.split(',') ??
      (values.quick
        ? ['ultrafast', 'veryfast', 'medium']
        : ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium'])) as X264Preset[];
    if (!presets.includes('medium')) presets.push('medium');
    const crfs =
      values.crfs?.split(',').map(Number) ?? (values.quick ? [18, 20] : [16, 17, 18, 19, 20, 22, 24]);
    if (!crfs.includes(20)) crfs.push(20);
    const x264: SweepResult[] = [];
    for (const preset of presets) {
      for (const crf of crfs) {
        const settings: X264Settings = { codec: 'libx264', preset, crf };
        const result = await measureMedian(repeat, () =>
          measure('mp4', settings, `${preset} crf ${crf}`, rawPath, dir),
        );
        console.error(JSON.stringify(result));
        x264.push(result);
      }
    }
    const baseline = x264.find((r) => r.setting === 'medium crf 20');
    if (!baseline) throw new Error('the sweep must include medium crf 20');
    const fastest = pickFastestAtLeast(x264, baseline);
    const choice = pickFastestAtLeast(x264, baseline, MAX_BYTES_RATIO);

    const vp9: SweepResult[] = [];
    if (!values['skip-vp9']) {
      const vp9Settings: [string, Vp9Settings][] = [
        ['realtime cpu 8 crf 40', { codec: 'libvpx-vp9', deadline: 'realtime', cpuUsed: 8, crf: 40 }],
        ['realtime cpu 8 crf 32', { codec: 'libvpx-vp9', deadline: 'realtime', cpuUsed: 8, crf: 32 }],
        ['realtime cpu 6 crf 32', { codec: 'libvpx-vp9', deadline: 'realtime', cpuUsed: 6, crf: 32 }],
        ['good cpu 5 crf 32', { codec: 'libvpx-vp9', deadline: 'good', cpuUsed: 5, crf: 32 }],
        ['good cpu 4 crf 32', { codec: 'libvpx-vp9', deadline: 'good', cpuUsed: 4, crf: 32 }],
        ['good cpu 4 crf 28', { codec: 'libvpx-vp9', deadline: 'good', cpuUsed: 4, crf: 28 }],
        ['good cpu 2 crf 24', { codec: 'libvpx-vp9', deadline: 'good', cpuUsed: 2, crf: 24 }],
      ];
      for (const [label, settings] of values.quick ? vp9Settings.slice(0, 2) : vp9Settings) {
        const result = await measureMedian(repeat, () =>
          measure('transparent', settings, label, rawPath, dir),
        );
        console.error(JSON.stringify(result));
        vp9.push(result);
      }
    }

    started = performance.now();
    const report = [
      `Reference clip: ${frames} frames, ${WIDTH}×${HEIGHT} @ ${FPS} fps.`,
      '',
      '### H.264 (libx264, yuv420p)',
      '',
      table(x264),
      '',
      `Baseline medium crf 20: SSIM ${baseline.ssim.toFixed(5)}, ${(baseline.cpuMs / 1000).toFixed(2)} CPU s.`,
      `Fastest with SSIM ≥ baseline: ${fastest.setting} (${(fastest.cpuMs / 1000).toFixed(2)} CPU s, ${(fastest.bytes / 1024).toFixed(0)} KiB).`,
      `Choice (also ≤ ${MAX_BYTES_RATIO}× the baseline's size): **${choice.setting}** (SSIM ${choice.ssim.toFixed(5)}, ${(choice.cpuMs / 1000).toFixed(2)} CPU s, ${(choice.bytes / 1024).toFixed(0)} KiB).`,
      ...(vp9.length > 0 ? ['', '### VP9 with alpha (libvpx-vp9, yuva420p)', '', table(vp9)] : []),
    ].join('\n');
    console.log(report);
    if (values.json)
      await writeFile(values.json, JSON.stringify({ frames, x264, vp9, baseline, fastest, choice }, null, 2));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main();
}
