// Joins the chunks of an mp4 render (renderVideo with options.chunk) into the file a single render
// makes: the H.264 chunks are concatenated by stream copy, the soundtrack is mixed once for the
// whole length with the same filter graph and AAC settings as a single render, and the result is
// verified by ffprobe like any render. The result has the shape of renderVideo's, so the caller
// writes the same receipt.
//
// Timestamps. Each chunk is an mp4 whose video track counts in 1/(fps·2^k) (the mp4 muxer's
// timescale for a 1/fps stream), with an edit list hiding the B-frame delay, so its frames are
// at 0, 1, 2 … frames exactly. The concat demuxer places each file after the previous one by the
// previous file's duration in microseconds; read from the file, that is the mp4 header's duration,
// rounded up to whole milliseconds (7 frames at 30 fps: 0.234 s, not 0.2333…), and every later
// frame drifts a tick or more from a single render's. So the list states each chunk's duration:
// the difference of its boundaries' times, each rounded to the microsecond once, so the offsets
// never accumulate rounding and each lands within a microsecond of frames/fps, far under half a
// tick (≥ 32 µs up to 120 fps), and the copied packets get exactly a single render's timestamps.
// Measured with ffmpeg 5.1 (and 4.1): pts lists, frame counts and durations equal a single
// render's with B-frames (x264's presets), with 1-frame chunks and with chunks of any length.
// Joining raw H.264 or MPEG-TS chunks instead would lose the mp4 timescale or need a rescale, and
// turning B-frames off would change the encoder settings from a single render's.
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { VideoModel } from '../../shared/spec/model.ts';
import { planMedia } from '../../shared/timeline/media-plan.ts';
import { audioMixIsAudible, completeAudioMixPlan, dropSoundlessTracks } from '../encoder/audio-mix.ts';
import { h264PixelFormat, outputGeometry, stitchArgs } from '../encoder/encoder-args.ts';
import { ffmpegPath, ffprobePath } from '../ffmpeg/binaries.ts';
import { runTool } from '../ffmpeg/run.ts';
import { prepareFonts } from './fonts.ts';
import { MediaSession } from './media-session.ts';
import { resolveForOutput } from './output-video.ts';
import type { RenderProjectContext } from './project-context.ts';
import { assertChunkedFormat, RenderChunkError, renderFramePlan } from './render-chunks.ts';
import {
  assertOutputExtension,
  audioPlan,
  placeVerified,
  renderedAspect,
  stagingPathFor,
} from './render-video.ts';
import type { RenderOptions, RenderProgress, RenderResult } from './render-video.ts';

export interface StitchRequest {
  model: VideoModel;
  project: RenderProjectContext;
  /** The options every chunk was rendered with, without `chunk`. */
  options: RenderOptions;
  /** The chunk files in frame order: together every frame of the render, each once. */
  chunks: readonly string[];
  outputPath: string;
  /** The poster the chunk holding the poster frame wrote (its RenderResult.poster), for the result. */
  poster?: RenderResult['poster'] | undefined;
  signal?: AbortSignal | undefined;
  onProgress?: ((progress: RenderProgress) => void) | undefined;
}

interface ChunkStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  pix_fmt?: string;
  time_base?: string;
  nb_frames?: string;
  extradata_hash?: string;
}

/** What a chunk must agree on with the others to be joined by stream copy. */
interface ChunkFacts {
  frames: number;
  timeBase: string;
  extradata: string;
}

/** A chunk file as given: a regular file, named in full, not given twice, not the output. */
async function checkedChunkPaths(chunks: readonly string[], outputPath: string): Promise<string[]> {
  if (chunks.length === 0) throw new RenderChunkError('no chunks to stitch');
  const seen = new Set<string>();
  const output = resolve(outputPath);
  return Promise.all(
    chunks.map(async (chunk, index) => {
      const path = resolve(chunk);
      // The concat list is line based: a line break in a path could add a directive of its own.
      if (/[\r\n\0]/.test(path)) {
        throw new RenderChunkError(`chunk ${index} (${JSON.stringify(chunk)}): a line break in a path`);
      }
      if (path === output) throw new RenderChunkError(`chunk ${index} is the output file ${chunk}`);
      const info = await stat(path).catch((error: NodeJS.ErrnoException) => {
        throw new RenderChunkError(
          `chunk ${index} (${chunk}) cannot be read: ${error.code ?? error.message}`,
        );
      });
      if (!info.isFile()) throw new RenderChunkError(`chunk ${index} (${chunk}) is not a file`);
      const identity = `${info.dev}:${info.ino}`;
      if (seen.has(identity)) throw new RenderChunkError(`chunk ${index} (${chunk}) was given twice`);
      seen.add(identity);
      return path;
    }),
  );
}

/** Probes a chunk: one H.264 stream of the render's size and pixel format, no sound. */
async function chunkFacts(
  path: string,
  index: number,
  expected: { width: number; height: number; pixelFormat: string },
  signal: AbortSignal | undefined,
): Promise<ChunkFacts> {
  const { stdout } = await runTool(
    ffprobePath(),
    [
      '-v',
      'error',
      '-print_format',
      'json',
      '-show_data_hash',
      'sha256',
      '-show_entries',
      'stream=codec_type,codec_name,width,height,pix_fmt,time_base,nb_frames,extradata_hash',
      '-protocol_whitelist',
      'file',
      `file:${path}`,
    ],
    { captureStdout: true, signal },
  );
  const streams = (JSON.parse(stdout) as { streams?: ChunkStream[] }).streams ?? [];
  const video = streams[0];
  const about = `chunk ${index} (${path})`;
  if (streams.length !== 1 || video?.codec_type !== 'video' || video.codec_name !== 'h264') {
    throw new RenderChunkError(
      `${about} is not a chunk of an mp4 render: it must hold one H.264 stream and no other (it has ${streams.map((s) => `${s.codec_type ?? '?'} ${s.codec_name ?? '?'}`).join(', ') || 'none'})`,
    );
  }
  const pixelFormat = video.pix_fmt ?? 'unknown';
  if (
    video.width !== expected.width ||
    video.height !== expected.height ||
    pixelFormat !== expected.pixelFormat
  ) {
    throw new RenderChunkError(
      `${about} is ${video.width}×${video.height} ${pixelFormat}; the render is ${expected.width}×${expected.height} ${expected.pixelFormat}: was it rendered with other options?`,
    );
  }
  const frames = Number(video.nb_frames);
  if (!Number.isSafeInteger(frames) || frames < 1) throw new RenderChunkError(`${about} holds no frames`);
  return { frames, timeBase: video.time_base ?? '?', extradata: video.extradata_hash ?? '?' };
}

/** A concat list entry's quoting: inside single quotes everything is literal but the quote itself. */
function quoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** Microseconds from the start to frame `frame`, rounded once (see the note on timestamps). */
function microsecondsAt(frame: number, fps: number): number {
  return Math.floor((2 * frame * 1_000_000 + fps) / (2 * fps));
}

function seconds(microseconds: number): string {
  return `${Math.floor(microseconds / 1_000_000)}.${String(microseconds % 1_000_000).padStart(6, '0')}`;
}

/** The ffconcat list: every chunk by its absolute path, through the file protocol, with its duration. */
export function concatList(chunks: readonly { path: string; frames: number }[], fps: number): string {
  const lines = ['ffconcat version 1.0'];
  let frame = 0;
  for (const chunk of chunks) {
    const start = microsecondsAt(frame, fps);
    frame += chunk.frames;
    lines.push(
      `file ${quoted(`file:${chunk.path}`)}`,
      `duration ${seconds(microsecondsAt(frame, fps) - start)}`,
    );
  }
  return lines.join('\n') + '\n';
}

/**
 * Joins the chunks of an mp4 render into `outputPath`, with the soundtrack mixed once, and verifies
 * it as a single render of the same options would be verified (frames, rate, size, pixel format,
 * sound when the timeline sounds).
 */
export async function stitchVideo(request: StitchRequest): Promise<RenderResult> {
  const started = performance.now();
  const { options, signal, onProgress } = request;
  assertChunkedFormat(options.format);
  if (options.chunk)
    throw new RenderChunkError('stitching takes the options of the whole render, not a chunk');
  assertOutputExtension(request.outputPath, options.format);
  const chunkPaths = await checkedChunkPaths(request.chunks, request.outputPath);

  const plan = renderFramePlan(request.model, options);
  const frames = plan.frames;
  const video = resolveForOutput(request.model, options);
  const durationSeconds = frames / video.fps;
  if (request.poster && request.poster.frame !== plan.posterFrame) {
    throw new RenderChunkError(
      `the poster given shows frame ${request.poster.frame}; the render's poster is ${plan.posterFrame === undefined ? 'not asked for' : `frame ${plan.posterFrame}`}`,
    );
  }
  onProgress?.({ stage: 'preparing', framesDone: 0, framesTotal: frames, fps: 0, etaSeconds: undefined });

  const geometry = outputGeometry({
    format: options.format,
    quality: options.quality,
    ...video.size,
    fps: video.fps,
  });
  const pixelFormat = h264PixelFormat(options.encoder);
  const facts = await Promise.all(
    chunkPaths.map((path, index) => chunkFacts(path, index, { ...geometry, pixelFormat }, signal)),
  );
  facts.forEach((chunk, index) => {
    // Stream copy keeps the first chunk's decoder configuration (the mp4 avcC) for all of them.
    if (chunk.timeBase !== facts[0]!.timeBase || chunk.extradata !== facts[0]!.extradata) {
      throw new RenderChunkError(
        `chunk ${index} (${chunkPaths[index]}) was encoded with other settings than chunk 0 (its H.264 parameters or time base differ)`,
      );
    }
  });
  const held = facts.reduce((sum, chunk) => sum + chunk.frames, 0);
  if (held !== frames) {
    throw new RenderChunkError(
      `the ${facts.length} chunks hold ${held} frames (${facts.map((chunk) => chunk.frames).join(' + ')}); the render has ${frames}`,
    );
  }

  const fonts = await prepareFonts(request.model, request.project, signal);
  const media = await MediaSession.open(
    planMedia(video),
    video.fps,
    request.project.media,
    signal,
    undefined,
    {
      decodeImages: false,
    },
  );
  let inputs: RenderResult['inputs'];
  let audio: Awaited<ReturnType<typeof dropSoundlessTracks>> | undefined;
  try {
    const plannedAudio = audioPlan(video, media, durationSeconds);
    audio = plannedAudio && (await dropSoundlessTracks(plannedAudio, signal));
    inputs = [...media.filesUsed({ audio: plannedAudio !== undefined, videosBefore: frames }), ...fonts];
  } finally {
    media.close();
  }
  // As the frame encoder does before a single render's encode: every source gated, lengths known.
  const mix = audio && audio.tracks.length > 0 ? await completeAudioMixPlan(audio, signal) : undefined;
  const prepareMs = performance.now() - started;

  onProgress?.({ stage: 'encoding', framesDone: frames, framesTotal: frames, fps: 0, etaSeconds: undefined });
  const finishStart = performance.now();
  const work = await mkdtemp(join(tmpdir(), 'kino-stitch-'));
  const stagingPath = stagingPathFor(request.outputPath);
  try {
    const listPath = join(work, 'chunks.ffconcat');
    const list = concatList(
      chunkPaths.map((path, index) => ({ path, frames: facts[index]!.frames })),
      video.fps,
    );
    await writeFile(listPath, list, { flag: 'wx' });
    const args = stitchArgs({ listPath, audio: mix, encoder: options.encoder, outputPath: stagingPath });
    await runTool(ffmpegPath(), args, { signal });
  } catch (error) {
    await rm(stagingPath, { force: true });
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const finishMs = performance.now() - finishStart;

  onProgress?.({ stage: 'verifying', framesDone: frames, framesTotal: frames, fps: 0, etaSeconds: 0 });
  const verifyStart = performance.now();
  const output = await placeVerified(stagingPath, request.outputPath, {
    format: options.format,
    width: geometry.width,
    height: geometry.height,
    fps: geometry.fps,
    frames,
    alpha: false,
    audio: audio !== undefined && audioMixIsAudible(audio),
    pixelFormat,
  });
  const verifyMs = performance.now() - verifyStart;
  return {
    output,
    poster: request.poster,
    width: geometry.width,
    height: geometry.height,
    fps: geometry.fps,
    frames,
    framesTotal: video.durationFrames,
    aspect: renderedAspect(request.model, options),
    durationSeconds,
    inputs,
    drawing: { workers: 0, reason: 'joined from chunks drawn elsewhere', fromFrame: undefined },
    timings: {
      prepareMs,
      drawMs: 0,
      encodeWaitMs: 0,
      finishMs,
      verifyMs,
      totalMs: performance.now() - started,
    },
  };
}
