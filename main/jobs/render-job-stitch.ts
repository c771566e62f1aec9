// The stitch step of a split render: the chunk files joined by stream copy into the output, the
// soundtrack mixed once, and the poster the chunk holding its frame drew moved into place.
import { rename, stat } from 'node:fs/promises';
import type { VideoModel } from '../../shared/spec/model.ts';
import { renderFramePlan } from '../engine/render-chunks.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import type { RenderOptions, RenderProgress, RenderResult } from '../engine/render-video.ts';
import { stitchVideo } from '../engine/stitch-video.ts';
import type { RenderMode } from './render-job-messages.ts';

/** One output of the stitch step: where it goes and how it is encoded, as a whole render's would be. */
export interface StitchedOutput {
  model: VideoModel;
  project: RenderProjectContext;
  options: RenderOptions;
  outputPath: string;
  /** Where the output's poster goes: set when a poster was asked for. */
  posterPath: string | undefined;
  signal: AbortSignal;
  onProgress: (progress: RenderProgress) => void;
}

/** The poster a chunk drew (its frame lies in that chunk), moved to where the render's poster goes. */
async function stitchedPoster(
  chunkPoster: string,
  posterPath: string,
  model: VideoModel,
  options: RenderOptions,
): Promise<RenderResult['poster']> {
  const { posterFrame } = renderFramePlan(model, options);
  if (posterFrame === undefined) return undefined;
  await rename(chunkPoster, posterPath);
  return { path: posterPath, bytes: (await stat(posterPath)).size, frame: posterFrame };
}

/** Stitch mode: the chunks of `mode`, in order, joined into `output`. */
export async function stitchOutput(
  mode: Extract<RenderMode, { kind: 'stitch' }>,
  output: StitchedOutput,
): Promise<RenderResult> {
  const { chunkPaths, posterPath: chunkPoster } = mode;
  const { model, options, posterPath } = output;
  return await stitchVideo({
    model,
    project: output.project,
    options,
    chunks: chunkPaths,
    outputPath: output.outputPath,
    poster: chunkPoster ? await stitchedPoster(chunkPoster, posterPath!, model, options) : undefined,
    signal: output.signal,
    onProgress: output.onProgress,
  });
}
