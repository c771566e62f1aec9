// The render pipeline: resolve → load media → draw each frame → encode → verify.
import { randomBytes } from 'node:crypto';
import { rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { drawFrame } from '../../shared/draw/frame.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import type { Time } from '../../shared/spec/time.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import { audioMixIsAudible, dropSoundlessTracks, mixTrack } from '../encoder/audio-mix.ts';
import type { AudioMixPlan } from '../encoder/audio-mix.ts';
import { FrameEncoder } from '../encoder/frame-encoder.ts';
import { h264PixelFormat, inputPixelFormatFor, outputGeometry } from '../encoder/encoder-args.ts';
import type { FrameGeometry } from '../encoder/encoder-args.ts';
import { FORMAT_EXTENSIONS, formatHasAlpha, formatHasAudio } from '../../shared/output/formats.ts';
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';
import type { EncoderSettings } from '../encoder/encoder-settings.ts';
import { writePoster } from '../encoder/poster.ts';
import { Yuv420pConverter } from '../encoder/yuv420p/yuv420p-kernel.ts';
import { yuv420pBytes } from '../encoder/yuv420p/yuv420p-reference.ts';
import { posterFrameFor } from './poster-frame.ts';
import { assertVerified, verifyOutput } from '../verify/verify.ts';
import type { ExpectedOutput, VerifiedOutput } from '../verify/verify.ts';
import { createDrawEnv, createSkiaSurface, readRgba } from './canvas-host.ts';
import { prepareFonts } from './fonts.ts';
import type { FontFileUse } from './fonts.ts';
import { planMedia } from '../../shared/timeline/media-plan.ts';
import { checkCaptions } from '../../shared/elements/captions/captions-pages.ts';
import { checkCharts } from '../../shared/elements/chart/chart-data.ts';
import { MediaSession } from './media-session.ts';
import { prepareCodeHighlighter } from './code-tokens.ts';
import type { MediaFileUse } from './media-session.ts';
import type { RenderProjectContext } from './project-context.ts';
import { cancellationPoint } from './cancellation-point.ts';
import { RasterPool } from './raster-pool.ts';
import type { RasterPoolOptions } from './raster-pool.ts';
import { rasterThreads } from './raster-threads.ts';
import { DrawCostProbe, PROBE_FRAMES, PROBE_WARM_UP_FRAMES, chooseRasterWorkers } from './threads-by-cost.ts';
import type { WorkerChoice } from './threads-by-cost.ts';
import type { RasterPlan } from './raster-threads.ts';
import { resolveForOutput } from './output-video.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import { assertChunkRange, assertChunkedFormat } from './render-chunks.ts';
import type { FrameRange } from './render-chunks.ts';

export interface RenderOptions {
  format: OutputFormat;
  quality: Quality;
  aspect?: AspectName | undefined;
  /** Writes a poster image of the frame at this time next to the video. */
  poster?: Time | undefined;
  posterPath?: string | undefined;
  /** Render only the first N frames (a quick preview of the start). */
  frames?: number | undefined;
  /**
   * Threads that rasterise frames: a number, or undefined for RENDER_THREADS, else the default for
   * this machine (see rasterThreads).
   */
  concurrency?: number | undefined;
  /** Encoder settings over the quality preset's. */
  encoder?: EncoderSettings | undefined;
  /**
   * Render only frames [start, end) of the timeline (of its first `frames` when set), as a chunk to
   * be joined with the others by stitchVideo: a video-only H.264 mp4 with closed GOPs and the
   * render's encoder settings. Frame numbers are the timeline's, so animation and video clips are
   * where a whole render has them. mp4 only. A poster is written only by the chunk holding its
   * frame (see renderFramePlan).
   */
  chunk?: FrameRange | undefined;
}

export type RenderStage = 'preparing' | 'rendering' | 'encoding' | 'verifying';

export interface RenderProgress {
  stage: RenderStage;
  framesDone: number;
  framesTotal: number;
  /** Frames per second so far, and the estimated seconds left. */
  fps: number;
  etaSeconds: number | undefined;
}

export interface RenderRequest {
  model: VideoModel;
  project: RenderProjectContext;
  outputPath: string;
  options: RenderOptions;
  /**
   * Where worker threads get the model when it holds functions (a composition's custom drawing);
   * without it such a model renders on one thread.
   */
  composition?: { path: string; variables?: VariableValues | undefined } | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: RenderProgress) => void) | undefined;
  /** How a render that chooses its threads by cost picks them (tests pin a choice). */
  chooseWorkers?: typeof chooseRasterWorkers | undefined;
}

export interface RenderTimings {
  prepareMs: number;
  drawMs: number;
  /** Time spent waiting for the encoder to take frames (backpressure). */
  encodeWaitMs: number;
  finishMs: number;
  verifyMs: number;
  totalMs: number;
}

/** A file the render read besides its spec or composition: media, and declared font files. */
export type RenderInputFile = MediaFileUse | FontFileUse;

export interface RenderResult {
  output: VerifiedOutput;
  /** The poster written, and the frame it shows. */
  poster: { path: string; bytes: number; frame: number } | undefined;
  /** The encoded size and rate (a GIF is capped smaller and slower than the drawn frames). */
  width: number;
  height: number;
  fps: number;
  frames: number;
  /** The timeline's length in frames (`frames` is fewer when only the first frames were asked for). */
  framesTotal: number;
  /** The frames this file holds, when it is a chunk (options.chunk); `frames` is their count. */
  chunk?: FrameRange | undefined;
  /** The aspect rendered (the option, else the spec's, else reels); undefined for a custom size. */
  aspect: AspectName | undefined;
  durationSeconds: number;
  /** The media files the render read (audio only when the format carries it) and the font files. */
  inputs: RenderInputFile[];
  timings: RenderTimings;
  /** Worker threads that drew frames (0: only the render's own thread), why, and from which frame. */
  drawing: { workers: number; reason: string; fromFrame: number | undefined };
}

/** The soundtrack of `video`, `durationSeconds` long, read from the files `media` resolved. */
export function audioPlan(
  video: ResolvedVideo,
  media: MediaSession,
  durationSeconds: number,
): AudioMixPlan | undefined {
  if (video.audio.length === 0) return undefined;
  return {
    durationSeconds,
    tracks: video.audio.map((audio) => mixTrack(audio, media.filePath(audio.track.src)!)),
  };
}

/** Frames handed to the encoder before the loop waits for the oldest to be taken. */
const FRAMES_IN_FLIGHT = 2;

export class OutputExtensionError extends Error {
  override name = 'OutputExtensionError';
}

export function assertOutputExtension(outputPath: string, format: OutputFormat): void {
  const expectedExt = FORMAT_EXTENSIONS[format];
  if (extname(outputPath).toLowerCase() !== expectedExt) {
    throw new OutputExtensionError(
      `${outputPath}: the ${format} format writes ${expectedExt} files; change the extension.`,
    );
  }
}

/**
 * Where an output is encoded before it is verified: a hidden sibling, renamed into place only once
 * verified, so a failed or mismatched render never leaves a file that looks finished.
 */
export function stagingPathFor(outputPath: string): string {
  const ext = extname(outputPath);
  return join(
    dirname(outputPath),
    `.${basename(outputPath, ext)}.${randomBytes(4).toString('hex')}.verifying${ext}`,
  );
}

/** Verifies the staged file and renames it to `outputPath`; on any failure the staged file is removed. */
export async function placeVerified(
  stagingPath: string,
  outputPath: string,
  expected: ExpectedOutput,
): Promise<VerifiedOutput> {
  const verified = await verifyOutput(stagingPath, expected).catch(async (error: unknown) => {
    await rm(stagingPath, { force: true });
    throw error;
  });
  const output = { ...verified, path: outputPath };
  try {
    assertVerified(output);
    await rename(stagingPath, outputPath);
  } catch (error) {
    await rm(stagingPath, { force: true });
    throw error;
  }
  return output;
}

/** The aspect a render names in its result: the option, else the spec's, else reels; undefined for a custom size. */
export function renderedAspect(model: VideoModel, options: RenderOptions): AspectName | undefined {
  const aspect = options.aspect ?? model.aspect ?? 'reels';
  return typeof aspect === 'string' ? aspect : undefined;
}

/** What a render works out before its first frame: the timeline, its files, the frames and how they are drawn. */
interface PreparedRender {
  video: ResolvedVideo;
  fonts: FontFileUse[];
  /** Resolves sources and plans audio; decodes images and video clips when this thread draws. */
  media: MediaSession;
  code: Awaited<ReturnType<typeof prepareCodeHighlighter>>;
  /** The timeline's frames this file holds: [firstFrame, endFrame), totalFrames of them. */
  firstFrame: number;
  totalFrames: number;
  endFrame: number;
  durationSeconds: number;
  threads: RasterPlan;
  /** Drawn on worker threads from the start (a forced count above 1), not on this one. */
  pooled: boolean;
  /** The soundtrack as planned (its files are inputs), and as encoded (soundless tracks dropped). */
  plannedAudio: AudioMixPlan | undefined;
  audio: AudioMixPlan | undefined;
  posterFrame: number | undefined;
}

/** What a draw loop tallies: time drawing, time waiting for the encoder, and the poster frame's pixels. */
interface DrawTally {
  drawMs: number;
  encodeWaitMs: number;
  posterPixels: Buffer | undefined;
  /** How many worker threads drew, and why. */
  choice: WorkerChoice;
  /** The first frame worker threads drew, if they drew any. */
  handedOverAt: number | undefined;
}

/** The 'preparing' stage: fonts, the timeline, media, code highlighting, the soundtrack and the poster frame. */
async function prepareRender(request: RenderRequest): Promise<PreparedRender> {
  const { options, signal, onProgress } = request;
  const { chunk } = options;
  if (chunk) assertChunkedFormat(options.format);
  assertOutputExtension(request.outputPath, options.format);
  // Code is highlighted while fonts and media load (a rejection is kept for the await below, not left
  // unhandled).
  const highlighter = prepareCodeHighlighter(request.model);
  highlighter.catch(() => undefined);
  const fonts = await prepareFonts(request.model, request.project, signal);
  const video = resolveForOutput(request.model, options);
  // The frames the render has (whole, or its first `frames`), and the run of them this file holds.
  const renderFrames = Math.max(1, Math.min(video.durationFrames, options.frames ?? video.durationFrames));
  if (chunk) assertChunkRange(chunk, renderFrames);
  const firstFrame = chunk?.start ?? 0;
  const totalFrames = chunk ? chunk.end - chunk.start : renderFrames;
  const endFrame = firstFrame + totalFrames;
  const durationSeconds = totalFrames / video.fps;
  onProgress?.({
    stage: 'preparing',
    framesDone: 0,
    framesTotal: totalFrames,
    fps: 0,
    etaSeconds: undefined,
  });

  const threads = rasterThreads(options.concurrency, { count: totalFrames, ...video.size }, request);
  // With worker threads the workers draw: this session resolves sources, checks files, plans audio
  // and decodes video clips once, in frame order, for them; it decodes no images. A render that
  // chooses by cost draws here first and may hand over later, so it does both.
  const pooled = !threads.byCost && threads.count > 1;
  const media = await MediaSession.open(
    planMedia(video),
    video.fps,
    request.project.media,
    signal,
    undefined,
    { decodeImages: !pooled, videoFrames: pooled || threads.byCost ? 'relay' : 'decode' },
  );
  const code = await highlighter;
  checkCaptions(video.model, (src) => media.captionText(src));
  checkCharts(video.model, (src) => media.dataText(src));
  // A chunk has no sound: the soundtrack is mixed once, over the whole length, when stitching.
  const plannedAudio =
    formatHasAudio(options.format) && !chunk ? audioPlan(video, media, durationSeconds) : undefined;
  const audio = plannedAudio && (await dropSoundlessTracks(plannedAudio, signal));
  // The poster frame is the render's (a chunk checks it against the whole render's frames); only the
  // chunk holding it keeps its pixels.
  const posterFrame =
    options.poster === undefined ? undefined : posterFrameFor(options.poster, video.fps, renderFrames);
  return {
    video,
    fonts,
    media,
    code,
    firstFrame,
    totalFrames,
    endFrame,
    durationSeconds,
    threads,
    pooled,
    plannedAudio,
    audio,
    posterFrame,
  };
}

/** Reports the 'rendering' stage after each frame, at most every 200 ms and at the last frame. */
function frameProgress(
  onProgress: RenderRequest['onProgress'],
  firstFrame: number,
  totalFrames: number,
): (frame: number) => void {
  const loopStarted = performance.now();
  let lastReport = 0;
  return (frame: number) => {
    const now = performance.now();
    const done = frame - firstFrame + 1;
    if (!onProgress || (now - lastReport <= 200 && done !== totalFrames)) return;
    lastReport = now;
    const elapsed = (now - loopStarted) / 1000;
    const fps = done / Math.max(elapsed, 1e-3);
    onProgress({
      stage: 'rendering',
      framesDone: done,
      framesTotal: totalFrames,
      fps,
      etaSeconds: (totalFrames - done) / fps,
    });
  };
}

/** The pool's options for this render: its model, output, frames and video pictures relayed from here. */
function poolOptions(
  request: RenderRequest,
  prepared: PreparedRender,
  encoder: FrameEncoder,
  threads: number,
): RasterPoolOptions {
  const { options, signal } = request;
  const { video, media, firstFrame, totalFrames, posterFrame } = prepared;
  return {
    threads,
    source: prepared.threads.source,
    project: request.project,
    output: { aspect: options.aspect, format: options.format, quality: options.quality },
    width: video.size.width,
    height: video.size.height,
    // The threads convert to what the encoder takes; the poster frame comes back in RGBA too.
    pixelFormat: encoder.job.inputPixelFormat,
    rgbaFrame: posterFrame,
    first: firstFrame,
    frames: totalFrames,
    signal,
    prepare: (frame) => media.relayFrame(frame),
  };
}

/** Frames `from`..end drawn on a started pool, handed to the encoder in order. */
async function drawOnPool(
  pool: RasterPool,
  from: number,
  prepared: PreparedRender,
  encoder: FrameEncoder,
  frameDone: (frame: number) => void,
  tally: DrawTally,
): Promise<void> {
  const { endFrame, posterFrame } = prepared;
  const drawn = await pool.drawRange(from, endFrame - from, async (frame, pixels, rgba) => {
    if (frame === posterFrame && rgba) tally.posterPixels = Buffer.from(rgba);
    const writeStart = performance.now();
    await encoder.writeFrame(pixels);
    tally.encodeWaitMs += performance.now() - writeStart;
    frameDone(frame);
  });
  tally.drawMs += drawn.drawMs;
}

/**
 * Draws frames one at a time on this thread, on one Skia surface, while the encoder takes the last
 * ones. `draw` returns the frame's drawing and encoder-wait milliseconds; `settle` waits for the
 * frames still in the pipe.
 */
function sequentialDrawer(
  signal: AbortSignal | undefined,
  prepared: PreparedRender,
  encoder: FrameEncoder,
  frameDone: (frame: number) => void,
  tally: DrawTally,
) {
  const { video, media, code, posterFrame } = prepared;
  const { width, height } = video.size;
  const surface = createSkiaSurface(width, height);
  const env = createDrawEnv(video.size, video.fps, media, undefined, code);
  const inFlight: Promise<void>[] = [];
  // yuv420p frames are converted into a ring of buffers, each reused once the pipe has taken it.
  const converter = encoder.job.inputPixelFormat === 'yuv420p' ? new Yuv420pConverter() : undefined;
  const yuvRing = converter
    ? Array.from({ length: FRAMES_IN_FLIGHT + 1 }, () => new Uint8Array(yuv420pBytes(width, height)))
    : [];
  return {
    async draw(frame: number): Promise<{ drawMs: number; waitMs: number }> {
      await cancellationPoint(signal);
      const drawStart = performance.now();
      await media.prepareFrame(frame);
      drawFrame(surface.ctx, video, frame, env);
      const pixels = readRgba(surface);
      if (frame === posterFrame) tally.posterPixels = Buffer.from(pixels);
      const written = converter
        ? converter.convert(pixels, width, height, yuvRing[frame % yuvRing.length]!)
        : pixels;
      const writeStart = performance.now();
      const drawMs = writeStart - drawStart;
      tally.drawMs += drawMs;
      // Keep a few frames in flight so the next frame is drawn while the pipe drains; each RGBA
      // frame is its own buffer and the yuv420p ring has one more than may be in flight, so this
      // costs FRAMES_IN_FLIGHT frames of memory and no copies.
      inFlight.push(encoder.writeFrame(written));
      if (inFlight.length >= FRAMES_IN_FLIGHT) await inFlight.shift();
      const waitMs = performance.now() - writeStart;
      tally.encodeWaitMs += waitMs;
      frameDone(frame);
      return { drawMs, waitMs };
    },
    async settle(): Promise<void> {
      await Promise.all(inFlight.splice(0));
    },
    async abandon(): Promise<void> {
      await Promise.allSettled(inFlight.splice(0));
    },
  };
}

/**
 * Draws on this thread. With threads chosen by cost it measures the first frames, then hands the
 * rest to worker threads when that pays (chooseRasterWorkers); until the threads are ready this
 * thread keeps drawing, and threads that fail to start leave it drawing to the end.
 */
async function drawFromThisThread(
  request: RenderRequest,
  prepared: PreparedRender,
  encoder: FrameEncoder,
  frameDone: (frame: number) => void,
  tally: DrawTally,
): Promise<void> {
  const { firstFrame, endFrame, threads } = prepared;
  const drawer = sequentialDrawer(request.signal, prepared, encoder, frameDone, tally);
  const probe = threads.byCost ? new DrawCostProbe(() => encoder.pid) : undefined;
  let pool: RasterPool | undefined;
  try {
    let frame = firstFrame;
    for (; frame < endFrame; frame++) {
      if (frame === firstFrame + PROBE_WARM_UP_FRAMES) probe?.begin();
      const cost = await drawer.draw(frame);
      if (!probe) continue;
      probe.frame(cost.drawMs, cost.waitMs);
      if (probe.frames === PROBE_FRAMES) {
        tally.choice = (request.chooseWorkers ?? chooseRasterWorkers)(probe.sample(), {
          cores: threads.cores,
          maxWorkers: threads.count,
          framesLeft: endFrame - frame - 1,
        });
        if (tally.choice.workers > 0) {
          pool = RasterPool.start(poolOptions(request, prepared, encoder, tally.choice.workers));
          pool.ready.catch(() => undefined);
        }
      }
      if (pool?.isReady) {
        frame++;
        break;
      }
    }
    if (pool?.isReady && frame < endFrame) {
      await drawer.settle();
      tally.handedOverAt = frame;
      await drawOnPool(pool, frame, prepared, encoder, frameDone, tally);
    }
    await drawer.settle();
  } catch (error) {
    await drawer.abandon();
    throw error;
  } finally {
    await pool?.close();
  }
}

/**
 * The 'rendering' stage: every frame drawn (on worker threads when the render has them) and handed
 * to the encoder. On a failure the encoder's partial file is removed before this throws.
 */
async function drawFrames(
  request: RenderRequest,
  prepared: PreparedRender,
  encoder: FrameEncoder,
): Promise<DrawTally> {
  const frameDone = frameProgress(request.onProgress, prepared.firstFrame, prepared.totalFrames);
  const { threads, pooled, firstFrame } = prepared;
  const tally: DrawTally = {
    drawMs: 0,
    encodeWaitMs: 0,
    posterPixels: undefined,
    choice: { workers: pooled ? threads.count : 0, reason: threads.reason },
    handedOverAt: pooled ? firstFrame : undefined,
  };
  let pool: RasterPool | undefined;
  try {
    if (pooled) {
      pool = RasterPool.start(poolOptions(request, prepared, encoder, threads.count));
      await drawOnPool(pool, firstFrame, prepared, encoder, frameDone, tally);
    } else {
      await drawFromThisThread(request, prepared, encoder, frameDone, tally);
    }
  } catch (error) {
    await pool?.close();
    // Awaited: the partial file is gone by the time the render fails (a canceled render leaves nothing).
    await encoder.abort();
    prepared.media.close();
    throw error;
  }
  await pool?.close();
  prepared.media.close();
  return tally;
}

/** The poster image, written when one was asked for and its frame was drawn here. */
async function writeRenderPoster(
  posterPixels: Buffer | undefined,
  prepared: PreparedRender,
  posterPath: string | undefined,
): Promise<RenderResult['poster']> {
  const { video, posterFrame } = prepared;
  if (!posterPixels || !posterPath || posterFrame === undefined) return undefined;
  await writePoster(posterPixels, video.size.width, video.size.height, posterPath);
  return { path: posterPath, bytes: (await stat(posterPath)).size, frame: posterFrame };
}

/** The 'verifying' stage: the staged file checked against what was asked for, then moved into place. */
async function verifyRender(
  options: RenderOptions,
  prepared: PreparedRender,
  stagingPath: string,
  outputPath: string,
): Promise<{ output: VerifiedOutput; geometry: FrameGeometry }> {
  const { video, totalFrames, durationSeconds, audio } = prepared;
  const geometry = outputGeometry({
    format: options.format,
    quality: options.quality,
    ...video.size,
    fps: video.fps,
  });
  const output = await placeVerified(stagingPath, outputPath, {
    format: options.format,
    width: geometry.width,
    height: geometry.height,
    fps: geometry.fps,
    // Frame-counted formats are checked by frames; the container duration includes audio padding.
    durationSeconds: options.format === 'gif' ? durationSeconds : undefined,
    frames: options.format === 'gif' ? undefined : totalFrames,
    alpha: formatHasAlpha(options.format),
    audio: audio !== undefined && audioMixIsAudible(audio),
    pixelFormat: options.format === 'mp4' ? h264PixelFormat(options.encoder) : undefined,
  });
  return { output, geometry };
}

/** The render pipeline: prepare, draw each frame into the encoder, finish encoding, write the poster, verify. */
export async function renderVideo(request: RenderRequest): Promise<RenderResult> {
  const started = performance.now();
  const { options, signal, onProgress } = request;
  const prepared = await prepareRender(request);
  const { video, media, totalFrames, durationSeconds } = prepared;

  const stagingPath = stagingPathFor(request.outputPath);
  const job = {
    outputPath: stagingPath,
    format: options.format,
    quality: options.quality,
    width: video.size.width,
    height: video.size.height,
    fps: video.fps,
    totalFrames,
    audio: prepared.audio,
    encoder: options.encoder,
    chunk: options.chunk !== undefined,
    signal,
  };
  // Frames go to ffmpeg as yuv420p, converted by the draw loop, wherever that is the same file.
  const encoder = FrameEncoder.start({ ...job, inputPixelFormat: inputPixelFormatFor(job) });
  const prepareMs = performance.now() - started;
  const drawn = await drawFrames(request, prepared, encoder);
  onProgress?.({
    stage: 'encoding',
    framesDone: totalFrames,
    framesTotal: totalFrames,
    fps: 0,
    etaSeconds: undefined,
  });
  const finishStart = performance.now();
  await encoder.finish();
  const finishMs = performance.now() - finishStart;

  const poster = await writeRenderPoster(drawn.posterPixels, prepared, options.posterPath);

  onProgress?.({
    stage: 'verifying',
    framesDone: totalFrames,
    framesTotal: totalFrames,
    fps: 0,
    etaSeconds: 0,
  });
  const verifyStart = performance.now();
  const { output, geometry } = await verifyRender(options, prepared, stagingPath, request.outputPath);
  const verifyMs = performance.now() - verifyStart;
  const { chunk } = options;
  return {
    output,
    poster,
    width: geometry.width,
    height: geometry.height,
    fps: geometry.fps,
    frames: totalFrames,
    framesTotal: video.durationFrames,
    ...(chunk ? { chunk: { start: chunk.start, end: chunk.end } } : {}),
    aspect: renderedAspect(request.model, options),
    durationSeconds,
    inputs: [...media.filesUsed({ audio: prepared.plannedAudio !== undefined }), ...prepared.fonts],
    drawing: {
      workers: drawn.handedOverAt === undefined ? 0 : drawn.choice.workers,
      reason: drawn.choice.reason,
      fromFrame: drawn.handedOverAt,
    },
    timings: {
      prepareMs,
      drawMs: drawn.drawMs,
      encodeWaitMs: drawn.encodeWaitMs,
      finishMs,
      verifyMs,
      totalMs: performance.now() - started,
    },
  };
}
