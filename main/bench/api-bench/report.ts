// The API bench's printed report: latency per run, CPU per window, and the worst moments of each run
// lined up with what the CPUs did meanwhile.
import { cpus } from 'node:os';
import type { LatencyFigures } from './load.ts';
import type { RunFigures } from './measure.ts';

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows
    .map((row) =>
      row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}

const show = (n: number | null, suffix = '') => (n === null ? 'n/a' : `${n}${suffix}`);

function renderNote(run: RunFigures, expectRunning: boolean): string {
  const { before, after, workerSamples, wholeWindow, idle, jobs } = run.render;
  const seen = workerSamples ? `, worker in ${workerSamples.withWorker}/${workerSamples.total} samples` : '';
  if (!expectRunning) return idle ? 'none (idle)' : `NOT idle${seen}`;
  if (wholeWindow) return jobs > 1 ? `yes, whole window (${jobs} back to back)` : 'yes, whole window';
  return `NO (before: ${before ? 'yes' : 'no'}, after: ${after ? 'yes' : 'no'}${seen})`;
}

/** Prints the three runs (a: GET while a render runs, b: mixed, c: idle baseline). */
export function report(runs: RunFigures[]): void {
  const latencyRows = [
    ['run', 'req/s', 'target', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'non-2xx', 'errors', 'render running'],
  ];
  const line = (label: string, f: LatencyFigures, note: string) => [
    label,
    String(f.reqPerSec),
    String(f.targetRate),
    f.p50.toFixed(2),
    f.p90.toFixed(2),
    f.p99.toFixed(2),
    f.max.toFixed(2),
    String(f.non2xx),
    String(f.errors),
    note,
  ];
  for (const run of runs) {
    const expectRunning = run.name !== 'c';
    const label = { a: '(a) GET, render running', b: '(b) mixed: GET', c: '(c) GET, no render (baseline)' }[
      run.name
    ]!;
    latencyRows.push(line(label, run.get, renderNote(run, expectRunning)));
    if (run.post)
      latencyRows.push(line('(b) mixed: POST (tiny, draft)', run.post, renderNote(run, expectRunning)));
  }
  console.log(table(latencyRows));

  console.log(
    `\nCPU during each window, % of one core (${cpus().length} cores; "others" = the rest of the machine):`,
  );
  const cpuRows = [
    [
      'run',
      'server',
      'server runq wait (% wall / per slice)',
      'render+ffmpeg (nice)',
      'bench',
      'others',
      'machine',
      'bench loop p99/max ms',
      'load avg',
    ],
  ];
  for (const run of runs) {
    const c = run.cpu;
    cpuRows.push([
      `(${run.name})`,
      show(c.serverPct, '%'),
      `${show(c.serverRunqueueWaitPct, '%')} / ${show(c.serverWaitPerSliceMs, ' ms')}`,
      `${show(c.rendersPct, '%')} (${c.renderNice.length ? c.renderNice.join(',') : '-'})`,
      `${c.benchPct}%`,
      show(c.othersPct, '%'),
      show(c.machineBusyPct, '%'),
      `${c.benchLoopDelayP99Ms}/${c.benchLoopDelayMaxMs}`,
      run.loadavgBefore.join(' '),
    ]);
  }
  console.log(table(cpuRows));

  console.log(
    '\nthe worst moments of each run: "t s: slowest ms (responses held up)", then what the CPUs did meanwhile\n' +
      '(server main thread waiting runnable for a CPU / running; bench waiting; machine at nice ≤ 0 / niced):',
  );
  for (const run of runs) {
    const at = (t: number) => `${((t - run.window.start) / 1000).toFixed(1)} s`;
    const events = run.renderEvents.map((e) => `${at(e.at)} ${e.event}`);
    console.log(`(${run.name}) long renders started/ended: ${events.length ? events.join(', ') : 'none'}`);
    for (const stall of run.stalls) {
      const d = stall.during;
      console.log(
        `    ${at(stall.at)}: ${stall.ms} ms (${stall.responses})` +
          (d
            ? ` | over ${d.spanMs} ms: server waited ${d.serverWaitMs} ms, ran ${d.serverRunMs} ms; bench waited ${d.benchWaitMs} ms; machine ${d.machinePlainPct}% / ${d.machineNicedPct}%`
            : ''),
      );
    }
  }
}
