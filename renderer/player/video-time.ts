// Which moment of a source video shows on a given output frame: the same arithmetic as the Skia
// renderer's VideoFrameSource (output frame j shows start + j·rate/fps; a pass ends at the trim end
// or the file's end; then it loops or holds its last frame).
import type { VideoUse } from '../../shared/timeline/media-plan.ts';

export interface SourceMoment {
  seconds: number;
  /** Past the end of a non-looping use: the picture is frozen on the last frame. */
  holding: boolean;
}

export function isActive(use: VideoUse, frame: number): boolean {
  return frame >= use.startFrame && frame < use.startFrame + use.frameCount;
}

export function sourceMoment(use: VideoUse, frame: number, fps: number, fileSeconds: number): SourceMoment {
  const index = Math.max(0, frame - use.startFrame);
  const end = Math.min(
    use.sourceEndSeconds ?? Infinity,
    Number.isFinite(fileSeconds) ? fileSeconds : Infinity,
  );
  const segment = end - use.sourceStartSeconds;
  const framesPerPass = Number.isFinite(segment)
    ? Math.max(1, Math.ceil((segment * fps) / use.rate - 1e-6))
    : Infinity;
  let inPass = index;
  let holding = false;
  if (use.loop && Number.isFinite(framesPerPass)) inPass = index % framesPerPass;
  else if (index >= framesPerPass - 1) {
    inPass = framesPerPass - 1;
    holding = true;
  }
  return { seconds: use.sourceStartSeconds + (inPass * use.rate) / fps, holding };
}
