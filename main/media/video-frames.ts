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
import { runTool } from '../ffmpeg/run.ts';
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
/** How far before the picture wanted a seek starts decoding: past any reordering near a keyframe. */
const SEEK_MARGIN_SECONDS = 1;
/**
 * Demuxers that seek by an index to the keyframe before a time, so a seek that keeps every picture
 * from there (-noaccurate_seek) is sure to hold the one wanted. Others (MPEG-TS guesses byte
 * positions, and can land after it) are entered mid-pass by decoding from the pass start.
 */
const INDEXED_DEMUXERS = new Set(['mov', 'matroska']);
/**
 * A pass can give a frame or two fewer than #framesPerPass (its first picture comes a little after
 * the trim start, and the fps filter ends at the last picture's end): a looping source counts a
 * pass's real length before entering a later pass within this many frames of its nominal end.
 */
const PASS_END_SLACK_FRAMES = 8;

const DECODE_ARGS = [
  '-hide_banner',
  '-loglevel',
  'error',
  '-nostdin',
  '-protocol_whitelist',
  INPUT_PROTOCOLS,
];

interface PassOrigin {
  /** The first picture's timestamp, in timeBase. */
  pts: bigint;
  timeBase: { num: bigint; den: bigint };
}

/**
 * Seconds in a time base, rounded as ffmpeg rounds an input's -t for the trim filter it inserts
 * (av_rescale_q: to nearest, halves away from zero). `seconds` is written with 6 decimals, as -t is.
 */
function durationInTimeBase(seconds: number, timeBase: { num: bigint; den: bigint }): bigint {
  const micro = BigInt(Math.round(Number(seconds.toFixed(6)) * 1e6));
  const numerator = micro * timeBase.den;
  const denominator = 1_000_000n * timeBase.num;
  return (2n * numerator + denominator) / (2n * denominator);
}

/** Runs a pass's input for one picture and reads its timestamp and time base from showinfo. */
async function readPassOrigin(input: string[], name: string): Promise<PassOrigin> {
  const lines: string[] = [];
  const args = ['-hide_banner', '-loglevel', 'info', '-nostdin', '-protocol_whitelist', INPUT_PROTOCOLS];
  args.push('-copyts', ...input, '-vf', 'showinfo', '-frames:v', '1', '-f', 'null', '-');
  try {
    await runTool(ffmpegPath(), args, { onStderrLine: (line) => lines.push(line) });
  } catch (error) {
    throw new MediaError('media_decode_failed', `video "${name}" could not be decoded: ${String(error)}`);
  }
  const text = lines.join('\n');
  const timeBase = /config in time_base: (\d+)\/(\d+)/.exec(text);
  const pts = /\bn:\s*0\s+pts:\s*(-?\d+)/.exec(text);
  if (!timeBase || !pts || timeBase[1] === '0') {
    throw new MediaError(
      'media_decode_failed',
      `video "${name}" could not be decoded: no first picture to seek from`,
    );
  }
  return { pts: BigInt(pts[1]!), timeBase: { num: BigInt(timeBase[1]!), den: BigInt(timeBase[2]!) } };
}

interface DecodeRun {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** Output frames of the pass dropped before this run's first one (it was entered mid-pass). */
  skip: number;
  /** How many frames before its target this run was entered, after an entry past the pass's end. */
  back: number;
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
  #passOrigin: Promise<PassOrigin> | undefined;
  /** Output frames a pass gives, once known (see #loopPassFrames). */
  #passFrames: number | undefined;

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

  /**
   * Whether frameAt(n) would have to go back to an earlier picture than the last one read, which a
   * source cannot (it reads in order): a caller that jumps back opens the video again instead.
   */
  goesBack(n: number): boolean {
    return this.#target(n) < this.#index;
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
    const target = this.#target(n);
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
      if (run.framesRead === 0 && run.skip > 0) {
        // Entered past the pass's last picture (a pass can end a frame before #framesPerPass): enter
        // further back and read through, so the picture held (or the next pass) is a whole run's.
        const back = Math.max(1, run.back * 2);
        await this.#startRunAt(Math.max(this.#passStart, this.#index + 1 + run.back - back), back);
        continue;
      }
      if (run.framesRead > 0) this.#passFrames ??= run.skip + run.framesRead;
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

  /** The output frame that frameAt(n) shows: past the element's end, or a pass that does not loop, the last. */
  #target(n: number): number {
    const target = Math.min(n, this.#lastFrame);
    return this.#options.loop ? target : Math.min(target, this.#framesPerPass - 1);
  }

  get #name(): string {
    return this.#options.source ?? this.#options.path;
  }

  /**
   * Starts decoding so that the next frame read is output frame `index` (`back` frames before the
   * frame wanted, when an entry past the end of a pass is retried).
   */
  async #startRunAt(index: number, back = 0): Promise<void> {
    await this.#stopRun();
    let skip = index - this.#passStart;
    if (this.#options.loop && Number.isFinite(this.#framesPerPass)) {
      const nominal = this.#framesPerPass;
      skip %= skip > 0 && skip >= nominal - PASS_END_SLACK_FRAMES ? await this.#loopPassFrames() : nominal;
    }
    const args = await this.#runArgs(skip, ['-f', 'rawvideo', '-pix_fmt', 'rgba', 'pipe:1']);
    // Closed while the pass was measured: nothing would stop a run started now.
    if (this.#closed) throw new Error(`video "${this.#name}" was closed`);
    const child = spawn(ffmpegPath(), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const run: DecodeRun = {
      child,
      skip,
      back,
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

  /** The input of one pass: from the trim start, as long as the used part of the source. */
  #passInput(): string[] {
    const { path, sourceStartSeconds } = this.#options;
    const input: string[] = [];
    if (sourceStartSeconds > 0) input.push('-ss', sourceStartSeconds.toFixed(6));
    if (Number.isFinite(this.#segmentLength)) input.push('-t', this.#segmentLength.toFixed(6));
    const demuxer = demuxerName(this.probe.formatName);
    if (demuxer) input.push('-f', demuxer);
    input.push('-i', `file:${path}`, '-map', '0:v:0', '-an', '-sn', '-dn');
    return input;
  }

  /**
   * The command giving the pass's output frames from `skip` on, into `output`. From the pass start
   * when that is near (or the source cannot seek by an index), else by seeking (#seekFrom).
   */
  async #runArgs(skip: number, output: string[]): Promise<string[]> {
    const { fps, rate } = this.#options;
    const seek =
      (skip * rate) / fps > SEEK_INSTEAD_OF_DECODING_SECONDS &&
      INDEXED_DEMUXERS.has(demuxerName(this.probe.formatName) ?? '');
    const [input, timing] = seek ? await this.#seekFrom(skip) : [this.#passInput(), 'setpts=PTS-STARTPTS'];
    // Sampling the source at fps / rate in its own timeline applies the rate; round=up picks, for
    // each output instant, the source frame on screen then (pts <= t); start_time=0 repeats the first
    // frame when the source starts a little late. Frames before `skip` are dropped before they are
    // scaled and piped (decoding through to them gives exactly a whole pass's frames). Timestamps
    // after that do not matter: frames are counted.
    const sampled = `fps=fps=${fps / rate}:start_time=0:round=up`;
    const dropped = skip > 0 ? `,trim=start_frame=${skip}` : '';
    const filters = `${timing},${sampled}${dropped},scale=${this.width}:${this.height}`;
    const frames = Number.isFinite(this.#framesPerPass)
      ? ['-frames:v', String(this.#framesPerPass - skip)]
      : [];
    return [...DECODE_ARGS, ...input, '-vf', filters, ...frames, '-vsync', 'passthrough', ...output];
  }

  /**
   * Enters a pass `skip` output frames in by seeking the source, giving the very frames a run from
   * the pass start would (a render split into chunks draws each chunk's first frames as the whole
   * render does). A run from the pass start numbers timestamps from its first picture
   * (setpts=PTS-STARTPTS) and ends them `-t` after it (a trim filter ffmpeg inserts); a plain seek
   * would number them from another picture, and the fps filter's choices would shift. So the seek
   * keeps the source's own timestamps (-copyts), subtracts the pass origin's (read once, see
   * #origin) and trims the end at the same timestamp. Decoding starts at the keyframe before the
   * target less a margin, every picture from there kept (-noaccurate_seek), so the picture on screen
   * at the target and the ones after reach the fps filter, which then chooses as in the pass run;
   * pictures before the origin only reach output frames before `skip`, which are dropped.
   */
  async #seekFrom(skip: number): Promise<[string[], string]> {
    const { path, fps, rate, sourceStartSeconds } = this.#options;
    const origin = await this.#origin();
    const seek = Math.max(0, sourceStartSeconds + (skip * rate) / fps - SEEK_MARGIN_SECONDS);
    const input = ['-copyts', '-noaccurate_seek', '-ss', seek.toFixed(6)];
    input.push(
      '-f',
      demuxerName(this.probe.formatName)!,
      '-i',
      `file:${path}`,
      '-map',
      '0:v:0',
      '-an',
      '-sn',
      '-dn',
    );
    const end = Number.isFinite(this.#segmentLength)
      ? `,trim=end_pts=${durationInTimeBase(this.#segmentLength, origin.timeBase)}`
      : '';
    return [input, `setpts=PTS-${origin.pts}${end}`];
  }

  /**
   * How many output frames a pass of a looping source really gives: counted once, from a run
   * entered near its nominal end (further back if that finds none), unless a pass already ended.
   */
  async #loopPassFrames(): Promise<number> {
    let from = Math.max(0, this.#framesPerPass - PASS_END_SLACK_FRAMES);
    while (this.#passFrames === undefined) {
      const { stdout } = await runTool(ffmpegPath(), await this.#runArgs(from, ['-f', 'framecrc', '-']), {
        captureStdout: true,
      }).catch((error: unknown) => {
        throw new MediaError(
          'media_decode_failed',
          `video "${this.#name}" could not be decoded: ${String(error)}`,
        );
      });
      const count = stdout.split('\n').filter((line) => line !== '' && !line.startsWith('#')).length;
      if (count > 0 || from === 0) this.#passFrames = from + count;
      from = Math.max(0, 2 * from - this.#framesPerPass);
    }
    return this.#passFrames;
  }

  /**
   * The timestamp of a pass run's first picture in the source's own time base, and that time base:
   * what ffmpeg's seek to the trim start keeps first, read by running that seek for one picture.
   */
  #origin(): Promise<PassOrigin> {
    this.#passOrigin ??= readPassOrigin(this.#passInput(), this.#name);
    return this.#passOrigin;
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
