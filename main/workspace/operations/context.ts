// What every workspace operation gets from the worker: the mounted composition, its project and the
// places results go.
import { createHash } from 'node:crypto';
import type { VideoModel } from '../../../shared/spec/model.ts';
import type { RenderProjectContext } from '../../engine/project-context.ts';
import type { RenderProject } from '../../project/load.ts';
import type { OperationProgress, WorkspaceJob } from '../../../shared/protocol/workspace.ts';
import type { WarmSessions } from '../warm-sessions.ts';
import { WarmDrawing, warmDrawingKey } from './warm-drawing.ts';
import type { WarmDrawingKind } from './warm-drawing.ts';

export interface OperationContext {
  job: WorkspaceJob;
  /** The composition's entry file. */
  source: string;
  /** The local modules the entry imports, as loaded (for the receipt). */
  modules: string[];
  sourceRevision: string;
  model: VideoModel;
  /** A fresh model from a fresh compile and import (determinism evidence). */
  remount: () => Promise<VideoModel>;
  project: RenderProject;
  renderProject: RenderProjectContext;
  resultsDir: string;
  /** Aborted when the job is canceled (its client went away): stop, and leave nothing behind. */
  signal: AbortSignal;
  /** Reports how far the operation is (thinned out before it leaves the worker). */
  progress: (progress: OperationProgress) => void;
  /** The drawing sessions the worker keeps between frame and inspect requests. */
  sessions: WarmSessions<WarmDrawing>;
}

/**
 * Runs `work` on the worker's warm session for this job's revision, aspect and values (opened on
 * the mounted model when there is none).
 */
export function withWarmDrawing<R>(
  ctx: OperationContext,
  kind: WarmDrawingKind,
  work: (warm: WarmDrawing) => Promise<R>,
): Promise<R> {
  const { job } = ctx;
  return ctx.sessions.use(
    warmDrawingKey(kind, ctx.sourceRevision, job.aspect, job.variables),
    () =>
      WarmDrawing.open({
        kind,
        model: ctx.model,
        project: ctx.renderProject,
        aspect: job.aspect,
        signal: ctx.signal,
      }),
    work,
  );
}

/** The first 12 hex digits of the revision: enough to tell result files apart in a listing. */
export function revisionTag(sourceRevision: string): string {
  return sourceRevision.slice(0, 12);
}

/**
 * Results named for the revision, and for the template values when a job gives some: frames and
 * renders of the same revision with other values are other pictures, so they never share a name.
 */
export function resultTag(ctx: Pick<OperationContext, 'sourceRevision' | 'job'>): string {
  const tag = revisionTag(ctx.sourceRevision);
  const variables = ctx.job.variables;
  if (!variables || Object.keys(variables).length === 0) return tag;
  const sorted = Object.keys(variables)
    .sort()
    .map((name) => [name, variables[name]]);
  return `${tag}.v${createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 8)}`;
}

/** The aspect is in the name: the same frame at another aspect is another picture. */
export function frameFileName(frame: number, aspect?: string): string {
  return `frame-${String(frame).padStart(5, '0')}${aspect ? `.${aspect}` : ''}.png`;
}
