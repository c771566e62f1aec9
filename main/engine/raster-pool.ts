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
  /** The first frame drawn (a chunk of a render); default 0. */
  first?: number | undefined;
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
 * Draws frames first..first+total-1 on `threads` workers and calls `onFrame` for each in order,
 * awaiting it before the slot is drawn into again. `rgba` is the frame's straight RGBA: `pixels`
 * themselves in RGBA, else a copy for options.rgbaFrame only. Returns the workers' summed drawing time.
 */
export async function rasterInParallel(
  options: RasterPoolOptions,
  total: number,
  onFrame: (frame: number, pixels: Buffer, rgba: Uint8Array | undefined) => Promise<void>,
): Promise<{ drawMs: number }> {
  const pixelFormat = options.pixelFormat ?? 'rgba';
  const frameBytes = rawFrameBytes(options.width, options.height, pixelFormat);
  // Enough slots for every worker's queue, the frame being written, and one finished early.
  const slotCount = options.threads * QUEUED_PER_WORKER + 2;
  const slots = new SharedArrayBuffer(frameBytes * slotCount);
  const init: RasterThreadInit = {
    source: options.source,
    project: options.project,
    output: options.output,
    slots,
    frameBytes,
    pixelFormat,
  };
  const workers: PoolWorker[] = [];
  const freeSlots = Array.from({ length: slotCount }, (_, i) => i);
  const drawn = new Map<number, number>();
  let rgbaCopy: Uint8Array | undefined;
  const first = options.first ?? 0;
  const end = first + total;
  let nextToAssign = first;
  let drawMs = 0;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const fail = (error: unknown) => {
    failure ??= workerFailure(error);
    notify();
  };

  // Frames are prepared (their video pictures decoded) one at a time, in frame order. The running
  // pass is kept so the pool ends only once it has (a decoder opened after the end would leak).
  let assigning = false;
  let assignPass = Promise.resolve();
  const assign = () => {
    if (assigning) return;
    assigning = true;
    // The flag is set before the pass starts: a pass that never awaits ends (and clears it) inside.
    assignPass = (async () => {
      try {
        while (!failure && !finished && nextToAssign < end && freeSlots.length > 0) {
          const idle = workers.reduce<PoolWorker | undefined>(
            (best, w) => (w.pending < QUEUED_PER_WORKER && (!best || w.pending < best.pending) ? w : best),
            undefined,
          );
          if (!idle) return;
          const frame = nextToAssign++;
          const slot = freeSlots.shift()!;
          idle.pending++;
          const videos = options.prepare ? await options.prepare(frame) : [];
          if (failure || finished) return;
          const rgba = pixelFormat !== 'rgba' && frame === options.rgbaFrame;
          idle.worker.postMessage({ type: 'draw', frame, slot, videos: videosFor(idle, videos), rgba });
        }
      } catch (error) {
        fail(error);
      } finally {
        assigning = false;
      }
    })();
  };

  let finished = false;
  let ready = 0;
  for (let i = 0; i < options.threads; i++) {
    const worker = new Worker(THREAD_ENTRY, { workerData: init });
    const entry: PoolWorker = { worker, pending: 0, videoVersions: new Map() };
    workers.push(entry);
    worker.on('message', (message: RasterReply) => {
      if (message.type === 'ready') {
        // The thread mounted the video itself (a composition is loaded again from its file): it must
        // be the video this render planned, or its frames would not fit the slots.
        if (message.width !== options.width || message.height !== options.height || message.frames < end) {
          fail(
            new RasterThreadError(
              `a rasterising thread mounted a different video (${message.width}×${message.height}, ${message.frames} frames; ` +
                `the render has ${options.width}×${options.height}, ${end} frames): did its file change during the render?`,
            ),
          );
          return;
        }
        ready++;
        notify();
      } else if (message.type === 'drawn') {
        entry.pending--;
        drawMs += message.drawMs;
        drawn.set(message.frame, message.slot);
        if (message.rgba) rgbaCopy = message.rgba;
        notify();
        assign();
      } else {
        fail(fromThreadError(message.error));
      }
    });
    worker.on('error', fail);
    // Any exit before the pool is done is a failure, even a clean one (user code calling exit).
    worker.on('exit', (code) => {
      if (!finished) fail(new RasterThreadError(`a rasterising thread exited early (code ${code})`));
    });
  }
  const onAbort = () => fail(options.signal?.reason ?? new DOMException('aborted', 'AbortError'));
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const until = async (done: () => boolean) => {
    while (!done() && !failure) await new Promise<void>((resolve) => (wake = resolve));
    if (failure) throw failure;
  };
  try {
    await until(() => ready === options.threads);
    assign();
    for (let frame = first; frame < end; frame++) {
      await until(() => drawn.has(frame));
      const slot = drawn.get(frame)!;
      drawn.delete(frame);
      const pixels = Buffer.from(slots, slot * frameBytes, frameBytes);
      const rgba = pixelFormat === 'rgba' ? pixels : frame === options.rgbaFrame ? rgbaCopy : undefined;
      if (frame === options.rgbaFrame) rgbaCopy = undefined;
      await onFrame(frame, pixels, rgba);
      freeSlots.push(slot);
      assign();
    }
    return { drawMs };
  } finally {
    finished = true;
    options.signal?.removeEventListener('abort', onAbort);
    await assignPass;
    await Promise.all(workers.map(({ worker }) => worker.terminate()));
  }
}
