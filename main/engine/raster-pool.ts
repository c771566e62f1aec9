// Rasterises a render's frames on several worker threads and hands them to the caller in frame
// order. Frames are drawn into a fixed ring of shared slots, so memory stays flat however long the
// video, and a slow consumer (the encoder's pipe) holds back the workers instead of piling up frames.
import { Worker } from 'node:worker_threads';
import { rawFrameBytes } from '../encoder/encoder-args.ts';
import type { InputPixelFormat } from '../encoder/encoder-args.ts';
import type { RelayedVideoFrame } from './media-session.ts';
import { fromThreadError } from './raster-protocol.ts';
import type { RasterReply, RasterThreadInit } from './raster-protocol.ts';

const THREAD_ENTRY = new URL('./raster-thread-entry.mjs', import.meta.url);

/** Frames a worker is given ahead, so it never idles between finishing one and hearing of the next. */
const QUEUED_PER_WORKER = 2;

export interface RasterPoolOptions extends Omit<RasterThreadInit, 'slots' | 'frameBytes' | 'pixelFormat'> {
  threads: number;
  width: number;
  height: number;
  /** What the frames handed to onFrame are: straight RGBA (the default) or yuv420p planes. */
  pixelFormat?: InputPixelFormat | undefined;
  /** A frame whose straight RGBA onFrame also gets (the poster frame), whatever the pixel format. */
  rgbaFrame?: number | undefined;
  /** The first frame the render draws (a chunk of a render); default 0. */
  first?: number | undefined;
  /** Frames the render has from `first`: a thread must mount a video at least that long. */
  frames: number;
  signal?: AbortSignal | undefined;
  /**
   * Called for each frame, in order, before a thread draws it: decodes the video pictures it shows
   * (threads decode none themselves), with their pixels.
   */
  prepare?: ((frame: number) => Promise<Required<RelayedVideoFrame>[]>) | undefined;
}

interface PoolWorker {
  worker: Worker;
  pending: number;
  /** The picture version each video use shows in this thread: unchanged pictures are not sent again. */
  videoVersions: Map<string, number>;
}

function videosFor(entry: PoolWorker, videos: Required<RelayedVideoFrame>[]): RelayedVideoFrame[] {
  // A clip shows over one unbroken run of frames and a thread's frames only go up, so a clip not on
  // this frame is done with in this thread (it lets go of its picture too).
  for (const key of entry.videoVersions.keys()) {
    if (!videos.some((video) => video.key === key)) entry.videoVersions.delete(key);
  }
  return videos.map((video) => {
    if (entry.videoVersions.get(video.key) === video.version) {
      return { key: video.key, version: video.version, width: video.width, height: video.height };
    }
    entry.videoVersions.set(video.key, video.version);
    return video;
  });
}

export class RasterThreadError extends Error {
  override name = 'RasterThreadError';
}

function workerFailure(error: unknown): Error {
  if (error instanceof Error) return error;
  return new RasterThreadError(`a rasterising thread failed: ${String(error)}`);
}

/**
 * A started pool of rasterising threads. `ready` settles once every thread has mounted the video (a
 * render may keep drawing on its own thread meanwhile and hand over later); `drawRange` then draws a
 * run of frames on the threads, and `close` ends them.
 */
export class RasterPool {
  readonly #options: RasterPoolOptions;
  readonly #frameBytes: number;
  readonly #slots: SharedArrayBuffer;
  readonly #workers: PoolWorker[] = [];
  readonly #freeSlots: number[];
  readonly #drawn = new Map<number, number>();
  readonly #pixelFormat: InputPixelFormat;
  #rgbaCopy: Uint8Array | undefined;
  #ready = 0;
  #failure: Error | undefined;
  #wake: (() => void) | undefined;
  #closed = false;
  #onAbort = () => this.#fail(this.#options.signal?.reason ?? new DOMException('aborted', 'AbortError'));
  /** Settles once every thread is ready to draw; rejects with the first thread's failure. */
  readonly ready: Promise<void>;

  private constructor(options: RasterPoolOptions) {
    this.#options = options;
    this.#pixelFormat = options.pixelFormat ?? 'rgba';
    this.#frameBytes = rawFrameBytes(options.width, options.height, this.#pixelFormat);
    // Enough slots for every worker's queue, the frame being written, and one finished early.
    const slotCount = options.threads * QUEUED_PER_WORKER + 2;
    this.#slots = new SharedArrayBuffer(this.#frameBytes * slotCount);
    this.#freeSlots = Array.from({ length: slotCount }, (_, i) => i);
    const init: RasterThreadInit = {
      source: options.source,
      project: options.project,
      output: options.output,
      slots: this.#slots,
      frameBytes: this.#frameBytes,
      pixelFormat: this.#pixelFormat,
    };
    for (let i = 0; i < options.threads; i++) this.#startWorker(init);
    if (options.signal?.aborted) this.#onAbort();
    options.signal?.addEventListener('abort', this.#onAbort, { once: true });
    this.ready = this.#until(() => this.#ready === options.threads);
    // A pool nobody waits on yet (the render still draws on its own thread) must not reject unhandled.
    this.ready.catch(() => undefined);
  }

  static start(options: RasterPoolOptions): RasterPool {
    return new RasterPool(options);
  }

  /** True once every thread is ready (and none failed): a render can hand its frames over now. */
  get isReady(): boolean {
    return this.#failure === undefined && this.#ready === this.#options.threads;
  }

  #startWorker(init: RasterThreadInit): void {
    const { width, height, first = 0 } = this.#options;
    const worker = new Worker(THREAD_ENTRY, { workerData: init });
    const entry: PoolWorker = { worker, pending: 0, videoVersions: new Map() };
    this.#workers.push(entry);
    worker.on('message', (message: RasterReply) => {
      if (message.type === 'ready') {
        // The thread mounted the video itself (a composition is loaded again from its file): it must
        // be the video this render planned, or its frames would not fit the slots.
        const end = first + this.#options.frames;
        if (message.width !== width || message.height !== height || message.frames < end) {
          this.#fail(
            new RasterThreadError(
              `a rasterising thread mounted a different video (${message.width}×${message.height}, ${message.frames} frames; ` +
                `the render has ${width}×${height}, ${end} frames): did its file change during the render?`,
            ),
          );
          return;
        }
        this.#ready++;
        this.#notify();
      } else if (message.type === 'drawn') {
        entry.pending--;
        this.#drawMs += message.drawMs;
        this.#drawn.set(message.frame, message.slot);
        if (message.rgba) this.#rgbaCopy = message.rgba;
        this.#notify();
        this.#assign();
      } else {
        this.#fail(fromThreadError(message.error));
      }
    });
    worker.on('error', (error) => this.#fail(error));
    // Any exit before the pool is closed is a failure, even a clean one (user code calling exit).
    worker.on('exit', (code) => {
      if (!this.#closed)
        this.#fail(new RasterThreadError(`a rasterising thread exited early (code ${code})`));
    });
  }

  #notify(): void {
    this.#wake?.();
    this.#wake = undefined;
  }

  #fail(error: unknown): void {
    this.#failure ??= workerFailure(error);
    this.#notify();
  }

  async #until(done: () => boolean): Promise<void> {
    while (!done() && !this.#failure) await new Promise<void>((resolve) => (this.#wake = resolve));
    if (this.#failure) throw this.#failure;
  }

  #drawMs = 0;
  #nextToAssign = 0;
  #end = 0;
  // Frames are prepared (their video pictures decoded) one at a time, in frame order. The running
  // pass is kept so the pool closes only once it has (a decoder opened after the end would leak).
  #assigning = false;
  #assignPass = Promise.resolve();

  #assign(): void {
    if (this.#assigning) return;
    this.#assigning = true;
    // The flag is set before the pass starts: a pass that never awaits ends (and clears it) inside.
    this.#assignPass = (async () => {
      try {
        while (
          !this.#failure &&
          !this.#closed &&
          this.#nextToAssign < this.#end &&
          this.#freeSlots.length > 0
        ) {
          const idle = this.#workers.reduce<PoolWorker | undefined>(
            (best, w) => (w.pending < QUEUED_PER_WORKER && (!best || w.pending < best.pending) ? w : best),
            undefined,
          );
          if (!idle) return;
          const frame = this.#nextToAssign++;
          const slot = this.#freeSlots.shift()!;
          idle.pending++;
          const videos = this.#options.prepare ? await this.#options.prepare(frame) : [];
          if (this.#failure || this.#closed) return;
          const rgba = this.#pixelFormat !== 'rgba' && frame === this.#options.rgbaFrame;
          idle.worker.postMessage({ type: 'draw', frame, slot, videos: videosFor(idle, videos), rgba });
        }
      } catch (error) {
        this.#fail(error);
      } finally {
        this.#assigning = false;
      }
    })();
  }

  /**
   * Draws frames from..from+total-1 on the threads and calls `onFrame` for each in order, awaiting it
   * before the slot is drawn into again. `rgba` is the frame's straight RGBA: `pixels` themselves in
   * RGBA, else a copy for options.rgbaFrame only. Returns the threads' summed drawing time for the run.
   */
  async drawRange(
    from: number,
    total: number,
    onFrame: (frame: number, pixels: Buffer, rgba: Uint8Array | undefined) => Promise<void>,
  ): Promise<{ drawMs: number }> {
    await this.ready;
    this.#drawMs = 0;
    this.#nextToAssign = from;
    this.#end = from + total;
    this.#assign();
    for (let frame = from; frame < this.#end; frame++) {
      await this.#until(() => this.#drawn.has(frame));
      const slot = this.#drawn.get(frame)!;
      this.#drawn.delete(frame);
      const pixels = Buffer.from(this.#slots, slot * this.#frameBytes, this.#frameBytes);
      const isRgbaFrame = frame === this.#options.rgbaFrame;
      const rgba = this.#pixelFormat === 'rgba' ? pixels : isRgbaFrame ? this.#rgbaCopy : undefined;
      if (isRgbaFrame) this.#rgbaCopy = undefined;
      await onFrame(frame, pixels, rgba);
      this.#freeSlots.push(slot);
      this.#assign();
    }
    return { drawMs: this.#drawMs };
  }

  /** Ends the threads (after the frame being prepared, so no decoder is left open). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#options.signal?.removeEventListener('abort', this.#onAbort);
    await this.#assignPass;
    await Promise.all(this.#workers.map(({ worker }) => worker.terminate()));
  }
}

/**
 * Draws frames first..first+total-1 on `threads` workers and calls `onFrame` for each in order,
 * awaiting it before the slot is drawn into again. Returns the workers' summed drawing time.
 */
export async function rasterInParallel(
  options: Omit<RasterPoolOptions, 'frames'>,
  total: number,
  onFrame: (frame: number, pixels: Buffer, rgba: Uint8Array | undefined) => Promise<void>,
): Promise<{ drawMs: number }> {
  const pool = RasterPool.start({ ...options, frames: total });
  try {
    return await pool.drawRange(options.first ?? 0, total, onFrame);
  } finally {
    await pool.close();
  }
}
