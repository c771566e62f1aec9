// CPU accounting for one measured window of the API bench: the server, its render workers, the
// bench itself and the rest of the machine, sampled every 250 ms from /proc (Linux; every figure is
// null elsewhere), plus this process's event-loop delay.
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ProcInfo } from './proc.ts';
import { TICK_MS, descendants, isRenderWorker, readMachine, readProc, readSchedstat } from './proc.ts';
import { round } from './round.ts';

const LOOP_RESOLUTION_MS = 5;

/** One sampling interval (about 250 ms): scheduler time of both main threads and the machine's load. */
export interface Interval {
  /** Epoch ms at the interval's start and end. */
  from: number;
  to: number;
  serverWaitMs: number;
  serverRunMs: number;
  benchWaitMs: number;
  /** Machine CPU in % of one core: work at nice ≤ 0 (API servers, tests, tools) and niced work (renders). */
  machinePlainPct: number;
  machineNicedPct: number;
}

export interface CpuFigures {
  /** All in % of one core over the window (the machine has `cores` of them). */
  serverPct: number | null;
  /** Share of the window the server's main (event loop) thread spent runnable but waiting for a CPU. */
  serverRunqueueWaitPct: number | null;
  /** The same wait averaged over the times it got a CPU: what a wake-up costs before any work. */
  serverWaitPerSliceMs: number | null;
  rendersPct: number | null;
  renderNice: number[];
  benchPct: number;
  machineBusyPct: number | null;
  othersPct: number | null;
  /** Event-loop delay of this (load-generating) process: latency measured here includes it. */
  benchLoopDelayP99Ms: number;
  benchLoopDelayMaxMs: number;
  /** Samples of the server's children (every 250 ms) and how many found a render worker alive. */
  workerSamples: { total: number; withWorker: number } | null;
  /** Every sampling interval of the window, to line the slowest responses up with what the CPUs did. */
  timeline: Interval[];
}

/**
 * Samples the server and its descendants every 250 ms so processes that end mid-window still count.
 * Returns the function that ends the window and answers its figures.
 */
export function startCpuWatch(serverPid: number): () => CpuFigures {
  const linux = existsSync(`/proc/${serverPid}/stat`);
  const startedAt = performance.now();
  const bench0 = process.cpuUsage();
  const server0 = linux ? readProc(serverPid) : null;
  const sched0 = linux ? readSchedstat(serverPid) : null;
  const machine0 = linux ? readMachine() : null;
  const first = new Map<number, number>();
  const last = new Map<number, ProcInfo>();
  const timeline: Interval[] = [];
  let samples = 0;
  let workerSamples = 0;
  let prev = {
    at: Date.now(),
    server: sched0,
    bench: linux ? readSchedstat(process.pid) : null,
    machine: machine0,
  };
  const sample = () => {
    if (!linux) return;
    samples++;
    const now = {
      at: Date.now(),
      server: readSchedstat(serverPid),
      bench: readSchedstat(process.pid),
      machine: readMachine(),
    };
    if (samples > 1 && prev.server && now.server && prev.bench && now.bench && prev.machine && now.machine) {
      const share = (ticks: number) =>
        round((100 * cpus().length * ticks) / Math.max(1, now.machine!.total - prev.machine!.total));
      timeline.push({
        from: prev.at,
        to: now.at,
        serverWaitMs: round((now.server.waitNs - prev.server.waitNs) / 1e6, 2),
        serverRunMs: round((now.server.runNs - prev.server.runNs) / 1e6, 2),
        benchWaitMs: round((now.bench.waitNs - prev.bench.waitNs) / 1e6, 2),
        machinePlainPct: share(now.machine.plain - prev.machine.plain),
        machineNicedPct: share(now.machine.niced - prev.machine.niced),
      });
    }
    prev = now;
    let worker = false;
    for (const [pid, info] of descendants(serverPid)) {
      if (!first.has(pid)) first.set(pid, samples === 1 ? info.ticks : 0);
      last.set(pid, info);
      if (!worker && isRenderWorker(pid)) worker = true;
    }
    if (worker) workerSamples++;
  };
  sample();
  const timer = setInterval(sample, 250);
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  loop.enable();
  return (): CpuFigures => {
    clearInterval(timer);
    sample();
    loop.disable();
    const ms = performance.now() - startedAt;
    const pct = (cpuMs: number) => round((100 * cpuMs) / ms);
    const bench = process.cpuUsage(bench0);
    const benchPct = pct((bench.user + bench.system) / 1000);
    const server1 = linux ? readProc(serverPid) : null;
    const sched1 = linux ? readSchedstat(serverPid) : null;
    const machine1 = linux ? readMachine() : null;
    let renderTicks = 0;
    for (const [pid, info] of last) renderTicks += info.ticks - (first.get(pid) ?? 0);
    const serverPct = server0 && server1 ? pct((server1.ticks - server0.ticks) * TICK_MS) : null;
    const rendersPct = linux ? pct(renderTicks * TICK_MS) : null;
    const machineBusyPct =
      machine0 && machine1
        ? round(
            (100 * cpus().length * (machine1.plain + machine1.niced - machine0.plain - machine0.niced)) /
              (machine1.total - machine0.total),
          )
        : null;
    return {
      serverPct,
      serverRunqueueWaitPct:
        sched0 && sched1 ? round((100 * (sched1.waitNs - sched0.waitNs)) / 1e6 / ms) : null,
      serverWaitPerSliceMs:
        sched0 && sched1
          ? round((sched1.waitNs - sched0.waitNs) / 1e6 / Math.max(1, sched1.slices - sched0.slices), 3)
          : null,
      rendersPct,
      renderNice: [...new Set([...last.values()].map((info) => info.nice))].sort((a, b) => a - b),
      benchPct,
      machineBusyPct,
      othersPct:
        machineBusyPct !== null && serverPct !== null && rendersPct !== null
          ? round(Math.max(0, machineBusyPct - serverPct - rendersPct - benchPct))
          : null,
      // The histogram holds whole timer intervals; the delay is what exceeds the resolution.
      benchLoopDelayP99Ms: round(Math.max(0, loop.percentile(99) / 1e6 - LOOP_RESOLUTION_MS), 2),
      benchLoopDelayMaxMs: round(Math.max(0, loop.max / 1e6 - LOOP_RESOLUTION_MS), 2),
      workerSamples: linux ? { total: samples, withWorker: workerSamples } : null,
      timeline,
    };
  };
}

/** What the sampling intervals overlapping [at - ms, at] saw: the stall behind one slow response. */
export function during(timeline: Interval[], at: number, ms: number) {
  const hit = timeline.filter((i) => i.to >= at - ms && i.from <= at);
  if (hit.length === 0) return null;
  const sum = (pick: (i: Interval) => number) => round(hit.reduce((total, i) => total + pick(i), 0));
  const mean = (pick: (i: Interval) => number) => round(sum(pick) / hit.length);
  return {
    spanMs: hit.at(-1)!.to - hit[0]!.from,
    serverWaitMs: sum((i) => i.serverWaitMs),
    serverRunMs: sum((i) => i.serverRunMs),
    benchWaitMs: sum((i) => i.benchWaitMs),
    machinePlainPct: mean((i) => i.machinePlainPct),
    machineNicedPct: mean((i) => i.machineNicedPct),
  };
}
