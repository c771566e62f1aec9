// `npm run bench`: renders the reference spec and prints throughput, per-frame costs, peak memory,
// the ratio to ffmpeg encoding the same raw frames alone, and cold start to the first frame.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encoderArgs } from '../encoder/formats.ts';
import { ffmpegPath, ffprobePath, toolChoice, toolVersions } from '../ffmpeg/binaries.ts';
import { baselineSpec, codeAndChartSpec, codeOnlySpec } from './element-specs.ts';
import { referenceSpec } from './reference-spec.ts';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'kino-bench-'));
copyFileSync(join(repo, 'examples', 'assets', 'photo-mountains.jpg'), join(work, 'photo.jpg'));

function writeSpec(seconds: number): string {
  const path = join(work, `reference-${seconds}s.json`);
  writeFileSync(path, JSON.stringify(referenceSpec(seconds, 'photo.jpg'), null, 2));
  return path;
}

interface Measured {
  frames: number;
  drawMs: number;
  wallMs: number;
  maxRssMB: number;
  encodeWaitMs?: number;
  finishMs?: number;
  renderMs?: number;
  bytes?: number;
  width?: number;
  height?: number;
  fps?: number;
}

function runOnce(args: string[]): Measured {
  const out = execFileSync(process.execPath, [join(here, 'render-once.ts'), ...args], {
    cwd: work,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Measured;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const spec10 = writeSpec(10);
const spec60 = writeSpec(60);
const fmt = (n: number, digits = 1) => n.toFixed(digits);

console.log(`Kino render benchmark (${process.version}, work dir ${work})`);
// The render child resolves the same pair: FFMPEG_PATH/FFPROBE_PATH choose another build to compare.
const versions = await toolVersions();
console.log(
  `ffmpeg ${versions.ffmpeg} (${ffmpegPath()}), ffprobe ${versions.ffprobe} (${ffprobePath()}): ${toolChoice().source}`,
);
console.log(
  'reference: 1080×1920, 30 fps, gradient background, animated text, an image, shapes; mp4 standard\n',
);

// 1. The full render (draw + encode + verify), 10 s.
const full = runOnce([spec10, join(work, 'out-10s.mp4')]);
console.log(
  `render 10 s:        ${full.frames} frames in ${fmt(full.renderMs! / 1000, 2)} s → ${fmt((full.frames * 1000) / full.renderMs!)} fps, ${full.bytes} bytes`,
);
console.log(`  draw per frame:   ${fmt(full.drawMs / full.frames, 2)} ms (resolve media, draw, read pixels)`);
console.log(
  `  encode per frame: ${fmt((full.encodeWaitMs! + full.finishMs!) / full.frames, 2)} ms waiting on the encoder (backpressure + final flush)`,
);
console.log(`  peak RSS:         ${fmt(full.maxRssMB)} MB (Kino process; ffmpeg runs as its own process)`);

// 2. ffmpeg alone on the same raw frames with the same encoder settings, at two quality levels:
// the ratio says how much drawing adds to the encode the render cannot avoid.
const rawPath = join(work, 'frames.rgba');
const raw = runOnce([spec10, join(work, 'unused.mp4'), '--raw', rawPath]);
function ffmpegAloneMs(quality: 'standard' | 'high'): number {
  const args = encoderArgs({
    format: 'mp4',
    quality,
    width: raw.width!,
    height: raw.height!,
    fps: raw.fps!,
    outputPath: join(work, `ffmpeg-alone-${quality}.mp4`),
    videoInput: rawPath,
  });
  const runs: number[] = [];
  for (let i = 0; i < 2; i++) {
    const t = performance.now();
    const result = spawnSync(ffmpegPath(), ['-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    if (result.status !== 0) throw new Error(`ffmpeg failed: ${result.stderr.toString().slice(-500)}`);
    runs.push(performance.now() - t);
  }
  return median(runs);
}
const aloneStandard = ffmpegAloneMs('standard');
console.log(
  `\nffmpeg alone:       ${fmt(aloneStandard / 1000, 2)} s for the same ${raw.frames} raw frames (${fmt(statSync(rawPath).size / 1e9, 2)} GB read from a file)`,
);
console.log(`  pure draw:        ${fmt(raw.drawMs / raw.frames, 2)} ms per frame with nothing else running`);
console.log(
  `  Kino / ffmpeg:    ${fmt(full.renderMs! / aloneStandard, 3)} (whole render, start to verified file; target ≤ 1.15)`,
);
const high = runOnce([spec10, join(work, 'out-10s-high.mp4'), '--quality', 'high']);
const aloneHigh = ffmpegAloneMs('high');
console.log(
  `  at quality high:  Kino ${fmt(high.renderMs! / 1000, 2)} s / ffmpeg alone ${fmt(aloneHigh / 1000, 2)} s = ${fmt(high.renderMs! / aloneHigh, 3)}`,
);
rmSync(rawPath, { force: true });

// 3. Memory does not grow with length: 60 s vs 10 s.
const long = runOnce([spec60, join(work, 'out-60s.mp4')]);
console.log(
  `\nrender 60 s:        ${long.frames} frames in ${fmt(long.renderMs! / 1000, 2)} s, peak RSS ${fmt(long.maxRssMB)} MB`,
);
console.log(`  RSS 60 s / 10 s:  ${fmt(long.maxRssMB / full.maxRssMB, 3)} (target ≤ 1.1)`);

// 4. Cold start: a new process, compile nothing, register fonts, draw frame 0, write the PNG.
const cold: number[] = [];
for (let i = 0; i < 3; i++) {
  const t = performance.now();
  execFileSync(
    process.execPath,
    [join(repo, 'main', 'cli', 'kino.mjs'), 'frame', spec10, '--frame', '0', '-o', join(work, 'first.png')],
    {
      cwd: work,
      stdio: 'ignore',
    },
  );
  cold.push(performance.now() - t);
}
console.log(`\ncold start → first frame PNG: ${fmt(median(cold) / 1000, 2)} s median of 3 (target ≤ 1.5 s)`);

// 5. Data and developer elements (issue 17): a 40-line highlighted code block and a 12-bar chart on
// one 1080×1920 frame, against the same frame without them; shiki's cost to a cold first frame; and
// the chart and code examples rendered whole.
const writeJson = (name: string, value: unknown) => {
  const path = join(work, name);
  writeFileSync(path, JSON.stringify(value, null, 2));
  return path;
};
const elementsPath = writeJson('code-and-chart.json', codeAndChartSpec());
const codeOnlyPath = writeJson('code-only.json', codeOnlySpec());
const baselinePath = writeJson('baseline.json', baselineSpec());
interface FrameCost {
  openMs: number;
  firstDrawMs: number;
  drawMs: number;
  drawReadMs: number;
}
const elementCost = JSON.parse(
  execFileSync(process.execPath, [join(here, 'element-frame.ts'), elementsPath, baselinePath, '150'], {
    cwd: work,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    // An empty token cache: the first frame's cost includes shiki's.
    env: { ...process.env, KINO_CACHE_DIR: join(work, 'cache-element-frame') },
  })
    .trim()
    .split('\n')
    .pop()!,
) as { baseline: FrameCost; withElements: FrameCost };
const { baseline, withElements } = elementCost;
console.log('\n40-line code block + 12-bar chart, 1080×1920, at rest (median of 150 frames):');
console.log(
  `  draw:             ${fmt(withElements.drawMs, 2)} ms (${fmt(withElements.drawMs - baseline.drawMs, 2)} ms more than the frame without them; target < 8 ms)`,
);
console.log(
  `  draw + readback:  ${fmt(withElements.drawReadMs, 2)} ms (without them ${fmt(baseline.drawReadMs, 2)} ms)`,
);
console.log(
  `  first frame:      open ${fmt(withElements.openMs)} ms + draw ${fmt(withElements.firstDrawMs)} ms, code not yet cached (without them ${fmt(baseline.openMs)} + ${fmt(baseline.firstDrawMs)} ms)`,
);
// Cold `kino frame` runs, code and no code interleaved. KINO_CACHE_DIR chooses the token cache: a new
// empty folder per run measures code seen for the first time, one shared folder measures it cached.
const coldFrame = (spec: string, cacheDir: () => string) => {
  const t = performance.now();
  execFileSync(
    process.execPath,
    [join(repo, 'main', 'cli', 'kino.mjs'), 'frame', spec, '--frame', '0', '-o', join(work, 'cold.png')],
    { cwd: work, stdio: 'ignore', env: { ...process.env, KINO_CACHE_DIR: cacheDir() } },
  );
  return performance.now() - t;
};
let freshCaches = 0;
const freshCache = () => join(work, `cache-${freshCaches++}`);
const sharedCache = () => join(work, 'cache-shared');
coldFrame(codeOnlyPath, sharedCache); // fills the shared cache
const coldRuns = { baseline: [] as number[], first: [] as number[], cached: [] as number[] };
for (let i = 0; i < 5; i++) {
  coldRuns.baseline.push(coldFrame(baselinePath, sharedCache));
  coldRuns.first.push(coldFrame(codeOnlyPath, freshCache));
  coldRuns.cached.push(coldFrame(codeOnlyPath, sharedCache));
}
const [coldBaseline, coldFirst, coldCached] = [coldRuns.baseline, coldRuns.first, coldRuns.cached].map(
  median,
) as [number, number, number];
console.log(
  `  shiki start-up:   +${fmt(coldFirst - coldBaseline, 0)} ms to a cold \`kino frame\` the first time the code is seen, +${fmt(coldCached - coldBaseline, 0)} ms once its tokens are cached (${fmt(coldFirst / 1000, 2)} s / ${fmt(coldCached / 1000, 2)} s, ${fmt(coldBaseline / 1000, 2)} s without code; medians of 5; target ≤ 300 ms)`,
);
for (const key of ['chart-story', 'code-walkthrough']) {
  const example = runOnce([join(repo, 'examples', 'specs', `${key}.json`), join(work, `${key}.mp4`)]);
  console.log(
    `render ${key}: ${example.frames} frames in ${fmt(example.renderMs! / 1000, 2)} s → ${fmt((example.frames * 1000) / example.renderMs!)} fps (draw ${fmt(example.drawMs / example.frames, 2)} ms/frame), peak RSS ${fmt(example.maxRssMB)} MB`,
  );
}
rmSync(work, { recursive: true, force: true });
