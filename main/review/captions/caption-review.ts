// The caption checks in one call: every captions element's cues and pages, laid out and timed once
// (captionTracks, which element_overlap reads too), judged from the timeline and the layout alone
// (no frame is drawn).
import type { ResolvedVideo } from '../../../shared/timeline/types.ts';
import type { ElementIndex } from '../element-timing.ts';
import type { FindingDraft } from '../finding.ts';
import { checkCaptionOffscreen } from './caption-offscreen.ts';
import { checkCaptionOverlap } from './caption-overlap.ts';
import { checkCaptionTooFast } from './caption-too-fast.ts';
import type { CaptionLayout, CaptionTrack } from './caption-tracks.ts';
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
  tracks: readonly CaptionTrack[],
): FindingDraft[] {
  if (tracks.length === 0) return [];
  const input = { video, index, tracks, layout };
  return CAPTION_CHECKS.flatMap((check) => check(input));
}
