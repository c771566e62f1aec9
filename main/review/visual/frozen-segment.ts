// frozen_segment: the picture does not change for too long, outside scenes marked `hold: true`. The
// timeline proposes stretches where nothing can change (no animation, no element coming or going, no
// transition, no video, no custom drawing, no moving background); drawing the first, middle and
// last frame of each confirms it, since a timeline can only say what might move.
import type { Background } from '../../../shared/spec/background.ts';
import type { ResolvedLayer, ResolvedScene, ResolvedVideo } from '../../../shared/timeline/types.ts';
import { timeToSeconds } from '../../../shared/spec/time.ts';
import type { ElementIndex, ElementTiming } from '../element-timing.ts';
import type { FindingDraft } from '../finding.ts';
import { formatSeconds } from './check.ts';

/**
 * Longer than this without any change reads as a stalled player. Short-form video cuts or moves
 * every 2–3 s to hold attention; a still held past 3 s is where viewers start to swipe away.
 */
export const FROZEN_SECONDS = 3;

export interface StillStretch {
  scene: ResolvedScene;
  /** Frames [startFrame, endFrame) whose pictures the timeline says are all the same. */
  startFrame: number;
  endFrame: number;
}

function backgroundMoves(background: Background): boolean {
  if (typeof background === 'string') return false;
  switch (background.type) {
    case 'color':
      return false;
    case 'linear':
    case 'radial':
      return background.animate === true;
    case 'image':
      return background.kenBurns === true;
    case 'video':
      return true;
    case 'noise':
      return background.animated !== false;
  }
}

/** Seconds of its layer when the element changes: instants (start == end) and spans of continuous change. */
function changes(timing: ElementTiming, fps: number): [number, number][] {
  const { resolved } = timing;
  const { startSeconds: start, endSeconds: end } = resolved;
  const element = resolved.element;
  const found: [number, number][] = [
    [start, start],
    [end, end],
  ];
  // A clip plays and a custom element may draw anything on any frame.
  if (element.type === 'clip' || element.type === 'custom') found.push([start, end]);
  for (const animation of resolved.animations) {
    const from = Math.max(start, animation.startSeconds);
    const to = Math.min(end, animation.endSeconds);
    if (to > from) found.push([from, to]);
  }
  const keyframeTimes = Object.values(element.keyframes ?? {}).flatMap((track) =>
    (track ?? []).map((keyframe) => start + timeToSeconds(keyframe.at, fps)),
  );
  if (keyframeTimes.length > 1) found.push([Math.min(...keyframeTimes), Math.max(...keyframeTimes)]);
  return found;
}

/** Whether anything of the layer changes between frame `frame - 1` and `frame`. */
function changesAt(
  spans: readonly [number, number][],
  layer: ResolvedLayer,
  frame: number,
  fps: number,
): boolean {
  const now = (frame - layer.startFrame) / fps;
  const before = now - 1 / fps;
  return spans.some(([from, to]) => (to > from ? now > from && before < to : before < from && from <= now));
}

/** Stretches longer than `minSeconds` in which the timeline has nothing change, outside held scenes. */
export function findStillStretches(
  video: ResolvedVideo,
  index: ElementIndex,
  minSeconds = FROZEN_SECONDS,
): StillStretch[] {
  const stretches: StillStretch[] = [];
  const spansOf = (layer: ResolvedLayer) =>
    [...index.values()]
      .filter((timing) => timing.layer === layer)
      .flatMap((timing) => changes(timing, video.fps));
  // Overlays show over every scene: when one of them changes, the picture does.
  const overlaySpans = spansOf(video.overlays);
  video.scenes.forEach((scene, i) => {
    if (scene.scene.hold || backgroundMoves(scene.background)) return;
    const next = video.scenes[i + 1];
    const first = scene.startFrame + (scene.transitionIn?.frames ?? 0);
    const end = next?.transitionIn ? next.startFrame : scene.endFrame;
    const spans = spansOf(scene);
    let runStart = first;
    const close = (runEnd: number) => {
      if ((runEnd - runStart) / video.fps > minSeconds)
        stretches.push({ scene, startFrame: runStart, endFrame: runEnd });
    };
    for (let frame = first + 1; frame < end; frame++) {
      const changed =
        changesAt(spans, scene, frame, video.fps) ||
        changesAt(overlaySpans, video.overlays, frame, video.fps);
      if (!changed) continue;
      close(frame);
      runStart = frame;
    }
    close(end);
  });
  return stretches;
}

export interface FrozenOptions {
  minSeconds?: number | undefined;
  /** Hashes already known (the samples'), so those frames are not drawn again. */
  known?: ReadonlyMap<number, string> | undefined;
}

/** Confirms each still stretch by drawing its first, middle and last frame; drafts the frozen ones. */
export async function checkFrozenSegments(
  video: ResolvedVideo,
  index: ElementIndex,
  hashFrame: (frame: number) => Promise<string>,
  options: FrozenOptions = {},
): Promise<FindingDraft[]> {
  const minSeconds = options.minSeconds ?? FROZEN_SECONDS;
  const drafts: FindingDraft[] = [];
  for (const stretch of findStillStretches(video, index, minSeconds)) {
    const { startFrame, endFrame, scene } = stretch;
    const frames = [startFrame, Math.floor((startFrame + endFrame - 1) / 2), endFrame - 1];
    const hashes = new Set<string>();
    for (const frame of frames) hashes.add(options.known?.get(frame) ?? (await hashFrame(frame)));
    if (hashes.size > 1) continue;
    const seconds = (endFrame - startFrame) / video.fps;
    const over = Math.ceil((seconds - minSeconds) * 10) / 10;
    drafts.push({
      code: 'frozen_segment',
      severity: 'warning',
      startFrame,
      endFrame,
      focusFrame: startFrame,
      message:
        `scene "${scene.id}" shows the same picture for ${formatSeconds(seconds)} (frames ${startFrame} to ` +
        `${endFrame - 1}, ${formatSeconds(startFrame / video.fps)} to ${formatSeconds(endFrame / video.fps)}): nothing ` +
        `moves, appears or leaves for longer than ${minSeconds} s`,
      remedy:
        `add motion during it (kenBurns on a picture, drift or float on an element, or an element entering ` +
        `within ${minSeconds} s of the stretch's start), shorten scene "${scene.id}" by at least ${over}s, or mark ` +
        `the scene hold: true if the still is deliberate`,
    });
  }
  return drafts;
}
