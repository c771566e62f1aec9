// Per-frame cost of the data and developer elements, in its own process so the first frame's cost
// (shiki's grammar compilation) is measured cold. Draws a 1080×1920 frame holding a 40-line
// highlighted code block and a built 12-bar chart, and the same frame without them, many times.
// Usage: node element-frame.ts <spec.json> <baseline-spec.json> [frames]
// Prints one JSON line: first-frame and steady per-frame milliseconds, with and without the elements.
import { resolveRenderInput } from '../project/resolve-input.ts';
import { DrawingSession } from '../engine/drawing-session.ts';
import { projectContext } from '../engine/project-context.ts';

const [specPath, baselinePath, framesArg] = process.argv.slice(2);
if (!specPath || !baselinePath)
  throw new Error('usage: element-frame.ts <spec.json> <baseline.json> [frames]');
const frames = Number(framesArg ?? 120);

interface FrameCost {
  /** Opening the session: fonts, timeline, media and, with code, shiki and its grammars. */
  openMs: number;
  /** The first frame: with code, the first highlight compiles the grammar's regexes. */
  firstDrawMs: number;
  /** Median over `frames` later frames of drawing alone, and of drawing plus the pixel readback. */
  drawMs: number;
  drawReadMs: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function measure(path: string): Promise<FrameCost> {
  const input = await resolveRenderInput(path, process.cwd());
  const project = await projectContext(input.project);
  const opened = performance.now();
  const session = await DrawingSession.open({ model: input.model, project });
  const openMs = performance.now() - opened;
  const last = session.framesTotal - 1;
  let t = performance.now();
  await session.draw(last);
  session.rgba();
  const firstDrawMs = performance.now() - t;
  const draws: number[] = [];
  const drawReads: number[] = [];
  for (let i = 0; i < frames; i++) {
    // Frames at rest after the build: the steady cost a long shot of code and a chart pays.
    const frame = last - (i % 10);
    t = performance.now();
    await session.draw(frame);
    const drawn = performance.now();
    session.rgba();
    draws.push(drawn - t);
    drawReads.push(performance.now() - t);
  }
  session.close();
  return { openMs, firstDrawMs, drawMs: median(draws), drawReadMs: median(drawReads) };
}

const baseline = await measure(baselinePath);
const withElements = await measure(specPath);
process.stdout.write(JSON.stringify({ frames, baseline, withElements }) + '\n');
