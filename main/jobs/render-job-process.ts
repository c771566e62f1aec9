// The render job process: the child that renders one job. It takes one assignment over IPC, resolves
// the input, then runs the steps its mode asks for (each in its own module), reports progress and
// the result, and exits. It stops (and stops ffmpeg) when told to cancel or when its parent goes away.
//
//   resolve (render-job-input.ts; a prompt or an edit authored by render-job-authoring.ts)
//   chunk mode: render-job-chunk.ts
//   otherwise: the outputs' size (render-job-outputs.ts), the quality gate (render-job-review.ts,
//   not in the stitch step), the split plan (render-job-split.ts, plan mode), then every output
//   rendered or stitched (render-job-outputs.ts, render-job-stitch.ts) with its receipt
//   (render-job-receipt.ts)
import path from 'node:path';
import { AuthoringError } from '../authoring/provider-errors.ts';
import { describeError } from '../engine/describe-error.ts';
import { failureOf } from '../engine/failures.ts';
import { CANCELED_ERROR } from './job-store.ts';
import type { JobError } from './job-store.ts';
import { JobFailure } from './render-job-failure.ts';
import { resolveAssignment } from './render-job-input.ts';
import type {
  FromRenderJob,
  RenderAssignment,
  RenderJobChannel,
  ToRenderJob,
} from './render-job-messages.ts';
import { renderChunk } from './render-job-chunk.ts';
import { assertOutputsAffordable, renderOutputs } from './render-job-outputs.ts';
import { reviewAssignment } from './render-job-review.ts';
import { splitPlan } from './render-job-split.ts';

const abort = new AbortController();

function send(message: FromRenderJob): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send || !process.connected) resolve();
    else process.send(message, undefined, {}, () => resolve());
  });
}

const channel: RenderJobChannel = { send, signal: abort.signal };

/** A failure as the client sees it: a code, and a one-line message without server paths. */
function jobError(error: unknown, job: RenderAssignment): JobError {
  if (abort.signal.aborted) return CANCELED_ERROR;
  if (error instanceof JobFailure) return error.jobError;
  if (error instanceof AuthoringError) {
    const errors = error.details?.errors as JobError['errors'] | undefined;
    return { code: error.code, message: error.message, ...(errors ? { errors } : {}) };
  }
  let message = describeError(error)
    .replace(/^kino: /, '')
    .split('\n')
    .join(' ');
  for (const dir of [job.workDir, job.renderProject]) message = message.split(dir + path.sep).join('');
  return { code: failureOf(error)?.code ?? 'render_failed', message };
}

async function run(job: RenderAssignment): Promise<void> {
  try {
    const resolved = await resolveAssignment(job, channel);
    await send({ type: 'resolved', spec: resolved.spec, code: resolved.code });
    if (job.mode.kind === 'chunk') {
      await renderChunk(job, resolved, job.mode, channel);
      return;
    }
    assertOutputsAffordable(job, resolved);
    // Reviewed once, before the render is split; the stitch step renders what was reviewed.
    if (job.mode.kind !== 'stitch') await reviewAssignment(job, resolved, channel);
    const plan = splitPlan(job, resolved);
    if (plan) {
      await send({ type: 'split', plan });
      return;
    }
    const outputs = await renderOutputs(job, resolved, channel);
    await send({ type: 'done', outputs });
  } catch (error) {
    await send({ type: 'failed', error: jobError(error, job) });
  }
}

process.on('message', (message: ToRenderJob) => {
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
