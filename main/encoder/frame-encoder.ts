// Streams raw frames (RGBA, or yuv420p converted by Kino) into one ffmpeg process. At most one frame is in flight, so memory stays
// flat however long the video; the file appears under its name only once ffmpeg has succeeded.
import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { ffmpegPath } from '../ffmpeg/binaries.ts';
import { spawnTool } from '../ffmpeg/run.ts';
import type { ToolProcess } from '../ffmpeg/run.ts';
import { completeAudioMixPlan } from './audio-mix.ts';
import type { AudioMixPlan } from './audio-mix.ts';
import type { EncoderSettings } from './encoder-settings.ts';
import { encoderArgs, outputGeometry, rawFrameBytes } from './encoder-args.ts';
import type { InputPixelFormat } from './encoder-args.ts';
import { FORMATS } from '../../shared/output/formats.ts';
import { encoderSettingsIssues } from '../../shared/output/encoder-settings.ts';
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';

export interface EncodeJob {
  outputPath: string;
  format: OutputFormat;
  quality: Quality;
  /** Size of the frames passed to writeFrame. */
  width: number;
  height: number;
  fps: number;
  totalFrames: number;
  /** Encode at another size than the frames' (ffmpeg scales, bicubic). Default: the frames' size. */
  outputWidth?: number | undefined;
  outputHeight?: number | undefined;
  audio?: AudioMixPlan | undefined;
  /** Settings over the quality preset's. */
  encoder?: EncoderSettings | undefined;
  /** A chunk of an mp4 render, to be stitched (see EncoderArgsInput.chunk): video only. */
  chunk?: boolean | undefined;
  /**
   * What writeFrame is given: straight (not premultiplied) RGBA, the default, or yuv420p planes
   * (only where yuv420pInputSupported allows: see inputPixelFormatFor).
   */
  inputPixelFormat?: InputPixelFormat | undefined;
  signal?: AbortSignal | undefined;
}

export interface EncodeResult {
  path: string;
  bytes: number;
  /** Wall time from start() until the file was in place. */
  encodeMs: number;
}

const EXIT_GRACE_MS = 5_000;

type State = 'open' | 'finishing' | 'done' | 'aborted' | 'failed';

export class OutputPathError extends Error {
  override name = 'OutputPathError';
}

/** A hidden sibling of the output: same directory (so the final rename is atomic), same extension. */
export function partialPathFor(outputPath: string): string {
  const ext = extname(outputPath);
  const name = basename(outputPath, ext);
  return join(dirname(outputPath), `.${name}.${randomBytes(4).toString('hex')}.partial${ext}`);
}

function describeFsError(error: NodeJS.ErrnoException, dir: string): string {
  switch (error.code) {
    case 'ENOENT':
      return `output directory ${dir} does not exist; create it first.`;
    case 'ENOTDIR':
      return `cannot write into ${dir}: it is not a directory.`;
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return `cannot write to output directory ${dir} (${error.code}); choose a writable location.`;
    default:
      return `cannot write to output directory ${dir}: ${error.message}`;
  }
}

function validateJob(job: EncodeJob): void {
  const positiveInt = (n: number) => Number.isInteger(n) && n > 0;
  if (!positiveInt(job.width) || !positiveInt(job.height)) {
    throw new Error(`frame size must be positive whole pixels, got ${job.width}×${job.height}.`);
  }
  if (!(job.fps > 0)) throw new Error(`fps must be positive, got ${job.fps}.`);
  if (!positiveInt(job.totalFrames))
    throw new Error(`totalFrames must be a positive whole number, got ${job.totalFrames}.`);
  const out = outputGeometry(job);
  if (job.format !== 'gif' && (out.width % 2 !== 0 || out.height % 2 !== 0)) {
    throw new Error(`${job.format} needs even dimensions, got ${out.width}×${out.height}.`);
  }
  // Callers check settings against the format first and say so in their own terms (a flag, a
  // JSON pointer); this stops any that did not from being silently ignored by ffmpeg.
  const refused = encoderSettingsIssues(job.format, job.encoder ?? {});
  if (refused.length > 0) throw new Error(refused.map((issue) => issue.message).join('; '));
  const expectedExt = FORMATS[job.format].extension;
  if (extname(job.outputPath).toLowerCase() !== expectedExt) {
    throw new OutputPathError(
      `${job.outputPath}: the ${job.format} format writes ${expectedExt} files; change the extension.`,
    );
  }
}

function asBuffer(frame: Uint8Array | Uint8ClampedArray): Buffer {
  return Buffer.isBuffer(frame) ? frame : Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
}

/** Resolves when the pipe has taken the chunk; a module-level function so no closure outlives it. */
function writeChunk(stream: NodeJS.WritableStream, bytes: Buffer): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    stream.write(bytes, (error) => (error ? reject(error) : resolve()));
  });
}

export class FrameEncoder {
  readonly job: EncodeJob;
  readonly partialPath: string;
  readonly #frameBytes: number;
  readonly #started = performance.now();
  readonly #ready: Promise<ToolProcess>;
  #process: ToolProcess | undefined;
  #state: State = 'open';
  #framesWritten = 0;
  #cleanup: Promise<void> | undefined;
  /** Why the encode failed: later calls throw it again rather than a vaguer state error. */
  #failure: unknown;

  private constructor(job: EncodeJob) {
    validateJob(job);
    this.job = job;
    this.partialPath = partialPathFor(job.outputPath);
    this.#frameBytes = rawFrameBytes(job.width, job.height, job.inputPixelFormat ?? 'rgba');
    this.#ready = this.#setup();
    // Failures surface from writeFrame/finish; this only keeps an unobserved one from crashing Node.
    this.#ready.catch(() => {});
    job.signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  readonly #onAbort = () => void this.abort();

  /** Checks the job and starts ffmpeg in the background; errors surface from writeFrame or finish. */
  static start(job: EncodeJob): FrameEncoder {
    return new FrameEncoder(job);
  }

  /** The ffmpeg process's id once it runs (what a render reads its CPU time by). */
  get pid(): number | undefined {
    return this.#process?.child.pid;
  }

  get framesWritten(): number {
    return this.#framesWritten;
  }

  async #setup(): Promise<ToolProcess> {
    const dir = dirname(this.job.outputPath);
    try {
      // Claiming the partial file proves the directory is writable before any process starts.
      await (await open(this.partialPath, 'wx')).close();
    } catch (error) {
      throw new OutputPathError(describeFsError(error as NodeJS.ErrnoException, dir), { cause: error });
    }
    try {
      const audio =
        this.job.audio && this.job.audio.tracks.length > 0
          ? await completeAudioMixPlan(this.job.audio, this.job.signal)
          : undefined;
      this.job.signal?.throwIfAborted();
      if (this.#state === 'aborted') throw new DOMException('encoding was aborted', 'AbortError');
      const args = encoderArgs({ ...this.job, audio, outputPath: this.partialPath });
      this.#process = spawnTool(ffmpegPath(), args, { stdin: 'pipe', signal: this.job.signal });
      return this.#process;
    } catch (error) {
      await unlink(this.partialPath).catch(() => {});
      throw error;
    }
  }

  /**
   * Hands one frame to ffmpeg. Resolves once the pipe has taken it, so the caller may then reuse
   * the buffer; awaiting each call is the backpressure.
   */
  async writeFrame(frame: Uint8Array | Uint8ClampedArray): Promise<void> {
    this.#throwUnlessOpen('write a frame');
    const bytes = asBuffer(frame);
    if (bytes.length !== this.#frameBytes) {
      throw new Error(
        `frame ${this.#framesWritten} has ${bytes.length} bytes; a ${this.job.width}×${this.job.height} ${this.job.inputPixelFormat ?? 'rgba'} frame has ${this.#frameBytes}.`,
      );
    }
    if (this.#framesWritten >= this.job.totalFrames) {
      throw new Error(`all ${this.job.totalFrames} frames were already written.`);
    }
    const proc = await this.#failOnError(this.#ready);
    const stdin = proc.stdin;
    if (!stdin) throw new Error('ffmpeg has no stdin pipe.');
    await this.#failOnError(Promise.race([writeChunk(stdin, bytes), this.#exitedEarly(proc)]));
    this.#framesWritten++;
  }

  #exitedEarlyPromise: Promise<never> | undefined;

  /**
   * One shared "ffmpeg quit" promise for all frames. A per-frame `proc.done.then(...)` closure
   * would stay registered until ffmpeg exits and keep every frame's pixels alive with it.
   */
  #exitedEarly(proc: ToolProcess): Promise<never> {
    this.#exitedEarlyPromise ??= proc.done.then(() => {
      throw new Error('ffmpeg exited before all frames were written.');
    });
    this.#exitedEarlyPromise.catch(() => {});
    return this.#exitedEarlyPromise;
  }

  /** Closes the input, waits for ffmpeg and moves the file into place. */
  async finish(): Promise<EncodeResult> {
    this.#throwUnlessOpen('finish');
    const proc = await this.#failOnError(this.#ready);
    if (this.#framesWritten !== this.job.totalFrames) {
      await this.abort();
      throw new Error(
        `only ${this.#framesWritten} of ${this.job.totalFrames} frames were written; nothing was saved.`,
      );
    }
    this.#state = 'finishing';
    proc.stdin?.end();
    await this.#failOnError(proc.done);
    this.job.signal?.throwIfAborted();
    await rename(this.partialPath, this.job.outputPath);
    this.#state = 'done';
    this.job.signal?.removeEventListener('abort', this.#onAbort);
    const { size } = await stat(this.job.outputPath);
    return { path: this.job.outputPath, bytes: size, encodeMs: performance.now() - this.#started };
  }

  #throwUnlessOpen(action: string): void {
    if (this.#state === 'open') return;
    if (this.#state === 'failed') throw this.#failure;
    throw new Error(`cannot ${action}: the encoder is ${this.#state}.`);
  }

  /** Stops ffmpeg and deletes the partial file. Safe to call at any time, any number of times. */
  abort(): Promise<void> {
    if (this.#state === 'done') return Promise.resolve();
    if (this.#state !== 'failed') this.#state = 'aborted';
    this.#cleanup ??= this.#removePartial();
    return this.#cleanup;
  }

  async #removePartial(): Promise<void> {
    this.job.signal?.removeEventListener('abort', this.#onAbort);
    const proc = await this.#ready.catch(() => undefined);
    if (proc) {
      proc.kill();
      await proc.done.catch(() => {});
    }
    await unlink(this.partialPath).catch(() => {});
  }

  /** Awaits a step; on failure removes the partial file and rethrows ffmpeg's own error when it has one. */
  async #failOnError<T>(step: Promise<T>): Promise<T> {
    try {
      return await step;
    } catch (error) {
      const wasAborted = this.#state === 'aborted' || this.job.signal?.aborted === true;
      if (!wasAborted) this.#state = 'failed';
      const proc = this.#process;
      let reason = error;
      if (proc && !wasAborted) {
        // An EPIPE on stdin says little; the exit status and stderr tail say why. ffmpeg that closed
        // its input is usually exiting already, so it gets a moment before it is killed.
        const timer = setTimeout(() => proc.kill(), EXIT_GRACE_MS);
        reason = await proc.done.then(
          () => error,
          (ffmpegError: unknown) => ffmpegError,
        );
        clearTimeout(timer);
      }
      if (!wasAborted) this.#failure = reason;
      this.#cleanup ??= this.#removePartial();
      await this.#cleanup;
      if (this.job.signal?.aborted) throw this.job.signal.reason;
      if (wasAborted) throw new DOMException('encoding was aborted', 'AbortError');
      throw reason;
    }
  }
}
