// A render's progress as the job reports it: one bar over rendering, encoding and verifying, shared
// out between the outputs of a job that asked for several.
import type { RenderProgress } from '../engine/render-video.ts';
import type { JobProgress } from './job-store.ts';

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

/** Output `index` of `count`: its share of the bar, in order (frames are its own). */
export function outputProgress(progress: JobProgress, index: number, count: number): JobProgress {
  if (count === 1) return progress;
  return { ...progress, percent: Math.round(((index * 100 + progress.percent) / count) * 10) / 10 };
}
