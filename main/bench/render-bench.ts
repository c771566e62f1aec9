// `npm run bench`: renders the reference spec and product-launch on 1 and on all threads and prints
// throughput, the ratio to ffmpeg encoding the same raw frames alone, peak memory of the process tree,
// scaling with length, cold start, and the data and developer elements' costs.
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { encoderArgs } from '../encoder/encoder-args.ts';
import { ffmpegPath, ffprobePath, toolChoice, toolVersions } from '../ffmpeg/binaries.ts';
import { baselineSpec, codeAndChartSpec, codeOnlySpec } from './element-specs.ts';
import { lightReferenceSpec, referenceSpec } from './reference-spec.ts';
import { sampleTreePeak } from './process-tree-rss.ts';
import { measureProcess } from './whole-process.ts';
import { defaultRasterThreads } from '../engine/raster-threads.ts';

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

/** One render in its own process, with the peak resident memory of its whole process tree. */
async function runOnce(args: string[]): Promise<Measured & { treeRssMB: number }> {
  const child = spawn(process.execPath, [join(here, 'render-once.ts'), ...args], {
    cwd: work,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const peak = sampleTreePeak(child.pid!);
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const treeRssMB = peak.stop();
  if (code !== 0) throw new Error(`render-once ${args.join(' ')} exited with ${code}`);
  return { ...(JSON.parse(out.trim().split('\n').pop()!) as Measured), treeRssMB };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const fmt = (n: number, digits = 1) => n.toFixed(digits);
const allThreads = defaultRasterThreads();
const RUNS = 3;

console.log(`Kino render benchmark (${process.version}, ${allThreads} cores, work dir ${work})`);
// The render child resolves the same pair: FFMPEG_PATH/FFPROBE_PATH choose another build to compare.
const versions = await toolVersions();
console.log(
  `ffmpeg ${versions.ffmpeg} (${ffmpegPath()}), ffprobe ${versions.ffprobe} (${ffprobePath()}): ${toolChoice().source}`,
);
console.log(
  'reference: 1080×1920, 30 fps, gradient background, animated text, an image, shapes; mp4 standard',
);
console.log(
  `medians of ${RUNS} runs, thread counts interleaved; RSS is the peak of the whole process tree\n`,
);

interface ProcessFigures {
  wallMs: number;
  cpuMs: number;
  treeRssMB: number;
}
const medianOf = (runs: ProcessFigures[]): ProcessFigures => ({
  wallMs: median(runs.map((r) => r.wallMs)),
  cpuMs: median(runs.map((r) => r.cpuMs)),
  treeRssMB: median(runs.map((r) => r.treeRssMB)),
});
const described = (f: ProcessFigures) =>
  `${fmt(f.wallMs / 1000, 2)} s, CPU ${fmt(f.cpuMs / 1000, 2)} s, peak RSS ${fmt(f.treeRssMB, 0)} MB`;

interface DrawingSummary {
  drawing: { workers: number; reason: string; fromFrame?: number };
}

/**
 * Whole processes as a user runs them: `kino render` (by cost, one thread, every thread) against
 * ffmpeg alone encoding the render's own raw frames from a file with the same arguments (what the
 * render cannot beat), interleaved, medians of RUNS.
 */
async function wholeProcesses(
  input: string,
  label: string,
  { fpsTarget, compareThreads = true }: { fpsTarget?: number; compareThreads?: boolean } = {},
): Promise<void> {
  const rawPath = join(work, 'frames.rgba');
  const yuvPath = join(work, 'frames.yuv');
  const raw = await runOnce([input, join(work, 'unused.mp4'), '--raw', rawPath]);
  await runOnce([input, join(work, 'unused.mp4'), '--raw-yuv', yuvPath]);
  const aloneArgs = (videoInput: string, inputPixelFormat: 'rgba' | 'yuv420p') =>
    encoderArgs({
      format: 'mp4',
      quality: 'standard',
      width: raw.width!,
      height: raw.height!,
      fps: raw.fps!,
      outputPath: join(work, 'ffmpeg-alone.mp4'),
      videoInput,
      inputPixelFormat,
    });
  const configs: [string, string[]][] = [['kino render', []]];
  if (compareThreads) configs.push(['kino render --concurrency 1', ['--concurrency', '1']]);
  if (compareThreads && allThreads > 1) {
    configs.push([`kino render --concurrency ${allThreads}`, ['--concurrency', String(allThreads)]]);
  }
  const alone: ProcessFigures[] = [];
  const aloneYuv: ProcessFigures[] = [];
  const kino = new Map<string, ProcessFigures[]>(configs.map(([name]) => [name, []]));
  let drawing = '';
  // The raw files are gigabytes: written out before timing, so their write-back does not land on a
  // run, and removed before kino runs, so that reading them does not either (the first process after
  // them ran up to 25% slower).
  execFileSync('sync');
  for (let i = 0; i < RUNS; i++) {
    alone.push(await measureProcess(ffmpegPath(), ['-y', ...aloneArgs(rawPath, 'rgba')], { cwd: work }));
    aloneYuv.push(
      await measureProcess(ffmpegPath(), ['-y', ...aloneArgs(yuvPath, 'yuv420p')], { cwd: work }),
    );
  }
  rmSync(rawPath, { force: true });
  rmSync(yuvPath, { force: true });
  execFileSync('sync');
  for (let i = 0; i < RUNS; i++) {
    // Each round starts with another configuration, so none always runs right after ffmpeg alone.
    const turn = i % configs.length;
    for (const [name, args] of [...configs.slice(turn), ...configs.slice(0, turn)]) {
      const out = join(work, 'whole-process.mp4');
      const run = await measureProcess(
        join(repo, 'kino'),
        ['render', input, '-o', out, '--no-receipt', '--json', ...args],
        { cwd: work },
      );
      kino.get(name)!.push(run);
      if (args.length === 0) {
        const d = (JSON.parse(run.stdout) as DrawingSummary).drawing;
        drawing =
          d.fromFrame === undefined
            ? `one thread: ${d.reason}`
            : `${d.workers} threads from frame ${d.fromFrame}: ${d.reason}`;
      }
    }
  }
  const ffmpeg = medianOf(alone);
  const ffmpegYuv = medianOf(aloneYuv);
  console.log(`${label}: ${raw.frames} frames, whole processes`);
  console.log(`  ffmpeg alone (the raw RGBA frames, converting them itself): ${described(ffmpeg)}`);
  console.log(
    `  ffmpeg alone (the yuv420p frames kino render pipes, its arguments): ${described(ffmpegYuv)}`,
  );
  const figures = new Map([...kino].map(([name, runs]) => [name, medianOf(runs)]));
  for (const [name, f] of figures) {
    const isDefault = name === 'kino render';
    console.log(
      `  ${name}: ${described(f)} → ${fmt((raw.frames * 1000) / f.wallMs)} fps` +
        (fpsTarget && isDefault ? ` (target ≥ ${fpsTarget})` : '') +
        `; ${fmt(f.wallMs / ffmpeg.wallMs, 2)}× ffmpeg alone's time` +
        (isDefault ? ` (target ≤ 1.25; ${fmt(f.wallMs / ffmpegYuv.wallMs, 2)}× on yuv420p frames)` : '') +
        `, ${fmt(f.treeRssMB / ffmpeg.treeRssMB, 1)}× its memory` +
        (isDefault ? ' (target ≤ 1.5)' : ''),
    );
  }
  const byCost = figures.get('kino render')!;
  const one = figures.get('kino render --concurrency 1');
  console.log(`  kino render drew on ${drawing}`);
  if (one) {
    console.log(
      `  kino render / --concurrency 1: ${fmt(byCost.wallMs / one.wallMs, 3)}× the time (target ≤ 1.05), ${fmt(byCost.treeRssMB / one.treeRssMB, 2)}× the memory`,
    );
  }
  // With every core busy a render cannot take less than its CPU over the cores.
  console.log(
    `  the floor on ${allThreads} cores, CPU / cores: kino render ${fmt(byCost.cpuMs / allThreads / 1000, 2)} s, ffmpeg alone ${fmt(ffmpeg.cpuMs / allThreads / 1000, 2)} s; Kino's own work costs ${fmt((byCost.cpuMs - ffmpeg.cpuMs) / raw.frames, 1)} ms of CPU a frame\n`,
  );
}

// 1. The table: whole processes against ffmpeg alone, for the reference scene and product-launch.
const reference5 = writeSpec(5);
await wholeProcesses(reference5, 'reference (5 s)');
await wholeProcesses('product-launch', 'product-launch', { fpsTarget: 30 });
// How close the pipeline alone comes to ffmpeg alone: the ratio left when there is almost nothing
// to draw, a bound no cheaper drawing of the reference's gradient and photo could get under.
const light5 = join(work, 'reference-light-5s.json');
writeFileSync(light5, JSON.stringify(lightReferenceSpec(5), null, 2));
await wholeProcesses(light5, 'reference without its gradient and photo (text and shapes on one colour)', {
  compareThreads: false,
});

// 2. Length: about 1500 frames against 150, all threads (target: 1500 frames in ≤ 10.2× the time of
// 150, i.e. ≤ 1.02× the time per frame; memory flat). Crossfades overlap scenes, so 50 s is 1365 frames.
const reference50 = writeSpec(50);
const short = await runOnce([reference5, join(work, 'short.mp4')]);
const long = await runOnce([reference50, join(work, 'long.mp4')]);
const perFrame = long.renderMs! / long.frames / (short.renderMs! / short.frames);
console.log(
  `\nreference 50 s: ${long.frames} frames in ${fmt(long.renderMs! / 1000, 2)} s, ${fmt(long.renderMs! / short.renderMs!, 2)}× the time of ${short.frames} frames: ${fmt(perFrame, 3)}× the time per frame (target ≤ 1.02); peak RSS ${fmt(long.treeRssMB)} MB against ${fmt(short.treeRssMB)} MB`,
);

// 3. Cold start: a new process for `kino frame` (fonts, draw frame 0, write the PNG) and `kino schema`.
const coldRun = (args: string[]) => {
  const t = performance.now();
  execFileSync(process.execPath, [join(repo, 'main', 'cli', 'kino.mjs'), ...args], {
    cwd: work,
    stdio: 'ignore',
  });
  return performance.now() - t;
};
coldRun(['schema']); // a first run may fill Node's compile cache
const cold = { frame: [] as number[], schema: [] as number[] };
for (let i = 0; i < 5; i++) {
  cold.frame.push(coldRun(['frame', reference5, '--frame', '0', '-o', join(work, 'first.png')]));
  cold.schema.push(coldRun(['schema', '-o', join(work, 'schema.json')]));
}
console.log(
  `\ncold start: kino frame ${fmt(median(cold.frame) / 1000, 2)} s (target ≤ 0.3 s), kino schema ${fmt(median(cold.schema) / 1000, 2)} s; medians of 5`,
);

// 4. Start-up as a user meets it (issue 33): a composition's cold frame (compile, fonts, the noise
// background), and the version through the README's launcher against npx, whole processes.
const wallOf = (command: string, args: string[]) => {
  const t = performance.now();
  execFileSync(command, args, { cwd: repo, stdio: 'ignore' });
  return performance.now() - t;
};
const startup = { frame: [] as number[], launcher: [] as number[], npx: [] as number[] };
const productLaunch = join(repo, 'examples', 'compositions', 'product-launch.ts');
for (let i = 0; i < 5; i++) {
  startup.frame.push(
    coldRun(['frame', productLaunch, '--frame', '10', '-o', join(work, 'product-launch-10.png')]),
  );
  startup.launcher.push(wallOf(join(repo, 'kino'), ['--version']));
}
// npx is slow by nature here (it installs the project into its cache first): three runs are enough.
for (let i = 0; i < 3; i++) startup.npx.push(wallOf('npx', ['kino', '--version']));
console.log(
  `start-up: kino frame product-launch --frame 10 ${fmt(median(startup.frame) / 1000, 2)} s (target ≤ 0.5 s); ./kino --version ${fmt(median(startup.launcher) / 1000, 3)} s (target ≤ 0.25 s), npx kino --version ${fmt(median(startup.npx) / 1000, 2)} s; medians`,
);

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
  const example = await runOnce([join(repo, 'examples', 'specs', `${key}.json`), join(work, `${key}.mp4`)]);
  console.log(
    `render ${key}: ${example.frames} frames in ${fmt(example.renderMs! / 1000, 2)} s → ${fmt((example.frames * 1000) / example.renderMs!)} fps (draw ${fmt(example.drawMs / example.frames, 2)} ms/frame), peak RSS ${fmt(example.maxRssMB)} MB`,
  );
}
rmSync(work, { recursive: true, force: true });

// 6. The workspace (issue 33's last rows): cold first frame, warm frames, a review, in a scene with a
// video clip too; the same run as `npm run bench:workspace`.
console.log('\nworkspace:');
execFileSync(process.execPath, [join(here, 'workspace-bench.ts')], { cwd: repo, stdio: 'inherit' });
