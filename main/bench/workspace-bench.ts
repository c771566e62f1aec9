// `npm run bench:workspace`: the authoring loop's latencies through the real workspace (HTTP on
// loopback, the worker process) on a copy of the examples project:
// - cold start to the first frame: a fresh workspace's first frame request, compile included;
// - warm frame capture at 1080×1920: later frame requests on the same worker;
// - a 24-frame review.
// Targets (issue 4): warm frame ≤ 150 ms, cold first frame ≤ 1.5 s, 24-frame review ≤ 3 s.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startWorkspace } from '../workspace/server.ts';
import { MAX_REVIEW_FRAMES } from '../../shared/protocol/review-frames.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const composition = process.argv[2] ?? 'travel-reel';
const work = mkdtempSync(join(tmpdir(), 'kino-workspace-bench-'));
cpSync(join(repo, 'examples'), work, {
  recursive: true,
  filter: (source) => !source.includes(`${join(repo, 'examples', 'build')}`),
});
const source = join(work, 'compositions', `${composition}.ts`);

interface Answer {
  status: number;
  body: Record<string, number | string | unknown[]>;
  ms: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const line = (label: string, value: string, target = '') =>
  process.stdout.write(`${label.padEnd(40)} ${value.padStart(12)}  ${target}\n`);

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

  process.stdout.write(`workspace bench: ${composition} (1080×1920), ${endpoint}\n\n`);
  const cold = await job({ operation: 'frame', frameIndex: 0 });
  line('cold start → first frame (round trip)', `${cold.ms.toFixed(0)} ms`, 'target ≤ 1500 ms');
  line('  of which worker startup (compile+load)', `${Number(cold.body.startupMilliseconds).toFixed(0)} ms`);

  const warm: Answer[] = [];
  for (let i = 0; i < 15; i++) warm.push(await job({ operation: 'frame', frameIndex: 10 + i * 7 }));
  line(
    'warm frame capture (round trip, median)',
    `${median(warm.map((a) => a.ms)).toFixed(0)} ms`,
    'target ≤ 150 ms',
  );
  line(
    '  capture in the worker (median)',
    `${median(warm.map((a) => Number(a.body.captureMilliseconds))).toFixed(0)} ms`,
  );
  line('  slowest of 15', `${Math.max(...warm.map((a) => a.ms)).toFixed(0)} ms`);

  const reviews: Answer[] = [];
  for (let i = 0; i < 3; i++)
    reviews.push(await job({ operation: 'review', reviewFrames: MAX_REVIEW_FRAMES }));
  line(
    '24-frame review (round trip, median of 3)',
    `${median(reviews.map((a) => a.ms)).toFixed(0)} ms`,
    'target ≤ 3000 ms',
  );
  const findings = (reviews[0]!.body.findings as unknown[] | undefined)?.length ?? 0;
  line('  findings', String(findings));
} finally {
  await workspace.close();
  rmSync(work, { recursive: true, force: true });
}
