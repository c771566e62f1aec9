// frame: one frame of the mounted composition to a PNG in the results folder.
import path from 'node:path';
import { DrawingSession } from '../../engine/drawing-session.ts';
import { writePngAtomically } from '../../engine/render-frame.ts';
import { WorkspaceError } from '../workspace-error.ts';
import { frameFileName, resultTag } from './context.ts';
import type { OperationContext } from './context.ts';
import type { CapturedFrame, FrameOperationResult } from '../../../shared/protocol/workspace.ts';

/**
 * Draws `index` on the session (which refuses a frame outside the timeline) and writes it to the
 * results folder, named by revision, frame and aspect.
 */
export async function captureFrame(
  ctx: OperationContext,
  session: DrawingSession,
  index: number,
): Promise<CapturedFrame> {
  await session.draw(index);
  const file = path.join(ctx.resultsDir, 'frames', resultTag(ctx), frameFileName(index, ctx.job.aspect));
  await writePngAtomically(file, await session.png());
  return { index, seconds: Number((index / session.video.fps).toFixed(3)), path: file };
}

export async function frameOperation(ctx: OperationContext): Promise<FrameOperationResult> {
  const index = ctx.job.frameIndex;
  if (index === undefined) throw new WorkspaceError(400, 'validation_failed', 'frame needs frameIndex');
  const session = await DrawingSession.open({
    model: ctx.model,
    project: ctx.renderProject,
    aspect: ctx.job.aspect,
    signal: ctx.signal,
  });
  try {
    const frame = await captureFrame(ctx, session, index);
    const { size, durationFrames } = session.video;
    return { frame: { ...frame, width: size.width, height: size.height }, framesTotal: durationFrames };
  } finally {
    session.close();
  }
}
