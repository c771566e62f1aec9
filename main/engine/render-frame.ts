// One frame to a PNG: the authoritative Skia render of a single moment.
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { drawFrame } from '../../shared/draw/frame.ts';
import type { VideoModel } from '../../shared/spec/model.ts';
import type { AspectName } from '../../shared/spec/sizes.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import { createDrawEnv, createSkiaSurface } from './canvas-host.ts';
import { prepareFonts } from './fonts.ts';
import { planMedia } from './media-plan.ts';
import { MediaSession } from './media-session.ts';
import type { RenderProjectContext } from './project-context.ts';

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

export class FrameOutOfRangeError extends Error {
  constructor(frame: number, total: number) {
    super(`frame ${frame} is outside the timeline: it has ${total} frames (0–${total - 1})`);
    this.name = 'FrameOutOfRangeError';
  }
}

export async function renderFrameToPng(request: FrameRequest): Promise<FrameResult> {
  await prepareFonts(request.model, request.project, request.signal);
  const video = resolveTimeline(request.model, { aspect: request.aspect });
  if (request.frame < 0 || request.frame >= video.durationFrames) {
    throw new FrameOutOfRangeError(request.frame, video.durationFrames);
  }
  const media = await MediaSession.open(planMedia(video), video.fps, request.project.media, request.signal);
  try {
    await media.prepareFrame(request.frame);
    const surface = createSkiaSurface(video.size.width, video.size.height);
    drawFrame(surface.ctx, video, request.frame, createDrawEnv(video.size, video.fps, media));
    const png = await surface.skia.encode('png');
    await mkdir(dirname(request.outputPath), { recursive: true });
    const staging = `${request.outputPath}.${process.pid}.partial`;
    await writeFile(staging, png);
    await rename(staging, request.outputPath);
  } finally {
    media.close();
  }
  return {
    path: request.outputPath,
    frame: request.frame,
    framesTotal: video.durationFrames,
    width: video.size.width,
    height: video.size.height,
  };
}
