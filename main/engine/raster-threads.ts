// How many threads rasterise a render, and how they get its model.
import { availableParallelism } from 'node:os';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import type { ModelSource } from './raster-protocol.ts';

/**
 * Below this much drawing (frames × pixels: 60 frames at 1080×1920, 240 at draft size), starting
 * threads (≈0.35 s each, loading the engine and Skia) costs more than they save, unless the render
 * asks for threads itself.
 */
export const MIN_PIXEL_FRAMES_FOR_THREADS = 60 * 1080 * 1920;
/** Past this, more threads only add memory: the encoder and the in-order pipe are the limit. */
export const MAX_RASTER_THREADS = 16;

export class RasterThreadsError extends Error {
  override name = 'RasterThreadsError';
}

/** Reads RENDER_THREADS (or a --concurrency value): a whole number from 1 to MAX_RASTER_THREADS. */
export function parseRasterThreads(value: string | number, what = 'RENDER_THREADS'): number {
  const n = typeof value === 'number' ? value : Number(value.trim());
  if (!Number.isInteger(n) || n < 1 || n > MAX_RASTER_THREADS) {
    throw new RasterThreadsError(
      `${what} must be a whole number from 1 to ${MAX_RASTER_THREADS}, got ${JSON.stringify(value)}.`,
    );
  }
  return n;
}

/** The most threads on this machine: one per core (npm run bench measures 1 against N). */
export function defaultRasterThreads(): number {
  return Math.min(availableParallelism(), MAX_RASTER_THREADS);
}

function holdsFunctions(value: unknown, depth = 0): boolean {
  if (typeof value === 'function') return true;
  if (!value || typeof value !== 'object' || depth > 64) return false;
  return Object.values(value).some((item) => holdsFunctions(item, depth + 1));
}

export interface RasterPlan {
  /** Threads that draw when forced; with `byCost`, the most worker threads the render may start. */
  count: number;
  /**
   * Nothing forced a count: the render draws its first frames on its own thread, measures them, and
   * hands the rest to up to `count` worker threads only where that pays (see chooseRasterWorkers).
   */
  byCost: boolean;
  /** The cores this render may use (RENDER_CORES, else the machine's): what the choice weighs. */
  cores: number;
  /** Why the count is what it is, in words (a receipt or the CLI says it). */
  reason: string;
  source: ModelSource;
}

export function rasterThreads(
  asked: number | undefined,
  frames: { count: number; width: number; height: number },
  request: {
    model: VideoModel;
    composition?: { path: string; variables?: VariableValues | undefined } | undefined;
  },
  env: NodeJS.ProcessEnv = process.env,
): RasterPlan {
  // An asked count wins, so RENDER_THREADS is read (and checked) only when nothing was asked.
  const fromEnv =
    asked === undefined && env.RENDER_THREADS?.trim() ? parseRasterThreads(env.RENDER_THREADS) : undefined;
  const cores = env.RENDER_CORES?.trim()
    ? parseRasterThreads(env.RENDER_CORES, 'RENDER_CORES')
    : defaultRasterThreads();
  const small = frames.count * frames.width * frames.height < MIN_PIXEL_FRAMES_FOR_THREADS;
  // RENDER_THREADS is a machine-wide setting: like the default, it leaves small renders on one thread.
  const forced = asked ?? (small ? undefined : fromEnv);
  const byCost = forced === undefined && !small;
  const wanted = forced ?? (small ? 1 : cores);
  const count = Math.max(1, Math.min(wanted, frames.count));
  const threads = (n: number) => `${n} thread${n === 1 ? '' : 's'}`;
  const reason =
    asked !== undefined
      ? `${threads(count)} asked for`
      : forced !== undefined
        ? `RENDER_THREADS=${forced}`
        : small
          ? 'a short render draws on one thread'
          : `chosen by cost, up to ${threads(count)}`;
  if (!holdsFunctions(request.model)) {
    return { count, byCost, cores, reason, source: { kind: 'model', model: request.model } };
  }
  // Custom drawing cannot be cloned into a thread; the thread loads the composition itself.
  if (!request.composition) {
    return {
      count: 1,
      byCost: false,
      cores,
      reason: 'custom drawing without its composition file draws on one thread',
      source: { kind: 'model', model: request.model },
    };
  }
  return { count, byCost, cores, reason, source: { kind: 'composition', ...request.composition } };
}
