// One measured run of the API bench: the loads fired at once, the CPU watched meanwhile, and whether
// a long render ran for the whole window (or nothing rendered at all).
import { loadavg } from 'node:os';
import type { CpuFigures } from './cpu-watch.ts';
import { during, startCpuWatch } from './cpu-watch.ts';
import type { CannonOptions, LatencyFigures, Stall } from './load.ts';
import { fire } from './load.ts';
import type { RenderClient, RenderEvent } from './render-client.ts';
import { round } from './round.ts';

export interface RenderWindow {
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

export interface RunFigures {
  name: string;
  getTarget: string;
  get: LatencyFigures;
  post?: LatencyFigures;
  render: RenderWindow;
  cpu: CpuFigures;
  loadavgBefore: number[];
  window: { start: number; end: number };
  /** Long renders starting or ending inside the window (epoch ms): a fork and a result to store. */
  renderEvents: RenderEvent[];
  /** The GET stalls, each with what the CPUs did while it lasted. */
  stalls: (Stall & { during: ReturnType<typeof during> })[];
}

export async function measure(
  client: RenderClient,
  serverPid: number,
  name: string,
  getTarget: string,
  loads: { get: CannonOptions; post?: CannonOptions },
): Promise<RunFigures> {
  const loadavgBefore = loadavg().map((n) => round(n, 2));
  const before = await client.runningLongJob();
  const start = Date.now();
  const watch = startCpuWatch(serverPid);
  const [get, post] = await Promise.all([fire(loads.get), loads.post ? fire(loads.post) : undefined]);
  const cpu = watch();
  const end = Date.now();
  const after = await client.runningLongJob();
  const renderEvents = await client.longRenderEvents(start, end);
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
