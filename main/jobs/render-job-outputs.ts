// The render itself (whole mode, or plan mode rendering whole, or the stitch step): each output the
// job asked for (options.outputs, else the one its options describe) rendered or stitched into the
// work folder in turn, verified, and given its receipt.
import path from 'node:path';
import { FORMAT_EXTENSIONS } from '../../shared/output/formats.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { projectContext } from '../engine/project-context.ts';
import { renderCostRefusal } from '../engine/request-checks.ts';
import { renderVideo } from '../engine/render-video.ts';
import type { RenderOptions, RenderProgress, RenderResult } from '../engine/render-video.ts';
import type { OutputRequest } from '../../shared/protocol/render-options.ts';
import { JobFailure } from './render-job-failure.ts';
import type { ResolvedInput } from './render-job-input.ts';
import type { RenderAssignment, RenderJobChannel, RenderJobOutput } from './render-job-messages.ts';
import { jobProgress, outputProgress } from './render-job-progress.ts';
import { projectRelative, writeOutputReceipt } from './render-job-receipt.ts';
import { stitchOutput } from './render-job-stitch.ts';

/** The engine's options for one requested output (a poster written to `posterPath` when asked). */
export function renderOptions(request: OutputRequest, posterPath: string | undefined): RenderOptions {
  return {
    format: request.format,
    quality: request.quality,
    aspect: request.aspect,
    poster: request.poster,
    posterPath,
    encoder: request.encoder,
  };
}

/**
 * Authoring keeps one spec under MAX_RENDER_PIXELS at one aspect; several outputs of it must stay
 * under it together (a spec sent as data was checked so at submit).
 */
export function assertOutputsAffordable(
  job: Pick<RenderAssignment, 'ai' | 'options'>,
  resolved: Pick<ResolvedInput, 'model'>,
): void {
  const max = job.ai?.limits.maxRenderPixels;
  const outputs = job.options.outputs;
  if (!max || !outputs || outputs.length < 2) return;
  const sizes = outputs.map((output) =>
    resolveTimeline(resolved.model, output.aspect ? { aspect: output.aspect } : {}),
  );
  const refusal = renderCostRefusal(sizes, max, '/options/outputs');
  if (refusal) throw new JobFailure({ code: refusal.code, message: refusal.message });
}

/** Every output of the job, in order: rendered whole, or stitched from chunks in stitch mode. */
export async function renderOutputs(
  job: RenderAssignment,
  resolved: ResolvedInput,
  { send, signal }: RenderJobChannel,
): Promise<RenderJobOutput[]> {
  const requests = job.options.outputs ?? [job.options];
  const outputs: RenderJobOutput[] = [];
  const project = await projectContext(resolved.project);
  const displayPath = await projectRelative(resolved.project.root);
  for (const [index, request] of requests.entries()) {
    // Output n > 0 is named with its index: video-1.mp4, rnd_…-1.mp4.
    const suffix = index === 0 ? '' : `-${index}`;
    const extension = FORMAT_EXTENSIONS[request.format];
    const videoPath = path.join(job.workDir, `video${suffix}${extension}`);
    const posterPath = request.poster ? path.join(job.workDir, `poster${suffix}.png`) : undefined;
    const options = renderOptions(request, posterPath);
    const onProgress = (progress: RenderProgress) =>
      void send({
        type: 'progress',
        progress: outputProgress(jobProgress(progress), index, requests.length),
      });
    let result: RenderResult;
    if (job.mode.kind === 'stitch') {
      result = await stitchOutput(job.mode, {
        model: resolved.model,
        project,
        options,
        outputPath: videoPath,
        posterPath,
        signal,
        onProgress,
      });
    } else {
      result = await renderVideo({
        model: resolved.model,
        composition: resolved.composition,
        project,
        outputPath: videoPath,
        options,
        signal,
        onProgress,
      });
    }
    const { receipt, receiptPath } = await writeOutputReceipt(job, resolved, displayPath, {
      index,
      suffix,
      extension,
      options,
      result,
    });
    outputs.push({
      videoPath,
      posterPath: result.poster?.path ?? null,
      width: result.width,
      height: result.height,
      durationSeconds: result.durationSeconds,
      sha256: result.output.sha256,
      bytes: result.output.bytes,
      receiptPath,
      receipt,
    });
  }
  return outputs;
}
