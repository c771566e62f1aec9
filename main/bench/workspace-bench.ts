// `npm run bench:workspace`: the authoring loop's latencies through the real workspace (HTTP on
// loopback, the worker process) on a copy of the examples project, for travel-reel (text, images,
// noise) and interview-clip (a looping video clip under every frame), or the compositions named:
// - cold start to the first frame: a fresh workspace's first frame request, compile included;
// - warm frame capture at 1080×1920: later frame requests on the same worker (on the session it
//   keeps warm; in interview-clip every one is inside the clip);
// - a 24-frame review.
// Targets (issues 4 and 33): warm frame ≤ 150 ms (≤ 300 ms inside a video clip), cold first frame
// ≤ 1.5 s, 24-frame review ≤ 3 s.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorkspace } from '../workspace/server.ts';
import { MAX_REVIEW_FRAMES } from '../../shared/protocol/review-frames.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The compositions measured by default, each with its warm-frame target. */
export const WORKSPACE_BENCH_COMPOSITIONS: Record<string, { warmFrameTargetMs: number }> = {
  'travel-reel': { warmFrameTargetMs: 150 },
  'interview-clip': { warmFrameTargetMs: 300 },
};
const COLD_FIRST_FRAME_TARGET_MS = 1500;
const REVIEW_TARGET_MS = 3000;
const WARM_FRAMES = 15;

export interface WorkspaceBenchFigures {
  composition: string;
  coldFirstFrameMs: number;
  workerStartupMs: number;
  warmFrameMs: number;
  warmFrameInWorkerMs: number;
  slowestWarmFrameMs: number;
  warmFrameTargetMs: number;
  reviewMs: number;
  findings: number;
}

interface Answer {
  status: number;
  body: Record<string, number | string | unknown[]>;
  ms: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Measures one composition of the examples project copied to `work`, in a workspace of its own. */
async function measure(work: string, composition: string): Promise<WorkspaceBenchFigures> {
  const source = join(work, 'compositions', `${composition}.ts`);
  const workspace = await startWorkspace({ source });
  try {
    const { endpoint, token } = workspace.descriptor;
    const job = async (body: Record<string, unknown>): Promise<Answer> => {
      const started = performance.now();
      const response = await fetch(`${endpoint}/jobs`, {
        method: 'POST',
        headers: { 'x-kino-token': token, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      const parsed = (await response.json()) as Answer['body'];
      if (response.status !== 200) throw new Error(`${String(body.operation)}: ${JSON.stringify(parsed)}`);
      return { status: response.status, body: parsed, ms: performance.now() - started };
    };

    const cold = await job({ operation: 'frame', frameIndex: 0 });
    const warm: Answer[] = [];
    for (let i = 0; i < WARM_FRAMES; i++)
      warm.push(await job({ operation: 'frame', frameIndex: 10 + i * 7 }));
    const reviews: Answer[] = [];
    for (let i = 0; i < 3; i++)
      reviews.push(await job({ operation: 'review', reviewFrames: MAX_REVIEW_FRAMES }));
    return {
      composition,
      coldFirstFrameMs: cold.ms,
      workerStartupMs: Number(cold.body.startupMilliseconds),
      warmFrameMs: median(warm.map((a) => a.ms)),
      warmFrameInWorkerMs: median(warm.map((a) => Number(a.body.captureMilliseconds))),
      slowestWarmFrameMs: Math.max(...warm.map((a) => a.ms)),
      warmFrameTargetMs: WORKSPACE_BENCH_COMPOSITIONS[composition]?.warmFrameTargetMs ?? 150,
      reviewMs: median(reviews.map((a) => a.ms)),
      findings: (reviews[0]!.body.findings as unknown[] | undefined)?.length ?? 0,
    };
  } finally {
    await workspace.close();
  }
}

/** Measures each composition in turn (a fresh workspace each) on one copy of the examples project. */
export async function workspaceBench(
  compositions: readonly string[] = Object.keys(WORKSPACE_BENCH_COMPOSITIONS),
): Promise<WorkspaceBenchFigures[]> {
  const work = mkdtempSync(join(tmpdir(), 'kino-workspace-bench-'));
  try {
    cpSync(join(repo, 'examples'), work, {
      recursive: true,
      filter: (source) => !source.includes(`${join(repo, 'examples', 'build')}`),
    });
    const figures: WorkspaceBenchFigures[] = [];
    for (const composition of compositions) figures.push(await measure(work, composition));
    return figures;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The figures as the bench prints them: one block per composition, each against its target. */
export function formatWorkspaceBench(figures: readonly WorkspaceBenchFigures[]): string {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const line = (label: string, value: string, target = '') =>
    `${label.padEnd(40)} ${value.padStart(12)}  ${target}`.trimEnd() + '\n';
  return figures
    .map(
      (f) =>
        `${f.composition} (1080×1920)\n` +
        line(
          'cold start → first frame (round trip)',
          ms(f.coldFirstFrameMs),
          `target ≤ ${COLD_FIRST_FRAME_TARGET_MS} ms`,
        ) +
        line('  of which worker startup (compile+load)', ms(f.workerStartupMs)) +
        line(
          'warm frame capture (round trip, median)',
          ms(f.warmFrameMs),
          `target ≤ ${f.warmFrameTargetMs} ms`,
        ) +
        line('  capture in the worker (median)', ms(f.warmFrameInWorkerMs)) +
        line(`  slowest of ${WARM_FRAMES}`, ms(f.slowestWarmFrameMs)) +
        line('24-frame review (round trip, median of 3)', ms(f.reviewMs), `target ≤ ${REVIEW_TARGET_MS} ms`) +
        line('  findings', String(f.findings)),
    )
    .join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  process.stdout.write(
    `workspace bench: ${(names.length ? names : Object.keys(WORKSPACE_BENCH_COMPOSITIONS)).join(', ')}\n\n`,
  );
  process.stdout.write(formatWorkspaceBench(await workspaceBench(names.length ? names : undefined)));
}
