// Test support: the caption checks on a composition built in the test, laid out with the bundled
// fonts the way a review session lays it out (caption files given as text by their source).
import { indexElements } from '../element-timing.ts';
import { createDrawEnv, createSkiaSurface } from '../../engine/canvas-host.ts';
import { registerBundledFonts } from '../../fonts/register.ts';
import type { VideoModel } from '../../../shared/spec/model.ts';
import { resolveTimeline } from '../../../shared/timeline/resolve.ts';
import { captionTracks } from './caption-tracks.ts';
import type { CaptionCheck, CaptionCheckInput } from './check.ts';
import type { FindingDraft } from '../finding.ts';

export function captionInput(model: VideoModel, files: Record<string, string> = {}): CaptionCheckInput {
  registerBundledFonts();
  const video = resolveTimeline(model);
  const index = indexElements(video);
  const env = createDrawEnv(video.size, video.fps, {
    image: () => undefined,
    videoFrame: () => undefined,
    captionText: (src) => files[src],
  });
  const layout = { env, ctx: createSkiaSurface(1, 1).ctx };
  return { video, index, tracks: captionTracks(video, index, layout), layout };
}

export function runCaptionCheck(
  check: CaptionCheck,
  model: VideoModel,
  files?: Record<string, string>,
): FindingDraft[] {
  return check(captionInput(model, files));
}

/** SRT text from [start, end, text] cues, times in seconds. */
export function srt(...cues: [number, number, string][]): string {
  const stamp = (seconds: number) => {
    const ms = Math.round(seconds * 1000);
    const pad = (value: number, width = 2) => String(value).padStart(width, '0');
    return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
  };
  return cues
    .map(([start, end, text], i) => `${i + 1}\n${stamp(start)} --> ${stamp(end)}\n${text}\n`)
    .join('\n');
}
