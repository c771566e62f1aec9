// Decodes a video for one use in a render (a clip element, a video background) as a stream of frames
// at the output frame rate: one ffmpeg process writes raw RGBA to a pipe, we read exactly one frame at a
// time into a reused buffer, and the pipe's backpressure keeps ffmpeg from decoding far ahead, so memory
// stays at about one frame whatever the clip length.
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { createCanvas, ImageData } from '@napi-rs/canvas';
import type { Canvas, SKRSContext2D } from '@napi-rs/canvas';
import type { DrawableImage } from '../../shared/canvas/types.ts';
import { ffmpegPath } from '../ffmpeg/binaries.ts';
import { MediaError } from './media-error.ts';
import { INPUT_PROTOCOLS, demuxerName, probeMedia } from './probe-media.ts';
import type { MediaProbe } from './probe-media.ts';

export interface VideoFrameSourceOptions {
  /** A local file, already resolved (see resolveMediaSource). */
  path: string;
  /** The output frame rate: frameAt(n) is the picture at n / fps seconds into the element. */
  fps: number;
  /** Where playback starts in the source (trim start). */
  sourceStartSeconds: number;
  /** Where the used part of the source ends (trim end); default: the end of the file. */
  sourceEndSeconds?: number | undefined;
  /** Playback rate: 2 plays twice as fast. */
  rate: number;
  /** Start again from sourceStartSeconds at the end instead of holding the last frame. */
  loop: boolean;
  /** How long the element shows: frames past it hold the last one. */
  durationSeconds: number;
  /** Optional downscale to fit within this box, keeping the aspect ratio (never enlarges). */
  width?: number | undefined;
  height?: number | undefined;
  /** The spec's source string, named in errors. */
  source?: string | undefined;
  /** Keep a copy of each new frame's pixels (see frameCopy), for drawing threads that cannot decode. */
  copyFrames?: boolean | undefined;
}

/** The straight RGBA of the frame last returned by frameAt; `version` changes with the picture. */
export interface VideoFrameCopy {
  version: number;
  width: number;
  height: number;
  pixels: Uint8ClampedArray;
}

/** Seeking restarts ffmpeg; smaller forward jumps are cheaper to decode through. */
const SEEK_INSTEAD_OF_DECODING_SECONDS = 2;
const STDERR_TAIL_CHARS = 2000;

interface DecodeRun {
  child: ChildProcessByStdio<null, Readable, Readable>;
  chunks: AsyncIterator<Buffer>;
  pending: Buffer | undefined;
  pendingOffset: number;
  framesRead: number;
  /** The next frame being read while the caller draws the current one. */
  ahead: Promise<boolean> | undefined;
  stderr: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  spawnError: Error | undefined;
}

function outputSize(
  probe: MediaProbe,
  maxWidth?: number,
  maxHeight?: number,
): { width: number; height: number } {
  const width = probe.width!;
  const height = probe.height!;
  const scale = Math.min(1, (maxWidth ?? width) / width, (maxHeight ?? height) / height);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

export class VideoFrameSource {
  readonly width: number;
  readonly height: number;
  readonly probe: MediaProbe;
  readonly #options: VideoFrameSourceOptions;
  readonly #canvas: Canvas;
  readonly #ctx: SKRSContext2D;
  readonly #pixels: Uint8ClampedArray;
  readonly #pixelBytes: Buffer;
  readonly #imageData: ImageData;
  /** Source seconds used: from the trim start to the trim end or the end of the video (Infinity if unknown). */
  readonly #segmentLength: number;
  /** Output frames one pass through the segment lasts (Infinity if unknown). */
  readonly #framesPerPass: number;
  /** The element's last output frame: later ones hold it. */
  readonly #lastFrame: number;
  #run: DecodeRun | undefined;
  /** Output index of the frame in #pixels; -1 before the first. */
  #index = -1;
  /** Output index where the current pass through the segment began (looping). */
  #passStart = 0;
  #ended = false;
  #closed = false;
  #queue: Promise<unknown> = Promise.resolve();
  #copy: VideoFrameCopy | undefined;

  private constructor(options: VideoFrameSourceOptions, probe: MediaProbe) {
    this.#options = options;
    this.probe = probe;
    ({ width: this.width, height: this.height } = outputSize(probe, options.width, options.height));
    this.#canvas = createCanvas(this.width, this.height);
    this.#ctx = this.#canvas.getContext('2d');
    // Frames are read straight into the ImageData's own pixels: some @napi-rs/canvas versions copy
    // an array handed to the ImageData constructor, so a separate buffer would never reach the canvas.
    this.#imageData = new ImageData(this.width, this.height);
    this.#pixels = this.#imageData.data;
    this.#pixelBytes = Buffer.from(this.#pixels.buffer, this.#pixels.byteOffset, this.#pixels.byteLength);
    const videoEnd = probe.videoDurationSeconds ?? (probe.durationSeconds || Infinity);
    this.#segmentLength =
      Math.min(options.sourceEndSeconds ?? Infinity, videoEnd) - options.sourceStartSeconds;
    // Output frame j shows source time start + j * rate / fps; a pass holds those before the segment end.
    this.#framesPerPass = Number.isFinite(this.#segmentLength)
      ? Math.max(1, Math.ceil((this.#segmentLength * options.fps) / options.rate - 1e-6))
      : Infinity;
    this.#lastFrame = Math.max(0, Math.ceil(options.durationSeconds * options.fps - 1e-6) - 1);
  }

  static async open(options: VideoFrameSourceOptions): Promise<VideoFrameSource> {
    const name = options.source ?? options.path;
    const about = options.source === undefined ? {} : { source: options.source };
    if (!(options.fps > 0) || !(options.rate > 0) || !(options.sourceStartSeconds >= 0)) {
      throw new RangeError(`video "${name}": fps and rate must be positive and the start not negative`);
    }
    if (options.sourceEndSeconds !== undefined && !(options.sourceEndSeconds > options.sourceStartSeconds)) {
      throw new RangeError(
        `video "${name}": trim end ${options.sourceEndSeconds} s must come after its start`,
      );
    }
    const probe = await probeMedia(options.path, options.source);
    if (!probe.hasVideo || !probe.width || !probe.height) {
      throw new MediaError(
        'media_no_video',
        `media "${name}" has no video stream; use it as audio, or pick a video file`,
        about,
      );
    }
    const length = probe.videoDurationSeconds ?? probe.durationSeconds;
    if (length > 0 && options.sourceStartSeconds >= length) {
      throw new MediaError(
        'media_decode_failed',
        `video "${name}" is ${length.toFixed(2)} s long; its trim start ${options.sourceStartSeconds} s is past the end`,
        about,
      );
    }
    return new VideoFrameSource(options, probe);
  }

  /**
   * The picture for the n-th output frame of the element (n never decreases between calls). The
   * returned canvas is reused: it holds this frame until the next call. Calls are served in order.
   */
  frameAt(n: number): Promise<DrawableImage> {
    const next = this.#queue.then(() => this.#frameAt(n));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** The pixels of the frame last returned, when the source was opened with copyFrames. */
  frameCopy(): VideoFrameCopy | undefined {
    return this.#copy;
  }

  close(): void {
    this.#closed = true;
    void this.#stopRun();
  }

  async #frameAt(n: number): Promise<DrawableImage> {
    if (this.#closed) throw new Error(`video "${this.#name}" was closed`);
    if (!Number.isInteger(n) || n < 0)
      throw new RangeError(`frame index must be a whole number >= 0, got ${n}`);
    let target = Math.min(n, this.#lastFrame);
    if (!this.#options.loop) target = Math.min(target, this.#framesPerPass - 1);
    if (target < this.#index) {
      throw new RangeError(
        `video "${this.#name}": frames are read in order (asked for ${n} after ${this.#index})`,
      );
    }
    let fresh = false;
    const jump = target - this.#index > SEEK_INSTEAD_OF_DECODING_SECONDS * this.#options.fps;
    if (!this.#ended && (this.#run === undefined || jump)) await this.#startRunAt(target);
    while (this.#index < target && !this.#ended) {
      const run = this.#run!;
      const got = await (run.ahead ?? this.#readFrame(run)).catch(() => false);
      run.ahead = undefined;
      if (got) {
        this.#index++;
        fresh = true;
        continue;
      }
      if (this.#closed) throw new Error(`video "${this.#name}" was closed`);
      const exit = await this.#finishRun(run);
      if (
        run.spawnError ||
        (exit.code !== 0 && exit.code !== null) ||
        (run.framesRead === 0 && this.#index < 0)
      ) {
        throw this.#decodeError(run);
      }
      if (this.#options.loop && run.framesRead > 0) {
        this.#passStart = this.#index + 1;
        await this.#startRunAt(this.#passStart);
      } else {
        this.#ended = true;
      }
    }
    if (fresh) {
      this.#ctx.putImageData(this.#imageData, 0, 0);
      if (this.#options.copyFrames) {
        const version = (this.#copy?.version ?? 0) + 1;
        this.#copy = { version, width: this.width, height: this.height, pixels: this.#pixels.slice() };
      }
    }
    // The canvas now owns this frame, so the buffer is free: read the next one while the caller draws.
    const run = this.#run;
    if (run && !run.ahead && this.#index < this.#lastFrame) {
      run.ahead = this.#readFrame(run);
      run.ahead.catch(() => undefined);
    }
    return this.#canvas as unknown as DrawableImage;
  }

  get #name(): string {
    return this.#options.source ?? this.#options.path;
  }

  /** Starts decoding so that the next frame read is output frame `index`. */
  async #startRunAt(index: number): Promise<void> {
    await this.#stopRun();
    const { path, fps, rate, loop, sourceStartSeconds } = this.#options;
    const passes = this.#framesPerPass;
    const inPass =
      loop && Number.isFinite(passes) ? (index - this.#passStart) % passes : index - this.#passStart;
    const offset = (inPass * rate) / fps;
    const demuxer = demuxerName(this.probe.formatName);
    const args = ['-hide_banner', '-loglevel', 'error', '-nostdin', '-protocol_whitelist', INPUT_PROTOCOLS];
    const seek = sourceStartSeconds + offset;
    if (seek > 0) args.push('-ss', seek.toFixed(6));
    if (Number.isFinite(this.#segmentLength)) args.push('-t', (this.#segmentLength - offset).toFixed(6));
    if (demuxer) args.push('-f', demuxer);
    args.push('-i', `file:${path}`, '-map', '0:v:0', '-an', '-sn', '-dn');
    // Sampling the source at fps / rate in its own timeline applies the rate; round=up picks, for each
    // output instant, the source frame on screen then (pts <= t); start_time=0 repeats the first frame
    // when it starts a little late after a seek. Timestamps after that do not matter: frames are counted.
    const sampleRate = fps / rate;
    args.push(
      '-vf',
      `setpts=PTS-STARTPTS,fps=fps=${sampleRate}:start_time=0:round=up,scale=${this.width}:${this.height}`,
    );
    if (Number.isFinite(passes)) args.push('-frames:v', String(passes - inPass));
    args.push('-vsync', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1');
    const child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const run: DecodeRun = {
      child,
      chunks: child.stdout[Symbol.asyncIterator]() as AsyncIterator<Buffer>,
      pending: undefined,
      pendingOffset: 0,
      framesRead: 0,
      ahead: undefined,
      stderr: '',
      exited: new Promise((resolve) => {
        child.once('close', (code, signal) => resolve({ code, signal }));
        child.once('error', (error) => {
          run.spawnError = error;
          resolve({ code: null, signal: null });
        });
      }),
      spawnError: undefined,
    };
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => {
      run.stderr = (run.stderr + text).slice(-STDERR_TAIL_CHARS);
    });
    this.#run = run;
    this.#index = index - 1;
  }

  /** Reads exactly one frame of `run` into #pixels; false at the end of its output. */
  async #readFrame(run: DecodeRun): Promise<boolean> {
    const frameBytes = this.#pixelBytes.length;
    let filled = 0;
    while (filled < frameBytes) {
      if (run.pending === undefined || run.pendingOffset >= run.pending.length) {
        const next = await run.chunks.next();
        if (next.done) return false;
        run.pending = next.value;
        run.pendingOffset = 0;
      }
      const take = Math.min(frameBytes - filled, run.pending.length - run.pendingOffset);
      run.pending.copy(this.#pixelBytes, filled, run.pendingOffset, run.pendingOffset + take);
      run.pendingOffset += take;
      filled += take;
    }
    run.framesRead++;
    return true;
  }

  /** After the end of its output: lets ffmpeg exit on its own and reports how. */
  async #finishRun(run: DecodeRun): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.#run === run) this.#run = undefined;
    return run.exited;
  }

  /** Stops decoding now; resolves once nothing can write into the frame buffer any more. */
  async #stopRun(): Promise<void> {
    const run = this.#run;
    if (!run) return;
    this.#run = undefined;
    if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    run.child.stdout.destroy();
    await run.ahead?.catch(() => false);
    await run.exited;
  }

  #decodeError(run: DecodeRun): MediaError {
    const reason = run.spawnError?.message ?? run.stderr.trim().split('\n').at(-1) ?? 'no frames decoded';
    return new MediaError(
      'media_decode_failed',
      `video "${this.#name}" could not be decoded: ${reason || 'ffmpeg produced no frames'}`,
      { ...(this.#options.source === undefined ? {} : { source: this.#options.source }) },
    );
  }
}
