// What every caption check reads, and how their findings name cues, times and frames.
import type { TimedCue } from '../../../shared/captions/timed-words.ts';
import { signedTimeToSeconds } from '../../../shared/spec/time.ts';
import type { ResolvedVideo } from '../../../shared/timeline/types.ts';
import type { ElementIndex } from '../element-timing.ts';
import type { FindingDraft } from '../finding.ts';
import { describeElement, excerpt } from '../visual/check.ts';
import type { CaptionLayout, CaptionTrack, FrameSpan } from './caption-tracks.ts';

export interface CaptionCheckInput {
  video: ResolvedVideo;
  index: ElementIndex;
  tracks: readonly CaptionTrack[];
  layout: CaptionLayout;
}

export type CaptionCheck = (input: CaptionCheckInput) => FindingDraft[];

export function describeTrack(track: CaptionTrack): string {
  return describeElement(track.timing.key, track.element);
}

/** `cue 3 (line 9) "Every morning the tide…"`: the line is the cue's in its caption file. */
export function describeCue(cue: TimedCue): string {
  const line = cue.line === undefined ? '' : ` (line ${cue.line})`;
  return `cue ${cue.number}${line} ${JSON.stringify(excerpt(cue.text))}`;
}

/** Seconds rounded up to the tenth, for remedies: enough, and easy to type. */
export function upToTenth(seconds: number): number {
  return Math.ceil(seconds * 10 - 1e-9) / 10;
}

/** A length of time as the spec writes it, rounded to the hundredth: `"1.25s"`. */
export function specSeconds(seconds: number): string {
  return `"${Number(seconds.toFixed(2))}s"`;
}

/** The element's offset in seconds (0 when it has none). */
export function offsetSeconds(track: CaptionTrack, fps: number): number {
  return track.element.offset === undefined ? 0 : signedTimeToSeconds(track.element.offset, fps);
}

/** A span as a finding interval, kept on the timeline and at least a frame long. */
export function spanInterval(
  video: ResolvedVideo,
  span: FrameSpan,
  focusFrame: number,
): Pick<FindingDraft, 'startFrame' | 'endFrame' | 'focusFrame'> {
  const last = Math.max(0, video.durationFrames - 1);
  const clamp = (frame: number) => Math.min(Math.max(0, frame), last);
  const focus = clamp(focusFrame);
  const startFrame = Math.min(clamp(span.startFrame), focus);
  const endFrame = Math.max(Math.min(span.endFrame, video.durationFrames), focus + 1);
  return { startFrame, endFrame, focusFrame: focus };
}
