// `npm run bench:api`: latency of the render API (`kino serve` in its own process) under a fixed
// request rate while a render runs, against the same load with no render running, and with render
// creation mixed in. Prints a table, the CPU each party used during each window (to tell a slow
// server from a CPU-starved one), and writes the figures to bench-results/api-bench.json.
// Flags: --duration <seconds> per measured run (default 20), --log-level <pino level> (default warn).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { EventEmitter } from 'node:events';

// ---- autocannon (CommonJS, no bundled types: the part of its API used here) ----

interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  onResponse?: (status: number, body: string) => void;
}
interface CannonOptions {
  url: string;
  connections: number;
  overallRate: number;
  duration: number;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  requests?: CannonRequest[];
  timeout?: number;
}
interface CannonHistogram {
  average: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}
interface CannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
  latency: CannonHistogram;
}
interface CannonInstance extends EventEmitter, PromiseLike<CannonResult> {
  stop(): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: CannonOptions) => CannonInstance;

// ---- settings ----

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const { values: flags } = parseArgs({
  options: { duration: { type: 'string', default: '20' }, 'log-level': { type: 'string', default: 'warn' } },
});
const DURATION = Number(flags.duration);
if (!Number.isFinite(DURATION) || DURATION <= 0) {
  console.error(`--duration wants a positive number of seconds, got "${flags.duration}"`);
  process.exit(64);
}
const LOG_LEVEL = flags['log-level'];
const GET_RATE = 500;
const MIXED_GET_RATE = 480;
const MIXED_POST_RATE = 20;
const CONNECTIONS = 10;
const TARGET_P99_MS = 25;
const WARMUP_SECONDS = 3;
const TOKEN = randomBytes(18).toString('base64url');
const AUTH = { authorization: `Bearer ${TOKEN}` };
const TINY_SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 30,
  scenes: [
    {
      duration: '1s',
      background: '#1e1b4b',
      elements: [{ type: 'text', text: 'Hello', size: 120, animate: [{ preset: 'fadeIn' }] }],
    },
  ],
};
const TINY_BODY = JSON.stringify({ spec: TINY_SPEC, options: { quality: 'draft' } });
/** Long renders kept queued ahead of everything else, so one runs through every loaded window. */
const LONG_RENDER = { key: 'product-launch', options: { quality: 'standard' } };
const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

// ---- the server ----

interface Server {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<void>;
  tail: () => string;
}

const dataDir = mkdtempSync(join(tmpdir(), 'kino-api-bench-'));
let server: Server | undefined;

/**
 * `kino serve` as an operator runs it, in its own session: Ctrl+C reaches only the bench, which
 * cancels the renders first; and, like a service, the server gets its own scheduler autogroup.
 */
async function startServer(): Promise<Server> {
  const child = spawn(process.execPath, [join(repo, 'main', 'cli', 'kino.mjs'), 'serve'], {
    cwd: repo,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      API_TOKEN: TOKEN,
      CLEANUP_TOKEN: randomBytes(18).toString('base64url'),
      CLEANUP_INTERVAL: '0',
      RATE_LIMIT: '0',
      RENDER_CONCURRENCY: '1',
      SHUTDOWN_GRACE: '5s',
      LOG_LEVEL,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kino serve did not start in 30 s:\n${output}`)), 30_000);
    const check = () => {
      const match = /Kino render API on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stderr!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`kino serve exited before listening:\n${output}`));
    });
  });
  return { child, baseUrl, exited, tail: () => output };
}

interface JobBody {
  id: string;
  status: string;
}

async function api(path: string, init: { method?: string; json?: unknown } = {}): Promise<Response> {
  return fetch(`${server!.baseUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...AUTH, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {}),
  });
}

const created = new Set<string>();
const longJobs: string[] = [];

async function enqueueLong(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const response = await api('/v1/renders', { method: 'POST', json: LONG_RENDER });
    const job = (await response.json()) as JobBody;
    if (response.status !== 202)
      throw new Error(`POST /v1/renders answered ${response.status}: ${JSON.stringify(job)}`);
    created.add(job.id);
    longJobs.push(job.id);
  }
}

async function status(id: string): Promise<string> {
  const response = await api(`/v1/renders/${id}`);
  return ((await response.json()) as JobBody).status;
}

/** The long render running now, if any (they run first, in order: the queue is FIFO). */
async function runningLongJob(): Promise<string | null> {
  for (const id of longJobs) {
    const s = await status(id);
    if (s === 'running') return id;
    if (s === 'queued') return null;
  }
  return null;
}

/** Keeps enough long renders ahead in the queue to cover the next window, however fast they are. */
async function topUpLongRenders(): Promise<void> {
  let pending = 0;
  for (const id of longJobs) if (!TERMINAL.has(await status(id))) pending++;
  const wanted = 3 + Math.ceil(DURATION / 4); // product-launch at standard takes 6-20 s here
  if (pending < wanted) await enqueueLong(wanted - pending);
}

async function waitForRunning(signal: AbortSignal): Promise<string> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const id = await runningLongJob();
    if (id) return id;
    if (Date.now() > deadline) throw new Error('no render started within 180 s');
    await sleep(250, undefined, { signal });
  }
}

async function longRenderEvents(
  start: number,
  end: number,
): Promise<{ at: number; id: string; event: string }[]> {
  const events: { at: number; id: string; event: string }[] = [];
  for (const id of longJobs) {
    const response = await api(`/v1/renders/${id}`);
    const job = (await response.json()) as JobBody & {
      startedAt?: string | null;
      finishedAt?: string | null;
    };
    const started = job.startedAt ? Date.parse(job.startedAt) : NaN;
    const finished = job.finishedAt ? Date.parse(job.finishedAt) : NaN;
    if (started >= start && started <= end) events.push({ at: started, id, event: 'started' });
    if (finished >= start && finished <= end) events.push({ at: finished, id, event: job.status });
  }
  return events.sort((x, y) => x.at - y.at);
}

/** How long the long renders that finished took, start to end (context for the windows). */
async function longRenderSeconds(): Promise<number[]> {
  const seconds: number[] = [];
  for (const id of longJobs) {
    const response = await api(`/v1/renders/${id}`);
    const job = (await response.json()) as JobBody & {
      startedAt?: string | null;
      finishedAt?: string | null;
    };
    if (job.status === 'succeeded' && job.startedAt && job.finishedAt)
      seconds.push(round((Date.parse(job.finishedAt) - Date.parse(job.startedAt)) / 1000));
  }
  return seconds;
}

async function cancelAll(): Promise<{ canceled: number; alreadyDone: number; failed: number }> {
  const ids = [...created];
  const counts = { canceled: 0, alreadyDone: 0, failed: 0 };
  const lanes = Array.from({ length: 8 }, async () => {
    for (let id = ids.pop(); id !== undefined; id = ids.pop()) {
      try {
        const response = await api(`/v1/renders/${id}`, { method: 'DELETE' });
        await response.arrayBuffer();
        if (response.status === 200) counts.canceled++;
        else if (response.status === 409) counts.alreadyDone++;
        else counts.failed++;
      } catch {
        counts.failed++;
      }
    }
  });
  await Promise.all(lanes);
  return counts;
}

// ---- CPU accounting from /proc (Linux; every figure is null elsewhere) ----

const TICK_MS = 10; // USER_HZ is 100 on Linux
const LOOP_RESOLUTION_MS = 5;
interface ProcInfo {
  ppid: number;
  ticks: number;
  nice: number;
}

function readProc(pid: number): ProcInfo | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
      nice: Number(fields[16]),
    };
  } catch {
    return null;
  }
}

function descendants(root: number): Map<number, ProcInfo> {
  const all = new Map<number, ProcInfo>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const info = readProc(Number(name));
    if (info) all.set(Number(name), info);
  }
  const found = new Map<number, ProcInfo>();
  const parents = [root];
  while (parents.length > 0) {
    const parent = parents.pop()!;
    for (const [pid, info] of all)
      if (info.ppid === parent && !found.has(pid)) {
        found.set(pid, info);
        parents.push(pid);
      }
  }
  return found;
}

function isRenderWorker(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('render-worker');
  } catch {
    return false;
  }
}

/** Main-thread scheduler figures: nanoseconds on a CPU and waiting runnable for one. */
function readSchedstat(pid: number): { runNs: number; waitNs: number; slices: number } | null {
  try {
    const [run, wait, slices] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ');
    return { runNs: Number(run), waitNs: Number(wait), slices: Number(slices) };
  } catch {
    return null;
  }
}

/** Machine CPU ticks since boot: busy at nice 0 or below, busy at a positive nice, and the total. */
function readMachine(): { plain: number; niced: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const [user, nice, system, idle, iowait, irq, softirq, steal] = line
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number);
    const plain = user! + system! + irq! + softirq! + steal!;
    return { plain, niced: nice!, total: plain + nice! + idle! + iowait! };
  } catch {
    return null;
  }
}

/** One sampling interval (about 250 ms): scheduler time of both main threads and the machine's load. */
interface Interval {
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

interface CpuFigures {
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

/** Samples the server and its descendants every 250 ms so processes that end mid-window still count. */
function startCpuWatch(serverPid: number) {
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
function during(timeline: Interval[], at: number, ms: number) {
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

// ---- load runs ----

interface LatencyFigures {
  requests: number;
  reqPerSec: number;
  targetRate: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** autocannon's own histogram (integer ms, with its coordinated-omission back-fill), for reference. */
  autocannonP99: number;
  /**
   * The worst moments: the slowest response (completed at epoch ms `at`), and how many responses
   * over 10 ms completed within 100 ms of it (10 means every connection was held up together).
   */
  stalls: Stall[];
}

const running = new Set<CannonInstance>();

/** One autocannon instance at a fixed overall rate; latencies are every response time, unsmoothed. */
async function fire(options: CannonOptions): Promise<LatencyFigures> {
  const instance = autocannon({ timeout: 10, ...options });
  running.add(instance);
  const times: number[] = [];
  const slow: { at: number; ms: number }[] = [];
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    times.push(ms);
    if (ms > 10) slow.push({ at: Date.now(), ms: round(ms, 2) });
  });
  const startedAt = performance.now();
  try {
    const result = await instance;
    const seconds = (performance.now() - startedAt) / 1000;
    times.sort((a, b) => a - b);
    const at = (q: number) =>
      times.length ? times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]! : 0;
    return {
      requests: times.length,
      reqPerSec: round(times.length / seconds),
      targetRate: options.overallRate,
      p50: round(at(0.5), 2),
      p90: round(at(0.9), 2),
      p99: round(at(0.99), 2),
      max: round(times.at(-1) ?? 0, 2),
      mean: round(times.reduce((sum, t) => sum + t, 0) / Math.max(1, times.length), 2),
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes: Object.fromEntries(
        Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]),
      ),
      autocannonP99: result.latency.p99,
      stalls: worstMoments(slow),
    };
  } finally {
    running.delete(instance);
  }
}

interface Stall {
  at: number;
  ms: number;
  responses: number;
}

function worstMoments(slow: { at: number; ms: number }[], count = 4): Stall[] {
  const left = [...slow].sort((x, y) => y.ms - x.ms);
  const stalls: Stall[] = [];
  while (left.length > 0 && stalls.length < count) {
    const top = left[0]!;
    const near = (r: { at: number }) => Math.abs(r.at - top.at) <= 100;
    stalls.push({ ...top, responses: left.filter(near).length });
    for (let i = left.length - 1; i >= 0; i--) if (near(left[i]!)) left.splice(i, 1);
  }
  return stalls;
}

function getLoad(id: string, rate: number, seconds: number): CannonOptions {
  return {
    url: `${server!.baseUrl}/v1/renders/${id}`,
    connections: CONNECTIONS,
    overallRate: rate,
    duration: seconds,
    headers: AUTH,
  };
}

function postLoad(rate: number, seconds: number): CannonOptions {
  return {
    url: `${server!.baseUrl}/v1/renders`,
    connections: 2,
    overallRate: rate,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: TINY_BODY,
        onResponse: (status, body) => {
          if (status !== 202) return;
          try {
            created.add((JSON.parse(body) as JobBody).id);
          } catch {
            // counted as a 2xx all the same; only the id is lost
          }
        },
      },
    ],
  };
}

interface RenderWindow {
  /** The render running when the window opened and when it closed (null: none). */
  before: string | null;
  after: string | null;
  workerSamples: { total: number; withWorker: number } | null;
  /** Long renders that ran in the window, back to back (the queue is FIFO). */
  jobs: number;
  /**
   * A long render was running when the window opened and when it closed, and every sample found a
   * worker alive except, at most, one per hand-off from one render to the next.
   */
  wholeWindow: boolean;
  /** Nothing rendered at any point of the window. */
  idle: boolean;
}

interface RunFigures {
  name: string;
  getTarget: string;
  get: LatencyFigures;
  post?: LatencyFigures;
  render: RenderWindow;
  cpu: CpuFigures;
  loadavgBefore: number[];
  window: { start: number; end: number };
  /** Long renders starting or ending inside the window (epoch ms): a fork and a result to store. */
  renderEvents: { at: number; id: string; event: string }[];
  /** The GET stalls, each with what the CPUs did while it lasted. */
  stalls: (Stall & { during: ReturnType<typeof during> })[];
}

async function measure(
  name: string,
  getTarget: string,
  loads: { get: CannonOptions; post?: CannonOptions },
): Promise<RunFigures> {
  const loadavgBefore = loadavg().map((n) => round(n, 2));
  const before = await runningLongJob();
  const start = Date.now();
  const watch = startCpuWatch(server!.child.pid!);
  const [get, post] = await Promise.all([fire(loads.get), loads.post ? fire(loads.post) : undefined]);
  const cpu = watch();
  const end = Date.now();
  const after = await runningLongJob();
  const renderEvents = await longRenderEvents(start, end);
  const seen = cpu.workerSamples;
  const handoffs = renderEvents.filter((e) => e.event === 'started').length;
  const render: RenderWindow = {
    before,
    after,
    workerSamples: seen,
    jobs: before === null ? handoffs : 1 + handoffs,
    wholeWindow:
      before !== null && after !== null && (seen === null || seen.total - seen.withWorker <= handoffs),
    idle: before === null && after === null && (seen === null || seen.withWorker === 0),
  };
  return {
    name,
    getTarget,
    get,
    ...(post ? { post } : {}),
    render,
    cpu,
    loadavgBefore,
    window: { start, end },
    renderEvents,
    stalls: get.stalls.map((stall) => ({ ...stall, during: during(cpu.timeline, stall.at, stall.ms) })),
  };
}

// ---- report ----

function round(n: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

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

function report(runs: RunFigures[]): void {
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

// ---- main ----

const aborter = new AbortController();
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) {
    server?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  }
  interrupted = true;
  console.error('\ninterrupted: canceling renders and stopping the server (Ctrl+C again to force)');
  for (const instance of running) instance.stop();
  aborter.abort();
});
// Last resort when the bench dies some other way: do not leave a server behind.
process.on('exit', () => {
  if (server && server.child.exitCode === null && server.child.signalCode === null)
    server.child.kill('SIGTERM');
});

async function cleanup(): Promise<void> {
  if (server) {
    if (server.child.exitCode === null && server.child.signalCode === null) {
      const counts = await cancelAll();
      console.log(
        `\ncleanup: canceled ${counts.canceled} renders (${counts.alreadyDone} had ended${counts.failed ? `, ${counts.failed} failed to cancel` : ''})`,
      );
      server.child.kill('SIGTERM');
    }
    await Promise.race([server.exited, sleep(20_000)]);
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const signal = aborter.signal;
  server = await startServer();
  console.log(
    `Kino API benchmark (${process.version}, ${cpus().length} cores, load avg ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')})`,
  );
  console.log(
    `server ${server.baseUrl} (pid ${server.child.pid}), RENDER_CONCURRENCY=1, RATE_LIMIT=0, LOG_LEVEL=${LOG_LEVEL}; ${DURATION} s per run, ${CONNECTIONS} connections`,
  );
  console.log(
    'latencies: every response time as autocannon measured it (write to full response), exact percentiles;\n' +
      'note autocannon paces a rate by letting each connection send its per-second quota back to back, then wait.\n',
  );

  await topUpLongRenders();
  const target = await waitForRunning(signal);
  console.log(`render ${target} (product-launch, standard) is running; warming up for ${WARMUP_SECONDS} s…`);
  await Promise.all([fire(getLoad(target, GET_RATE, WARMUP_SECONDS)), fire(postLoad(10, WARMUP_SECONDS))]);
  signal.throwIfAborted();

  const runs: RunFigures[] = [];
  console.log(`(a) GET /v1/renders/{id} at ${GET_RATE} req/s while a render runs…`);
  await topUpLongRenders();
  const aTarget = await waitForRunning(signal);
  runs.push(await measure('a', aTarget, { get: getLoad(aTarget, GET_RATE, DURATION) }));
  signal.throwIfAborted();

  console.log(`(b) POST /v1/renders at ${MIXED_POST_RATE} req/s with GET at ${MIXED_GET_RATE} req/s…`);
  await topUpLongRenders();
  const bTarget = await waitForRunning(signal);
  runs.push(
    await measure('b', bTarget, {
      get: getLoad(bTarget, MIXED_GET_RATE, DURATION),
      post: postLoad(MIXED_POST_RATE, DURATION),
    }),
  );
  signal.throwIfAborted();

  const rendered = await longRenderSeconds();
  console.log('(c) canceling every render, then GET at the same rate with nothing rendering…');
  const counts = await cancelAll();
  console.log(`    canceled ${counts.canceled} renders (${counts.alreadyDone} had ended)`);
  const quietBy = Date.now() + 15_000;
  while (Date.now() < quietBy && [...descendants(server.child.pid!).keys()].some(isRenderWorker))
    await sleep(200, undefined, { signal });
  await sleep(1000, undefined, { signal });
  runs.push(await measure('c', aTarget, { get: getLoad(aTarget, GET_RATE, DURATION) }));
  signal.throwIfAborted();

  console.log('');
  report(runs);
  const a = runs[0]!;
  const met = a.get.p99 < TARGET_P99_MS && a.get.non2xx === 0 && a.get.errors === 0;
  console.log(
    `\ntarget: p99 < ${TARGET_P99_MS} ms for GET at ${GET_RATE} req/s while a render runs — ${met ? 'met' : 'NOT met'} (p99 ${a.get.p99} ms${a.render.wholeWindow ? '' : '; a render did NOT run for the whole window'})`,
  );

  const outDir = join(repo, 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const outFile = join(outDir, 'api-bench.json');
  writeFileSync(
    outFile,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cores: cpus().length,
        settings: {
          durationSeconds: DURATION,
          connections: CONNECTIONS,
          getRate: GET_RATE,
          mixed: { getRate: MIXED_GET_RATE, postRate: MIXED_POST_RATE },
          logLevel: LOG_LEVEL,
          renderConcurrency: 1,
          longRender: LONG_RENDER,
          warmupSeconds: WARMUP_SECONDS,
        },
        longRenderSeconds: rendered,
        target: {
          p99Ms: TARGET_P99_MS,
          measuredP99Ms: a.get.p99,
          met,
          renderRanWholeWindow: a.render.wholeWindow,
        },
        runs,
      },
      null,
      2,
    ) + '\n',
  );
  if (rendered.length)
    console.log(
      `product-launch (standard) renders that finished meanwhile took ${rendered.join(', ')} s each`,
    );
  console.log(`figures written to ${outFile}`);
}

try {
  await main();
} catch (error) {
  if (!interrupted) {
    console.error(
      error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : error,
    );
    if (server) {
      const { exitCode, signalCode } = server.child;
      console.error(
        `server ${exitCode === null && signalCode === null ? 'still running' : `exited (${exitCode ?? signalCode})`}; output (tail):\n${server.tail()}`,
      );
    }
    process.exitCode = 1;
  }
} finally {
  await cleanup();
  if (interrupted) process.exitCode = 130;
}
