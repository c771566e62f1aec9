// A render worker process: takes one assignment over IPC, resolves the input, renders, verifies,
// reports progress and the result, then exits. It stops (and stops ffmpeg) when told to cancel
// or when its parent goes away.
import { readFile, realpath, rename, stat } from 'node:fs/promises';
import path from 'node:path';
import { specToCode } from '../../shared/builder/print.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import { parseSpec } from '../../shared/spec/validate.ts';
import { bindsTemplate } from '../../shared/spec/variables.ts';
import { describeError } from '../engine/describe-error.ts';
import { FORMAT_EXTENSIONS } from '../../shared/output/formats.ts';
import { projectContext } from '../engine/project-context.ts';
import { renderVideo } from '../engine/render-video.ts';
import type { RenderOptions, RenderProgress, RenderResult } from '../engine/render-video.ts';
import { chunkRanges, renderFramePlan } from '../engine/render-chunks.ts';
import { stitchVideo } from '../engine/stitch-video.ts';
import { buildRenderReceipt, subjectOf, writeReceipt } from '../engine/receipt.ts';
import type { ReceiptSubject } from '../engine/receipt.ts';
import { authorSpec } from '../authoring/author-spec.ts';
import { AuthoringError } from '../authoring/provider-errors.ts';
import type { VariableValues } from '../../shared/spec/variables.ts';
import { checkSpec, compositionSource, resolveKey } from '../project/resolve-input.ts';
import { KinoInputError } from '../project/input-error.ts';
import { loadProject } from '../project/load.ts';
import { completeFinding } from '../review/finding.ts';
import { qualityGate } from '../review/quality-gate.ts';
import { reviewComposition } from '../review/review-composition.ts';
import { elementPointer } from '../review/finding.ts';
import type { RenderProject } from '../project/load.ts';
import { compositionEntryKind } from '../../shared/project/config.ts';
import { CANCELED_ERROR } from './job-store.ts';
import type { JobError, JobProgress, OutputRequest, RenderInput } from './job-store.ts';
import type { FromWorker, RenderAssignment, SplitPlan, ToWorker, WorkerOutput } from './worker-messages.ts';

const abort = new AbortController();

function send(message: FromWorker): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) resolve();
    else process.send(message, undefined, {}, () => resolve());
  });
}

interface Resolved {
  model: VideoModel;
  project: RenderProject;
  spec: Record<string, unknown> | null;
  code: string | null;
  /** What the receipt says was rendered. */
  subject: ReceiptSubject;
  /** The composition file worker threads load a model with custom drawing from. */
  composition?: { path: string; variables?: VariableValues } | undefined;
}

/** The model as JSON spec data, when it is plain data (a composition with custom drawing is not). */
function specOf(model: VideoModel): VideoSpec | null {
  const result = parseSpec(JSON.parse(JSON.stringify(model)));
  return result.ok ? result.spec : null;
}

const asData = (spec: VideoSpec | null) => spec as Record<string, unknown> | null;

/** A prompt or an edit, authored into a spec by the assignment's provider, reported as it goes. */
async function authorAssignment(job: RenderAssignment, project: RenderProject): Promise<VideoSpec> {
  const input = job.input;
  if ((input.kind !== 'prompt' && input.kind !== 'edit') || !job.ai) {
    throw new KinoInputError('this render needs an AI provider, and none was assigned');
  }
  const stage = (name: 'authoring' | 'reviewing') =>
    void send({
      type: 'progress',
      progress: { stage: name, framesDone: 0, framesTotal: 0, percent: 0, etaSeconds: null },
    });
  try {
    const result = await authorSpec({
      request:
        input.kind === 'prompt'
          ? { kind: 'prompt', prompt: input.prompt }
          : { kind: 'edit', base: input.base as VideoSpec, change: input.change },
      provider: job.ai.provider,
      limits: job.ai.limits,
      project: await projectContext(project),
      aspect: job.options.aspect,
      format: job.options.format,
      signal: abort.signal,
      onStage: stage,
      onWarning: (message) => void send({ type: 'warning', message }),
    });
    await send({
      type: 'authoring',
      authoring: result.record as unknown as Record<string, unknown>,
      changes: result.changes ?? null,
    });
    return result.spec;
  } catch (error) {
    const record = error instanceof AuthoringError ? error.details?.authoring : undefined;
    if (record)
      await send({ type: 'authoring', authoring: record as Record<string, unknown>, changes: null });
    throw error;
  }
}

async function resolveAssignment(job: RenderAssignment): Promise<Resolved> {
  // A chunk or the stitch step of an authored render renders the spec the job already authored,
  // resolved as a spec sent as data is: it is never authored twice.
  const input: RenderInput = job.authored ? { kind: 'spec', spec: job.authored } : job.input;
  if (input.kind === 'prompt' || input.kind === 'edit') {
    const project = await loadProject(job.renderProject);
    const spec = await authorAssignment(job, project);
    return {
      model: spec,
      project,
      spec: spec as Record<string, unknown>,
      code: specToCode(spec),
      subject: { kind: 'spec', specText: JSON.stringify(spec) },
    };
  }
  if (input.kind === 'spec') {
    const result = checkSpec(input.spec, input.variables);
    if (!result.ok) throw new KinoInputError('invalid spec', { issues: result.issues });
    const project = await loadProject(job.renderProject);
    return {
      model: result.spec,
      project,
      // A template's spec as it renders: bound, without its declarations.
      spec: bindsTemplate(input.spec, input.variables) ? asData(result.spec) : input.spec,
      code: specToCode(result.spec),
      subject: { kind: 'spec', specText: JSON.stringify(input.spec) },
    };
  }
  const resolvedKey = await resolveKey(input.key, job.renderProject, input.variables);
  const { model, project, sourcePath } = resolvedKey;
  const spec = specOf(model);
  // A code composition's own source is its code; a registered JSON spec is printed as code.
  const isComposition = sourcePath !== undefined && compositionEntryKind(sourcePath) !== 'spec';
  const code = isComposition ? await readFile(sourcePath, 'utf8') : spec ? specToCode(spec) : null;
  return {
    model,
    project,
    spec: asData(spec),
    code,
    subject: subjectOf(resolvedKey),
    composition: compositionSource(resolvedKey),
  };
}

/**
 * Receipts name files relative to the render project, so they carry no server paths; a file outside
 * it (remote media in the cache) is named by its source alone.
 */
async function projectRelative(root: string): Promise<(file: string) => string | undefined> {
  const roots = [...new Set([root, await realpath(root).catch(() => root)])];
  return (file) => {
    for (const base of roots) {
      const relative = path.relative(base, file);
      if (relative && !relative.startsWith('..') && !path.isAbsolute(relative)) {
        return relative.split(path.sep).join('/');
      }
    }
    return undefined;
  };
}

/** Output `index` of `count`: its share of the bar, in order (frames are its own). */
function outputProgress(progress: JobProgress, index: number, count: number): JobProgress {
  if (count === 1) return progress;
  return { ...progress, percent: Math.round(((index * 100 + progress.percent) / count) * 10) / 10 };
}

/** Rendering takes the bulk of the bar; encoding, verifying and storing the rest. */
export function jobProgress(progress: RenderProgress): JobProgress {
  const { framesDone, framesTotal } = progress;
  const fraction = framesTotal > 0 ? framesDone / framesTotal : 0;
  const stage = progress.stage === 'preparing' ? 'rendering' : progress.stage;
  const percent = { rendering: 2 + 86 * fraction, encoding: 90, verifying: 95 }[stage];
  return {
    stage,
    framesDone,
    framesTotal,
    percent: Math.round(percent * 10) / 10,
    etaSeconds: progress.etaSeconds === undefined ? null : Math.round(progress.etaSeconds * 10) / 10,
  };
}

const ERROR_CODES: Record<string, string> = {
  KinoInputError: 'invalid_input',
  SpecValidationError: 'invalid_input',
  CompositionCompileError: 'compile_error',
  CompositionLoadError: 'composition_error',
  MediaError: 'media_error',
  VerificationError: 'verification_failed',
  FfmpegError: 'encoder_failed',
  PosterOutOfRange: 'poster_out_of_range',
  RenderChunkError: 'render_chunk_invalid',
};

/** What a request asked for, for the receipt: the input's kind and how it was named (no key). */
function requestedInput(input: RenderAssignment['input']): Record<string, unknown> {
  switch (input.kind) {
    case 'key':
      return { kind: 'key', key: input.key, ...(input.variables ? { variables: input.variables } : {}) };
    case 'spec':
      return { kind: 'spec', ...(input.variables ? { variables: input.variables } : {}) };
    case 'prompt':
      return { kind: 'prompt', prompt: input.prompt, provider: input.provider, model: input.model };
    case 'edit':
      return { kind: 'edit', change: input.change, provider: input.provider, model: input.model };
  }
}

/** A failure as the client sees it: a code, and a one-line message without server paths. */
function jobError(error: unknown, job: RenderAssignment): JobError {
  if (abort.signal.aborted) return CANCELED_ERROR;
  if (error instanceof JobFailure) return error.jobError;
  if (error instanceof AuthoringError) {
    const errors = error.details?.errors as JobError['errors'] | undefined;
    return { code: error.code, message: error.message, ...(errors ? { errors } : {}) };
  }
  const name = error instanceof Error ? error.name : '';
  let message = describeError(error)
    .replace(/^kino: /, '')
    .split('\n')
    .join(' ');
  for (const dir of [job.workDir, job.renderProject]) message = message.split(dir + path.sep).join('');
  return { code: ERROR_CODES[name] ?? 'render_failed', message };
}

/**
 * Authoring keeps one spec under MAX_RENDER_PIXELS at one aspect; several outputs of it must stay
 * under it together (a spec sent as data was checked so at submit).
 */
function assertOutputsAffordable(job: RenderAssignment, resolved: Resolved): void {
  const max = job.ai?.limits.maxRenderPixels;
  const outputs = job.options.outputs;
  if (!max || !outputs || outputs.length < 2) return;
  const total = outputs.reduce((sum, output) => {
    const video = resolveTimeline(resolved.model, output.aspect ? { aspect: output.aspect } : {});
    return sum + video.durationFrames * video.size.width * video.size.height;
  }, 0);
  if (total > max) {
    throw new JobFailure({
      code: 'render_too_large',
      message: `the ${outputs.length} outputs together are ${total} pixels to render, over this server's limit of ${max} (MAX_RENDER_PIXELS)`,
    });
  }
}

/** How many frames the job's review samples: as many as the workspace's full review. */
const JOB_REVIEW_FRAMES = 24;

/** A failure the worker reports with its own code (the quality gate). */
class JobFailure extends Error {
  readonly jobError: JobError;
  constructor(jobError: JobError) {
    super(jobError.message);
    this.jobError = jobError;
  }
}

/**
 * options.review / strictQuality: the workspace's checks on the resolved model, before rendering;
 * a strict job whose findings are not all allowed fails quality_gate and renders nothing.
 */
async function reviewAssignment(job: RenderAssignment, resolved: Resolved): Promise<void> {
  const { review, strictQuality, allowQuality } = job.options;
  if (!review && !strictQuality) return;
  await send({
    type: 'progress',
    progress: {
      stage: 'reviewing',
      framesDone: 0,
      framesTotal: JOB_REVIEW_FRAMES,
      percent: 0,
      etaSeconds: null,
    },
  });
  const result = await reviewComposition({
    model: resolved.model,
    project: await projectContext(resolved.project),
    aspect: job.options.aspect,
    samples: JOB_REVIEW_FRAMES,
    signal: abort.signal,
  });
  const allowed = new Set<string>(allowQuality ?? []);
  const findings = result.drafts.map((draft) =>
    completeFinding(draft, result.visual.video.fps, job.jobId, allowed),
  );
  const gate = qualityGate(findings, strictQuality === true);
  await send({ type: 'review', review: { findings, qualityGate: gate } });
  if (gate.strict && !gate.passed) {
    const open = findings.filter((finding) => !finding.allowed);
    const errors = open.flatMap((finding) => {
      const pointer = resolved.spec && finding.element ? elementPointer(finding.element) : undefined;
      return [
        { pointer: pointer ?? '', message: `${finding.code}: ${finding.message} Fix: ${finding.remedy}` },
      ];
    });
    throw new JobFailure({
      code: 'quality_gate',
      message: `strict quality: ${open.length} finding${open.length === 1 ? '' : 's'} not allowed (${gate.failing.join(', ')}); fix them or list their codes in options.allowQuality`,
      errors,
    });
  }
}

/**
 * Plan mode: the chunks to split the render into, when it is long enough and the queue offered
 * slots for at least two; each chunk has at least half of CHUNK_MIN_FRAMES.
 */
function splitPlan(job: RenderAssignment, resolved: Resolved): SplitPlan | undefined {
  const { mode } = job;
  if (mode.kind !== 'plan' || job.options.outputs) return undefined;
  const { frames } = renderFramePlan(resolved.model, job.options);
  if (frames <= mode.minFrames) return undefined;
  const count = Math.min(mode.maxChunks, Math.floor(frames / Math.max(1, Math.ceil(mode.minFrames / 2))));
  return count < 2 ? undefined : { framesTotal: frames, chunks: chunkRanges(frames, count) };
}

/** Chunk mode: frames [start, end) to a video-only chunk, and the poster if its frame is here. */
async function renderChunk(
  job: RenderAssignment,
  resolved: Resolved,
  mode: Extract<RenderAssignment['mode'], { kind: 'chunk' }>,
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
    signal: abort.signal,
    onProgress: (progress) => void send({ type: 'progress', progress: jobProgress(progress) }),
  });
  await send({
    type: 'chunk-done',
    path: videoPath,
    frames: result.frames,
    posterPath: result.poster?.path ?? null,
  });
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

/** The engine's options for one requested output (a poster written to `posterPath` when asked). */
function renderOptions(request: OutputRequest, posterPath: string | undefined): RenderOptions {
  return {
    format: request.format,
    quality: request.quality,
    aspect: request.aspect,
    poster: request.poster,
    posterPath,
    encoder: request.encoder,
  };
}

async function run(job: RenderAssignment): Promise<void> {
  let resolved: Resolved | undefined;
  try {
    resolved = await resolveAssignment(job);
    await send({ type: 'resolved', spec: resolved.spec, code: resolved.code });
    if (job.mode.kind === 'chunk') {
      await renderChunk(job, resolved, job.mode);
      return;
    }
    assertOutputsAffordable(job, resolved);
    // Reviewed once, before the render is split; the stitch step renders what was reviewed.
    if (job.mode.kind !== 'stitch') await reviewAssignment(job, resolved);
    const plan = splitPlan(job, resolved);
    if (plan) {
      await send({ type: 'split', plan });
      return;
    }
    const requests = job.options.outputs ?? [job.options];
    const outputs: WorkerOutput[] = [];
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
        const { chunkPaths, posterPath: chunkPoster } = job.mode;
        result = await stitchVideo({
          model: resolved.model,
          project,
          options,
          chunks: chunkPaths,
          outputPath: videoPath,
          poster: chunkPoster
            ? await stitchedPoster(chunkPoster, posterPath!, resolved.model, options)
            : undefined,
          signal: abort.signal,
          onProgress,
        });
      } else {
        result = await renderVideo({
          model: resolved.model,
          composition: resolved.composition,
          project,
          outputPath: videoPath,
          options,
          signal: abort.signal,
          onProgress,
        });
      }
      // Named as the client downloads them; the request as the job holds it (the spec is hashed).
      const receipt = await buildRenderReceipt({
        maker: 'api',
        subject: resolved.subject,
        request: {
          input: requestedInput(job.input),
          options: job.options,
          ...(job.options.outputs ? { output: index } : {}),
        },
        options,
        result,
        toolchain: job.toolchain,
        displayPath,
        outputName: `${job.jobId}${suffix}${extension}`,
        posterName: `${job.jobId}${suffix}.poster.png`,
      });
      const receiptPath = path.join(job.workDir, `receipt${suffix}.json`);
      await writeReceipt(receiptPath, receipt);
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
    await send({ type: 'done', outputs });
  } catch (error) {
    await send({ type: 'failed', error: jobError(error, job) });
  }
}

process.on('message', (message: ToWorker) => {
  if (message.type === 'cancel') abort.abort(new Error('render canceled'));
  else if (message.type === 'render') {
    void run(message).finally(() => process.disconnect?.());
  }
});
// The API process died or closed the channel: stop rendering (which stops ffmpeg) and leave.
process.on('disconnect', () => {
  abort.abort(new Error('the API process went away'));
  setTimeout(() => process.exit(0), 2000).unref();
});
