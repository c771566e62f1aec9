// The caption checks in one call: every captions element's cues and pages laid out and timed once,
// then judged from the timeline and the layout alone (no frame is drawn).
import type { ResolvedVideo } from '../../../shared/timeline/types.ts';
import type { ElementIndex } from '../element-timing.ts';
import type { FindingDraft } from '../finding.ts';
import { checkCaptionOffscreen } from './caption-offscreen.ts';
import { checkCaptionOverlap } from './caption-overlap.ts';
import { checkCaptionTooFast } from './caption-too-fast.ts';
import { captionTracks } from './caption-tracks.ts';
import type { CaptionLayout } from './caption-tracks.ts';
import type { CaptionCheck } from './check.ts';

export const CAPTION_CHECKS: readonly CaptionCheck[] = [
  checkCaptionOverlap,
  checkCaptionTooFast,
  checkCaptionOffscreen,
];

export function captionFindings(
  video: ResolvedVideo,
  index: ElementIndex,
  layout: CaptionLayout,
): FindingDraft[] {
  const tracks = captionTracks(video, index, layout);
  if (tracks.length === 0) return [];
  const input = { video, index, tracks, layout };
  return CAPTION_CHECKS.flatMap((check) => check(input));
}
