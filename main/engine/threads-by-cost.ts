// Whether a render hands its frames to worker threads, judged on what its first frames cost. On a
// machine whose cores the encoder already fills, drawing threads only take cores from x264 (and add
// memory); they pay where drawing is the limit and cores sit idle.
import { machineIdleMs, processCpuMs } from '../processes/process-cpu.ts';

/** Frames drawn before measuring: fonts, glyph caches, the first noise variants and x264's lookahead fill. */
export const PROBE_WARM_UP_FRAMES = 8;
/** Frames measured after the warm-up; the choice is made once they are drawn. */
export const PROBE_FRAMES = 16;
/** Fewer frames left than this after the probe: starting threads cannot pay for itself. */
const MIN_FRAMES_TO_HAND_OVER = 30;
/** A thread's start-up (loading the engine and Skia, mounting the video), in CPU milliseconds. */
const THREAD_START_CPU_MS = 350;
/**
 * Copying frames through the shared slots and messages, and each thread's own caches, cost the pool
 * about this much more CPU (the bench's reference video: 4.89 s one-thread, 5.63 s on two).
 */
const POOL_CPU_FACTOR = 1.15;
/** Idle cores below this are x264's slack between frames, not room for a thread. */
const MIN_IDLE_CORES = 0.5;
/** Threads must promise at least this speed-up: on 2 cores, smaller ones measured as none. */
const MIN_SPEEDUP = 1.2;

/** What the render's own thread measured over the probe's frames (totals over `frames`). */
export interface DrawCostSample {
  frames: number;
  wallMs: number;
  /** Drawing and reading back pixels on the render's thread. */
  drawMs: number;
  /** Waiting for the encoder to take frames. */
  waitMs: number;
  /** CPU of this process (every thread). */
  renderCpuMs: number;
  /** CPU of the encoder process, where the platform tells it. */
  encoderCpuMs: number | undefined;
  /** Idle CPU time over every core (other programs' use counts as busy), where the platform tells it. */
  machineIdleMs?: number | undefined;
}

export interface WorkerChoice {
  /** 0: keep drawing on the render's thread. */
  workers: number;
  reason: string;
}

const ms = (n: number) => `${n.toFixed(1)} ms`;

/** How many worker threads draw the rest of the render (0 for none), and why. */
export function chooseRasterWorkers(
  sample: DrawCostSample,
  limits: { cores: number; maxWorkers: number; framesLeft: number },
): WorkerChoice {
  const { cores, maxWorkers, framesLeft } = limits;
  const perFrame = (total: number) => total / Math.max(1, sample.frames);
  const wall = perFrame(sample.wallMs);
  const draw = perFrame(sample.drawMs);
  const wait = perFrame(sample.waitMs);
  const drawShare = draw / wall;
  if (maxWorkers < 1) return { workers: 0, reason: 'no threads allowed' };
  if (framesLeft < MIN_FRAMES_TO_HAND_OVER) {
    return { workers: 0, reason: `${framesLeft} frames left: too few to pay for starting threads` };
  }
  // Waiting on the pipe a little is normal (x264 takes frames in bursts); most of the time is not.
  if (wait / wall > 0.5) {
    return { workers: 0, reason: `the encoder is the limit (waited ${ms(wait)} of each ${ms(wall)} frame)` };
  }
  if (drawShare < 0.6) {
    return { workers: 0, reason: `drawing is not the limit (${ms(draw)} of each ${ms(wall)} frame)` };
  }
  if (sample.encoderCpuMs === undefined) {
    // Without the encoder's share the cores' use is unknown: threads only where cores are many.
    const workers = cores >= 4 ? Math.min(maxWorkers, cores) : 0;
    return {
      workers,
      reason: workers
        ? `drawing is the limit (${ms(draw)} of each ${ms(wall)} frame) on ${cores} cores`
        : `encoder CPU unknown on ${cores} cores: x264 keeps them`,
    };
  }
  const renderCpu = perFrame(sample.renderCpuMs);
  const encoderCpu = perFrame(sample.encoderCpuMs);
  const coresUsed = (renderCpu + encoderCpu) / wall;
  // Cores this render left idle, unless other programs took them (a shared machine).
  const machineIdle = sample.machineIdleMs === undefined ? Infinity : perFrame(sample.machineIdleMs) / wall;
  const idle = Math.min(cores - coresUsed, machineIdle);
  const busy =
    `drawing ${ms(draw)} and encoding ${ms(encoderCpu)} of CPU a ${ms(wall)} frame use ${coresUsed.toFixed(2)} of ${cores} cores` +
    (machineIdle < cores - coresUsed - 0.25
      ? ` (others use ${(cores - coresUsed - machineIdle).toFixed(2)})`
      : '');
  if (idle < MIN_IDLE_CORES) return { workers: 0, reason: `${busy}: no core to spare for threads` };
  // With threads a frame takes the threads' share of drawing, or every core busy, whichever is
  // longer: enough threads to bring the first down to the second, and no more (each costs memory).
  const allCoresBusy = (renderCpu * POOL_CPU_FACTOR + encoderCpu) / cores;
  const workers = Math.max(1, Math.min(maxWorkers, Math.ceil(draw / allCoresBusy - 0.05)));
  const pooledWall = Math.max(draw / workers, allCoresBusy);
  // The threads start while the cores are busy: their start-up is time taken from the render.
  const savedMs = framesLeft * (wall - pooledWall) - workers * THREAD_START_CPU_MS;
  if (savedMs <= 0 || wall / pooledWall < MIN_SPEEDUP) {
    return { workers: 0, reason: `${busy}: threads would save too little` };
  }
  return { workers, reason: `${busy}: ${workers} thread${workers === 1 ? ' draws' : 's draw'} the rest` };
}

/** Measures the probe's frames as a render draws them on its own thread. */
export class DrawCostProbe {
  readonly #encoderPid: () => number | undefined;
  #start:
    | { wall: number; cpu: NodeJS.CpuUsage; encoderCpu: number | undefined; idle: number | undefined }
    | undefined;
  #frames = 0;
  #drawMs = 0;
  #waitMs = 0;

  constructor(encoderPid: () => number | undefined) {
    this.#encoderPid = encoderPid;
  }

  /** Starts measuring (after the warm-up frames). */
  begin(): void {
    this.#start = {
      wall: performance.now(),
      cpu: process.cpuUsage(),
      encoderCpu: processCpuMs(this.#encoderPid()),
      idle: machineIdleMs(),
    };
  }

  /** One frame's drawing and encoder wait, while measuring. */
  frame(drawMs: number, waitMs: number): void {
    if (!this.#start) return;
    this.#frames++;
    this.#drawMs += drawMs;
    this.#waitMs += waitMs;
  }

  get frames(): number {
    return this.#frames;
  }

  sample(): DrawCostSample {
    const start = this.#start!;
    const cpu = process.cpuUsage(start.cpu);
    const encoderNow = processCpuMs(this.#encoderPid());
    const idleNow = machineIdleMs();
    return {
      frames: this.#frames,
      wallMs: performance.now() - start.wall,
      drawMs: this.#drawMs,
      waitMs: this.#waitMs,
      renderCpuMs: (cpu.user + cpu.system) / 1000,
      encoderCpuMs:
        start.encoderCpu === undefined || encoderNow === undefined
          ? undefined
          : encoderNow - start.encoderCpu,
      machineIdleMs: start.idle === undefined || idleNow === undefined ? undefined : idleNow - start.idle,
    };
  }
}
