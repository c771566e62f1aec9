// When elements are on screen and when they are moving, read from the resolved timeline: review
// judges placement only on frames where an element sits at rest, and reports intervals in frames.
import { presetKind } from '../../shared/animation/presets.ts';
import { builtInBuild } from '../../shared/elements/build-spans.ts';
import { timeToSeconds } from '../../shared/spec/time.ts';
import type { ResolvedElement, ResolvedLayer, ResolvedVideo } from '../../shared/timeline/types.ts';

export interface ElementTiming {
  key: string;
  resolved: ResolvedElement;
  /** What its times count from: its scene, or the overlays (the whole video). */
  layer: ResolvedLayer;
  /** The enclosing group's key; undefined for a layer's top-level elements. */
  parentKey: string | undefined;
}

export type ElementIndex = ReadonlyMap<string, ElementTiming>;

/** Every element of the video (group children included) by its key: the scenes', then the overlays. */
export function indexElements(video: ResolvedVideo): ElementIndex {
  const index = new Map<string, ElementTiming>();
  const visit = (resolved: ResolvedElement, layer: ResolvedLayer, parentKey: string | undefined) => {
    index.set(resolved.key, { key: resolved.key, resolved, layer, parentKey });
    for (const child of resolved.children) visit(child, layer, resolved.key);
  };
  for (const layer of [...video.scenes, video.overlays])
    for (const element of layer.elements) visit(element, layer, undefined);
  return index;
}

/** Seconds from the layer's start (a scene's; the video's for overlays) at a video frame. */
export function layerSecondsAt(layer: ResolvedLayer, frame: number, fps: number): number {
  return (frame - layer.startFrame) / fps;
}

/** Frames [startFrame, endFrame) of the video in which the element exists. */
export function lifetimeFrames(timing: ElementTiming, fps: number): { startFrame: number; endFrame: number } {
  const { layer, resolved } = timing;
  const startFrame = layer.startFrame + Math.round(resolved.startSeconds * fps);
  const endFrame = Math.min(layer.endFrame, layer.startFrame + Math.round(resolved.endSeconds * fps));
  return { startFrame, endFrame: Math.max(startFrame + 1, endFrame) };
}

/** Seconds (from the element start) of its last keyframe: until then keyframes may move it. */
function keyframesEndSeconds(resolved: ResolvedElement, fps: number): number {
  let end = 0;
  for (const track of Object.values(resolved.element.keyframes ?? {})) {
    for (const keyframe of track ?? []) end = Math.max(end, timeToSeconds(keyframe.at, fps));
  }
  return end;
}

/**
 * Whether the element's own entrance, exit (a preset or built in) or keyframes are in play at
 * `sceneSeconds`. An entrance counts until it has finished (also while it waits for a delay, held at
 * its hidden start), an exit from when it starts (also once it has finished, held at its gone end),
 * an emphasis (shake) while it plays. Loops and lifetime moves (float, drift, Ken Burns) are the
 * element's resting behaviour and do not count.
 */
export function isAnimatingAt(resolved: ResolvedElement, sceneSeconds: number, fps: number): boolean {
  for (const animation of resolved.animations) {
    const kind = presetKind(animation.animation.preset);
    if (kind === 'entrance' && sceneSeconds < animation.endSeconds) return true;
    if (kind === 'exit' && sceneSeconds >= animation.startSeconds) return true;
    const playing = animation.startSeconds <= sceneSeconds && sceneSeconds < animation.endSeconds;
    if (kind === 'emphasis' && playing) return true;
  }
  const elementSeconds = sceneSeconds - resolved.startSeconds;
  const lifetime = resolved.endSeconds - resolved.startSeconds;
  // Annotations and titles arrive and leave by themselves (enterDuration, exitDuration).
  const build = builtInBuild(resolved.element, lifetime, fps);
  if (build && (elementSeconds < build.enter || elementSeconds >= lifetime - build.exit)) return true;
  return elementSeconds < keyframesEndSeconds(resolved, fps);
}

/** The element and the groups around it, innermost first. */
export function withGroups(index: ElementIndex, timing: ElementTiming | undefined): ElementTiming[] {
  const chain: ElementTiming[] = [];
  for (let at = timing; at; at = at.parentKey ? index.get(at.parentKey) : undefined) chain.push(at);
  return chain;
}

/** At rest: neither the element nor any group around it is entering, leaving or keyframed. */
export function isAtRest(index: ElementIndex, key: string, frame: number, fps: number): boolean {
  return withGroups(index, index.get(key)).every(
    (timing) => !isAnimatingAt(timing.resolved, layerSecondsAt(timing.layer, frame, fps), fps),
  );
}

/**
 * Seconds of its layer during which the element can be seen: from when its (and its groups') entrances
 * start to when the first exit around it has finished or its lifetime ends.
 */
export function visibleSpan(index: ElementIndex, timing: ElementTiming): { start: number; end: number } {
  let start = -Infinity;
  let end = Infinity;
  for (const at of withGroups(index, timing)) {
    start = Math.max(start, at.resolved.startSeconds);
    end = Math.min(end, at.resolved.endSeconds);
    for (const animation of at.resolved.animations) {
      const kind = presetKind(animation.animation.preset);
      if (kind === 'entrance') start = Math.max(start, animation.startSeconds);
      if (kind === 'exit') end = Math.min(end, animation.endSeconds);
    }
  }
  return { start, end: Math.max(start, end) };
}

/** Whether a transition moves the element: every scene's element may be; overlays never are. */
export function movesInTransitions(timing: ElementTiming): boolean {
  return timing.layer.kind === 'scene';
}

/** Frames where two scenes overlap in a transition. */
export function isInTransition(video: ResolvedVideo, frame: number): boolean {
  return video.scenes.some(
    (scene, i) =>
      i > 0 &&
      scene.transitionIn !== undefined &&
      frame >= scene.startFrame &&
      frame < video.scenes[i - 1]!.endFrame,
  );
}
