// Per-frame CPU cost of drawing a video's frames and reading their pixels, on this thread alone, so a
// change to drawing can be judged without an encoder or threads in the way. @napi-rs/canvas records
// draw calls and rasterises them inside the pixel read, so the figure is draw + read together.
// Usage: node draw-cost.ts <spec-or-composition> [first-last] [--repeat N] [--without s0/e2,...]
//   --without: drop those elements (scene index / element index) first, to attribute the cost.
// Prints one JSON line: median and range of CPU ms per frame over the frames, and each frame's hash.
import { createHash } from 'node:crypto';
import { resolveRenderInput } from '../project/resolve-input.ts';
import { DrawingSession } from '../engine/drawing-session.ts';
import { projectContext } from '../engine/project-context.ts';
import { resolveForOutput } from '../engine/output-video.ts';
import type { VideoModel } from '../../shared/spec/model.ts';

const argv = process.argv.slice(2);
function option(name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv.splice(at, 2)[1] : undefined;
}
const repeat = Number(option('--repeat') ?? 1);
const without = (option('--without') ?? '').split(',').filter(Boolean);
const [path, range] = argv;
if (!path)
  throw new Error('usage: draw-cost.ts <spec-or-composition> [first-last] [--repeat N] [--without s0/e2]');

/** The model with the named scene elements dropped (`s0/e2`: scene 0's third element). */
function dropElements(model: VideoModel, keys: string[]): VideoModel {
  if (keys.length === 0) return model;
  const scenes = model.scenes.map((scene, s) => ({
    ...scene,
    elements: (scene.elements ?? []).filter((_, e) => !keys.includes(`s${s}/e${e}`)),
  }));
  return { ...model, scenes };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const input = await resolveRenderInput(path, process.cwd());
const project = await projectContext(input.project);
const options = { format: 'mp4' as const, quality: 'standard' as const };
const session = await DrawingSession.open({
  model: dropElements(input.model, without),
  project,
  resolve: (model) => resolveForOutput(model, options),
});
const [first, last] = (range ?? `0-${session.framesTotal - 1}`).split('-').map(Number) as [number, number];
const perFrame: number[] = [];
const hashes: string[] = [];
for (let pass = 0; pass < repeat; pass++) {
  for (let frame = first; frame <= last; frame++) {
    const before = process.cpuUsage();
    await session.draw(frame);
    const pixels = session.rgba();
    const used = process.cpuUsage(before);
    perFrame.push((used.user + used.system) / 1000);
    if (pass === 0) hashes.push(createHash('sha256').update(pixels).digest('hex').slice(0, 16));
    // One frame per event-loop turn, as a render draws: Skia's buffers are freed by finalizers.
    await new Promise((resolve) => setImmediate(resolve));
  }
}
session.close();
const sorted = [...perFrame].sort((a, b) => a - b);
process.stdout.write(
  JSON.stringify({
    frames: `${first}-${last}`,
    without,
    medianMs: +median(perFrame).toFixed(2),
    p10Ms: +sorted[Math.floor(sorted.length * 0.1)]!.toFixed(2),
    p90Ms: +sorted[Math.floor(sorted.length * 0.9)]!.toFixed(2),
    totalMs: +perFrame.reduce((a, b) => a + b, 0).toFixed(0),
    hash: createHash('sha256').update(hashes.join()).digest('hex').slice(0, 16),
  }) + '\n',
);
if (process.env.DRAW_COST_HASHES)
  process.stderr.write(
    hashes.map((h, i) => `${first + i} ${h} ${perFrame[i]!.toFixed(1)}`).join('\n') + '\n',
  );
