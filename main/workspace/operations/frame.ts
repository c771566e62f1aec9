// frame: one frame of the mounted composition to a PNG in the results folder, drawn on the session
// the worker keeps warm for it (fonts, media and video decoders opened once, not per request).
import path from 'node:path';
import type { DrawingSession } from '../../engine/drawing-session.ts';
import { writePngAtomically } from '../../engine/render-frame.ts';
import { WorkspaceError } from '../workspace-error.ts';
import { frameFileName, resultTag, withWarmDrawing } from './context.ts';
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
  return withWarmDrawing(ctx, 'frame', async ({ drawing }) => {
    const frame = await captureFrame(ctx, drawing, index);
    const { size, durationFrames } = drawing.video;
    return { frame: { ...frame, width: size.width, height: size.height }, framesTotal: durationFrames };
  });
}
