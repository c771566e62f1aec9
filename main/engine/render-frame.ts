// One frame to a PNG: the authoritative Skia render of a single moment.
import type { VideoModel } from '../../shared/spec/model.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { DrawingSession } from './drawing-session.ts';
import type { RenderProjectContext } from './project-context.ts';
import { writeFileAtomically } from '../fs/atomic-write.ts';

export { FrameOutOfRangeError } from './drawing-session.ts';

export interface FrameRequest {
  model: VideoModel;
  project: RenderProjectContext;
  frame: number;
  aspect?: AspectName | undefined;
  outputPath: string;
  signal?: AbortSignal;
}

export interface FrameResult {
  path: string;
  frame: number;
  framesTotal: number;
  width: number;
  height: number;
}

/** Writes a PNG atomically: readers never see a half-written file under the final name. */
export async function writePngAtomically(outputPath: string, png: Buffer): Promise<void> {
  await writeFileAtomically(outputPath, png, { createDirMode: 0o755 });
}

export async function renderFrameToPng(request: FrameRequest): Promise<FrameResult> {
  const session = await DrawingSession.open({
    model: request.model,
    project: request.project,
    aspect: request.aspect,
    signal: request.signal,
  });
  try {
    session.assertFrame(request.frame);
    await session.draw(request.frame);
    await writePngAtomically(request.outputPath, await session.png());
  } finally {
    session.close();
  }
  const { size, durationFrames } = session.video;
  return {
    path: request.outputPath,
    frame: request.frame,
    framesTotal: durationFrames,
    width: size.width,
    height: size.height,
  };
}
