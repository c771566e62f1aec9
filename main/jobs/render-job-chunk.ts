// Rendering one chunk of a split render (chunk mode): frames [start, end) to a video-only file in
// the work folder, which the stitch step joins with the others.
import path from 'node:path';
import { renderFramePlan } from '../engine/render-chunks.ts';
import { projectContext } from '../engine/project-context.ts';
import { renderVideo } from '../engine/render-video.ts';
import type { ResolvedInput } from './render-job-input.ts';
import type { RenderAssignment, RenderJobChannel, RenderMode } from './render-job-messages.ts';
import { renderOptions } from './render-job-outputs.ts';
import { jobProgress } from './render-job-progress.ts';

/** Chunk mode: frames [start, end) to a video-only chunk, and the poster if its frame is here. */
export async function renderChunk(
  job: Pick<RenderAssignment, 'options' | 'workDir'>,
  resolved: Pick<ResolvedInput, 'model' | 'project' | 'composition'>,
  mode: Extract<RenderMode, { kind: 'chunk' }>,
  { send, signal }: RenderJobChannel,
): Promise<void> {
  const project = await projectContext(resolved.project);
  const { posterFrame } = renderFramePlan(resolved.model, job.options);
  const holdsPoster = posterFrame !== undefined && posterFrame >= mode.start && posterFrame < mode.end;
  const videoPath = path.join(job.workDir, `chunk-${mode.index}.mp4`);
  const posterPath = path.join(job.workDir, `chunk-${mode.index}.png`);
  const result = await renderVideo({
    model: resolved.model,
    composition: resolved.composition,
    project,
    outputPath: videoPath,
    options: {
      ...renderOptions(job.options, holdsPoster ? posterPath : undefined),
      chunk: { start: mode.start, end: mode.end },
    },
    signal,
    onProgress: (progress) => void send({ type: 'progress', progress: jobProgress(progress) }),
  });
  await send({
    type: 'chunk-done',
    path: videoPath,
    frames: result.frames,
    posterPath: result.poster?.path ?? null,
  });
}
