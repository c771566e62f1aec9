// frame: one frame of the mounted composition to a PNG in the results folder.
import path from 'node:path';
import { DrawingSession } from '../../engine/drawing-session.ts';
import { writePngAtomically } from '../../engine/render-frame.ts';
import { WorkspaceError } from '../protocol.ts';
import { frameFileName, revisionTag } from './context.ts';
import type { OperationContext } from './context.ts';

export interface FrameOperationResult {
  frame: { index: number; seconds: number; path: string; width: number; height: number };
  framesTotal: number;
}

export function assertFrameIndex(frame: number, framesTotal: number, field = 'frameIndex'): void {
  if (frame >= framesTotal) {
    throw new WorkspaceError(
      400,
      'frame_out_of_range',
      `${field} ${frame} is outside the timeline: it has ${framesTotal} frames (0–${framesTotal - 1})`,
    );
  }
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
    assertFrameIndex(index, session.framesTotal);
    await session.draw(index);
    const file = path.join(
      ctx.resultsDir,
      'frames',
      revisionTag(ctx.sourceRevision),
      frameFileName(index, ctx.job.aspect),
    );
    await writePngAtomically(file, await session.png());
    const { size, fps, durationFrames } = session.video;
    return {
      frame: {
        index,
        seconds: Number((index / fps).toFixed(3)),
        path: file,
        width: size.width,
        height: size.height,
      },
      framesTotal: durationFrames,
    };
  } finally {
    session.close();
  }
}
