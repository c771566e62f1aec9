// The API bench's load driver: autocannon at a fixed overall rate, every response time kept, and
// the two loads it fires (GET one render's status; POST tiny draft renders).
import { createRequire } from 'node:module';
import type { EventEmitter } from 'node:events';
import type { JobBody, RenderClient } from './render-client.ts';
import { round } from './round.ts';
import { CONNECTIONS, TINY_BODY } from './settings.ts';

// ---- autocannon (CommonJS, no bundled types: the part of its API used here) ----

interface CannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
  onResponse?: (status: number, body: string) => void;
}
export interface CannonOptions {
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

// ---- one load ----

export interface Stall {
  at: number;
  ms: number;
  responses: number;
}

export interface LatencyFigures {
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

/** Stops every load still firing (on Ctrl+C): each `fire` then resolves with what it measured. */
export function stopAllLoads(): void {
  for (const instance of running) instance.stop();
}

/** One autocannon instance at a fixed overall rate; latencies are every response time, unsmoothed. */
export async function fire(options: CannonOptions): Promise<LatencyFigures> {
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

// ---- the two loads ----

/** GET one render's status at `rate` requests per second overall. */
export function getLoad(client: RenderClient, id: string, rate: number, seconds: number): CannonOptions {
  return {
    url: `${client.baseUrl}/v1/renders/${id}`,
    connections: CONNECTIONS,
    overallRate: rate,
    duration: seconds,
    headers: client.auth,
  };
}

/** POST tiny draft renders at `rate` per second; each one created is noted to be canceled later. */
export function postLoad(client: RenderClient, rate: number, seconds: number): CannonOptions {
  return {
    url: `${client.baseUrl}/v1/renders`,
    connections: 2,
    overallRate: rate,
    duration: seconds,
    requests: [
      {
        method: 'POST',
        headers: { ...client.auth, 'content-type': 'application/json' },
        body: TINY_BODY,
        onResponse: (status, body) => {
          if (status !== 202) return;
          try {
            client.created.add((JSON.parse(body) as JobBody).id);
          } catch {
            // counted as a 2xx all the same; only the id is lost
          }
        },
      },
    ],
  };
}
