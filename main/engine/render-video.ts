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
import type { VerifiedOutput } from '../verify/verify.ts';
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
  /** The aspect rendered (the option, else the spec's, else reels); undefined for a custom size. */
  aspect: AspectName | undefined;
  durationSeconds: number;
  /** The media files the render read (audio only when the format carries it) and the font files. */
  inputs: RenderInputFile[];
  timings: RenderTimings;
}

function audioPlan(
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

export async function renderVideo(request: RenderRequest): Promise<RenderResult> {
  const started = performance.now();
  const { options, signal, onProgress } = request;
  const expectedExt = FORMAT_EXTENSIONS[options.format];
  if (extname(request.outputPath).toLowerCase() !== expectedExt) {
    throw new OutputExtensionError(
      `${request.outputPath}: the ${options.format} format writes ${expectedExt} files; change the extension.`,
    );
  }
  // Code is highlighted while fonts and media load (a rejection is kept for the await below, not left
  // unhandled).
  const highlighter = prepareCodeHighlighter(request.model);
  highlighter.catch(() => undefined);
  const fonts = await prepareFonts(request.model, request.project, signal);
  const video = resolveForOutput(request.model, options);
  const totalFrames = Math.max(1, Math.min(video.durationFrames, options.frames ?? video.durationFrames));
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
  const plannedAudio = formatHasAudio(options.format) ? audioPlan(video, media, durationSeconds) : undefined;
  const audio = plannedAudio && (await dropSoundlessTracks(plannedAudio, signal));
  const posterFrame =
    options.poster === undefined ? undefined : posterFrameFor(options.poster, video.fps, totalFrames);
  let posterPixels: Buffer | undefined;

  // The encode lands on a staging name and is renamed only once verified, so a failed or
  // mismatched render never leaves a file that looks finished.
  const ext = extname(request.outputPath);
  const stagingPath = join(
    dirname(request.outputPath),
    `.${basename(request.outputPath, ext)}.${randomBytes(4).toString('hex')}.verifying${ext}`,
  );
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
    signal,
  });
  const prepareMs = performance.now() - started;
  let drawMs = 0;
  let encodeWaitMs = 0;
  const loopStarted = performance.now();
  let lastReport = 0;
  const frameDone = (frame: number) => {
    const now = performance.now();
    if (!onProgress || (now - lastReport <= 200 && frame !== totalFrames - 1)) return;
    lastReport = now;
    const elapsed = (now - loopStarted) / 1000;
    const fps = (frame + 1) / Math.max(elapsed, 1e-3);
    onProgress({
      stage: 'rendering',
      framesDone: frame + 1,
      framesTotal: totalFrames,
      fps,
      etaSeconds: (totalFrames - frame - 1) / fps,
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
      for (let frame = 0; frame < totalFrames; frame++) {
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
  const verified = await verifyOutput(stagingPath, {
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
  }).catch(async (error: unknown) => {
    await rm(stagingPath, { force: true });
    throw error;
  });
  const output = { ...verified, path: request.outputPath };
  try {
    assertVerified(output);
    await rename(stagingPath, request.outputPath);
  } catch (error) {
    await rm(stagingPath, { force: true });
    throw error;
  }
  const verifyMs = performance.now() - verifyStart;
  const aspect = options.aspect ?? request.model.aspect ?? 'reels';
  return {
    output,
    poster,
    width: geometry.width,
    height: geometry.height,
    fps: geometry.fps,
    frames: totalFrames,
    framesTotal: video.durationFrames,
    aspect: typeof aspect === 'string' ? aspect : undefined,
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
