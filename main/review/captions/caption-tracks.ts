// Every captions element as the video plays it: its cues and pages, each with the frames it is timed
// for and the frames it is actually on screen. Frames are found with the drawing's own clock
// (captionClock: offset and speed applied) and cut to the frames the element is drawn in, so the
// caption checks judge what plays without drawing a frame.
import type { Ctx2D, DrawEnv } from '../../../shared/canvas/types.ts';
import type { TimedCue } from '../../../shared/captions/timed-words.ts';
import { pagesFor } from '../../../shared/elements/captions/captions-draw.ts';
import {
  captionClock,
  captionCues,
  elementSecondsAt,
} from '../../../shared/elements/captions/captions-pages.ts';
import type { CaptionPage } from '../../../shared/elements/captions/captions-pages.ts';
import type { CaptionsElement } from '../../../shared/spec/captions-element.ts';
import type { ResolvedVideo } from '../../../shared/timeline/types.ts';
import { isAtRest, isInTransition, layerSecondsAt, movesInTransitions } from '../element-timing.ts';
import type { ElementIndex, ElementTiming } from '../element-timing.ts';
import { placementAt } from '../element-placement.ts';
import type { Placement } from '../element-placement.ts';

/** Video frames [startFrame, endFrame); empty when endFrame ≤ startFrame. */
export interface FrameSpan {
  startFrame: number;
  endFrame: number;
}

export function spanFrames(span: FrameSpan): number {
  return Math.max(0, span.endFrame - span.startFrame);
}

function intersect(a: FrameSpan, b: FrameSpan): FrameSpan {
  return { startFrame: Math.max(a.startFrame, b.startFrame), endFrame: Math.min(a.endFrame, b.endFrame) };
}

export interface ShownCue {
  cue: TimedCue;
  /** The frames its time covers, as if the element lasted for ever. */
  timed: FrameSpan;
  /** The frames it is on screen: `timed` cut to the element's. */
  shown: FrameSpan;
}

export interface ShownPage {
  page: CaptionPage;
  timed: FrameSpan;
  shown: FrameSpan;
}

/** What the caption checks measure with: the review's layout environment and a context to lay out on. */
export interface CaptionLayout {
  env: DrawEnv;
  ctx: Ctx2D;
}

export interface CaptionTrack {
  timing: ElementTiming;
  element: CaptionsElement;
  /** The frames the element is drawn in. */
  live: FrameSpan;
  /** Where it sits when at rest: its pages are broken for this box, as the drawing breaks them. */
  placement: Placement;
  cues: ShownCue[];
  /** In time order, as the drawing shows them. */
  pages: ShownPage[];
}

/** The first frame at which `value` (growing with the frame) reaches `target`, near `guess`. */
function firstFrameReaching(value: (frame: number) => number, target: number, guess: number): number {
  if (!Number.isFinite(guess)) return guess;
  let frame = Math.ceil(guess - 1e-6);
  // The guess is the inverse in exact arithmetic; the drawing compares its own rounded clock.
  while (value(frame - 1) >= target) frame--;
  while (value(frame) < target) frame++;
  return frame;
}

function liveFrames(timing: ElementTiming, fps: number): FrameSpan {
  const { layer, resolved } = timing;
  const layerSeconds = (frame: number) => layerSecondsAt(layer, frame, fps);
  const at = (seconds: number) => firstFrameReaching(layerSeconds, seconds, layer.startFrame + seconds * fps);
  return intersect(
    { startFrame: layer.startFrame, endFrame: layer.endFrame },
    { startFrame: at(resolved.startSeconds), endFrame: at(resolved.endSeconds) },
  );
}

/** The frames at which the captions' own clock is in [start, end). */
function clockFrames(timing: ElementTiming, element: CaptionsElement, fps: number) {
  const { layer, resolved } = timing;
  const clock = (frame: number) =>
    captionClock(element, layerSecondsAt(layer, frame, fps) - resolved.startSeconds, fps);
  const frameAt = (seconds: number) =>
    firstFrameReaching(
      clock,
      seconds,
      layer.startFrame + (resolved.startSeconds + elementSecondsAt(element, seconds, fps)) * fps,
    );
  return (start: number, end: number): FrameSpan => ({ startFrame: frameAt(start), endFrame: frameAt(end) });
}

/** The first frame of the span at which the element rests (no entrance, exit, keyframes, transition). */
export function restingFrame(
  video: ResolvedVideo,
  index: ElementIndex,
  key: string,
  span: FrameSpan,
): number | undefined {
  const moves = movesInTransitions(index.get(key)!);
  for (let frame = span.startFrame; frame < span.endFrame; frame++) {
    if (!(moves && isInTransition(video, frame)) && isAtRest(index, key, frame, video.fps)) return frame;
  }
  return undefined;
}

function captionTrack(
  video: ResolvedVideo,
  index: ElementIndex,
  timing: ElementTiming,
  element: CaptionsElement,
  layout: CaptionLayout,
): CaptionTrack {
  const live = liveFrames(timing, video.fps);
  const placement = placementAt(
    layout.ctx,
    layout.env,
    index,
    timing,
    restingFrame(video, index, timing.key, live) ?? live.startFrame,
  );
  const frames = clockFrames(timing, element, video.fps);
  const shown = (start: number, end: number) => {
    const timed = frames(start, end);
    return { timed, shown: intersect(timed, live) };
  };
  const cues = captionCues(element, (src) => layout.env.media.captionText?.(src));
  return {
    timing,
    element,
    live,
    placement,
    cues: cues.map((cue) => ({ cue, ...shown(cue.start, cue.end) })),
    pages: pagesFor(element, layout.env, placement.box).map((page) => ({
      page,
      ...shown(page.start, page.end),
    })),
  };
}

/** Every captions element of the video, groups' children included, in timeline order. */
export function captionTracks(
  video: ResolvedVideo,
  index: ElementIndex,
  layout: CaptionLayout,
): CaptionTrack[] {
  const tracks: CaptionTrack[] = [];
  for (const timing of index.values()) {
    const element = timing.resolved.element;
    if (element.type === 'captions') tracks.push(captionTrack(video, index, timing, element, layout));
  }
  return tracks;
}
