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
import { h264PixelFormat, outputGeometry } from '../encoder/formats.ts';
import { FORMAT_EXTENSIONS, formatHasAlpha, formatHasAudio } from '../../shared/output/formats.ts';
import type { OutputFormat, Quality } from '../../shared/output/formats.ts';
import type { EncoderSettings } from '../encoder/encoder-settings.ts';
import { writePoster } from '../encoder/poster.ts';
import { posterFrameFor } from './poster-frame.ts';
import { assertVerified, verifyOutput } from '../verify/verify.ts';
import type { ExpectedOutput, VerifiedOutput } from '../verify/verify.ts';
import { createDrawEnv, createSkiaSurface, readRgba } from './canvas-host.ts';
import { prepareFonts } from './fonts.ts';
import type { FontFileUse } from './fonts.ts';
import { planMedia } from '../../shared/timeline/media-plan.ts';
import { checkCaptions } from '../../shared/elements/captions-pages.ts';
import { checkCharts } from '../../shared/elements/chart-data.ts';
import { MediaSession } from './media-session.ts';
import { prepareCodeHighlighter } from './code-tokens.ts';
import type { MediaFileUse } from './media-session.ts';
import type { RenderProjectContext } from './project-context.ts';
import { rasterInParallel } from './raster-pool.ts';
import { rasterThreads } from './raster-threads.ts';
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

export async function renderVideo(request: RenderRequest): Promise<RenderResult> {
  const started = performance.now();
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
  // and decodes video clips once, in frame order, for them; it decodes no images.
  const pooled = threads.count > 1;
  const media = await MediaSession.open(
    planMedia(video),
    video.fps,
    request.project.media,
    signal,
    undefined,
    { decodeImages: !pooled, videoFrames: pooled ? 'relay' : 'decode' },
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
  let posterPixels: Buffer | undefined;

  const stagingPath = stagingPathFor(request.outputPath);
  const encoder = FrameEncoder.start({
    outputPath: stagingPath,
    format: options.format,
    quality: options.quality,
    width: video.size.width,
    height: video.size.height,
    fps: video.fps,
    totalFrames,
    audio,
    encoder: options.encoder,
    chunk: chunk !== undefined,
    signal,
  });
  const prepareMs = performance.now() - started;
  let drawMs = 0;
  let encodeWaitMs = 0;
  const loopStarted = performance.now();
  let lastReport = 0;
  const frameDone = (frame: number) => {
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
  const inFlight: Promise<void>[] = [];
  try {
    if (pooled) {
      const pool = await rasterInParallel(
        {
          threads: threads.count,
          source: threads.source,
          project: request.project,
          output: { aspect: options.aspect, format: options.format, quality: options.quality },
          width: video.size.width,
          height: video.size.height,
          first: firstFrame,
          signal,
          prepare: (frame) => media.relayFrame(frame),
        },
        totalFrames,
        async (frame, pixels) => {
          if (frame === posterFrame) posterPixels = Buffer.from(pixels);
          const writeStart = performance.now();
          await encoder.writeFrame(pixels);
          encodeWaitMs += performance.now() - writeStart;
          frameDone(frame);
        },
      );
      drawMs = pool.drawMs;
    } else {
      const surface = createSkiaSurface(video.size.width, video.size.height);
      const env = createDrawEnv(video.size, video.fps, media, undefined, code);
      for (let frame = firstFrame; frame < endFrame; frame++) {
        signal?.throwIfAborted();
        const drawStart = performance.now();
        await media.prepareFrame(frame);
        drawFrame(surface.ctx, video, frame, env);
        const pixels = readRgba(surface);
        if (frame === posterFrame) posterPixels = Buffer.from(pixels);
        const writeStart = performance.now();
        drawMs += writeStart - drawStart;
        // Keep a few frames in flight so the next frame is drawn while the pipe drains; each frame
        // is its own buffer, so this costs FRAMES_IN_FLIGHT frames of memory and no copies.
        inFlight.push(encoder.writeFrame(pixels));
        if (inFlight.length >= FRAMES_IN_FLIGHT) await inFlight.shift();
        encodeWaitMs += performance.now() - writeStart;
        frameDone(frame);
      }
      await Promise.all(inFlight);
    }
  } catch (error) {
    await Promise.allSettled(inFlight);
    // Awaited: the partial file is gone by the time the render fails (a canceled render leaves nothing).
    await encoder.abort();
    media.close();
    throw error;
  }
  media.close();
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

  let poster: RenderResult['poster'];
  if (posterPixels && options.posterPath && posterFrame !== undefined) {
    await writePoster(posterPixels, video.size.width, video.size.height, options.posterPath);
    poster = { path: options.posterPath, bytes: (await stat(options.posterPath)).size, frame: posterFrame };
  }

  onProgress?.({
    stage: 'verifying',
    framesDone: totalFrames,
    framesTotal: totalFrames,
    fps: 0,
    etaSeconds: 0,
  });
  const verifyStart = performance.now();
  const geometry = outputGeometry({
    format: options.format,
    quality: options.quality,
    ...video.size,
    fps: video.fps,
  });
  const output = await placeVerified(stagingPath, request.outputPath, {
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
  const verifyMs = performance.now() - verifyStart;
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
    inputs: [...media.filesUsed({ audio: plannedAudio !== undefined }), ...fonts],
    timings: {
      prepareMs,
      drawMs,
      encodeWaitMs,
      finishMs,
      verifyMs,
      totalMs: performance.now() - started,
    },
  };
}
