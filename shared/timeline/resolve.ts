// Turns a video model into a timeline: every scene, element, animation and sound placed in seconds and
// frames, every trigger settled. Pure: the renderer, the preview and the checks all read this.
import { easingFunction } from '../animation/easing.ts';
import { DEFAULT_TYPING_RATE, DEFAULT_WORD_STAGGER_SECONDS, PRESETS } from '../animation/presets.ts';
import type { AudioTrack } from '../spec/audio.ts';
import type { ModelElement, ModelScene, VideoModel } from '../spec/model.ts';
import type { Animation } from '../spec/primitives.ts';
import { DEFAULT_BACKGROUND, DEFAULT_FPS } from '../spec/schema.ts';
import type { Aspect, AspectName } from '../spec/sizes.ts';
import { aspectOfSize, designScale, resolveAspect, sameShape } from '../spec/sizes.ts';
import type { Time } from '../spec/time.ts';
import { timeToSeconds } from '../spec/time.ts';
import { countTypedCharacters, countWords } from '../spec/text-units.ts';
import type {
  FrameComposition,
  ResolvedAnimation,
  ResolvedAudio,
  ResolvedElement,
  ResolvedLayer,
  ResolvedOverlays,
  ResolvedScene,
  ResolvedTransition,
  ResolvedVideo,
} from './types.ts';
import { OVERLAYS_KEY_PREFIX, sceneKeyPrefix } from './element-keys.ts';
import { hasOverrides, modelForAspect } from './aspect-model.ts';

export interface ResolveOptions {
  aspect?: Aspect;
  fps?: number;
}

export const DEFAULT_TRANSITION_SECONDS = 0.6;

/** The id a scene goes by in messages and in the resolved timeline. */
export function sceneId(scene: ModelScene, index: number): string {
  return scene.id ?? `scene-${index + 1}`;
}

/** How long a scene overlaps the one before it: its transition, at most half of either scene. */
export function transitionOverlapSeconds(
  previousDuration: number,
  duration: number,
  transition: ModelScene['transition'],
  fps: number,
): number {
  if (!transition || transition.type === 'cut') return 0;
  const wanted =
    transition.duration === undefined ? DEFAULT_TRANSITION_SECONDS : timeToSeconds(transition.duration, fps);
  return Math.max(0, Math.min(wanted, previousDuration / 2, duration / 2));
}

/** Words a wordByWord reveal steps through: whitespace-separated words of a text element. */
export function wordCount(element: ModelElement): number {
  if (element.type !== 'text') return 1;
  return Math.max(1, countWords(element.text));
}

/** What a typewriter types one at a time: the text's visible characters, or its words. */
export function typingUnits(element: ModelElement, by: 'character' | 'word'): number {
  // Code types its first version (the steps morph in afterwards).
  if (element.type === 'code') {
    return Math.max(1, by === 'word' ? countWords(element.code) : countTypedCharacters(element.code));
  }
  if (element.type !== 'text') return 1;
  if (by === 'word') return wordCount(element);
  return Math.max(1, countTypedCharacters(element.text));
}

/** An animation as written on an element, and the element whose state it drives. */
interface Placement {
  animation: Animation;
  owner: ElementNode;
  target: ElementNode;
  /** Group stagger: how much later this one starts, and how much earlier an end-anchored exit starts. */
  entryOffset: number;
  exitOffset: number;
  result: ResolvedAnimation | undefined;
}

interface ElementNode {
  resolved: ResolvedElement;
  /** Animations this element's spec declares (some may drive its children, see `stagger`). */
  owned: Placement[];
  /** Animations that drive this element, in the order they apply. */
  driving: Placement[];
  status: 'pending' | 'resolving' | 'done';
  finishSeconds: number;
}

/** One list of elements being resolved: a scene's, or the overlays (timed against the whole video). */
interface SceneContext {
  /** Keys of its elements start with this ("s2", or "o" for overlays). */
  keyPrefix: string;
  /** How messages name it: 'scene "intro"', or 'the overlays'. */
  label: string;
  /** Where an {after} id must be: "that scene", or "the overlays". */
  peers: string;
  durationSeconds: number;
  fps: number;
  byId: Map<string, ElementNode>;
  /** Elements whose animations are being resolved, innermost last: a repeat is an {after} cycle. */
  stack: ElementNode[];
  /** The aspect whose overrides apply, and whether the video is drawn in a shape it was not laid out for. */
  layout: AspectLayout;
}

interface AspectLayout {
  aspect: AspectName | undefined;
  reflowed: boolean;
}

function nodeLabel(node: ElementNode): string {
  return node.resolved.element.id ?? node.resolved.key;
}

/**
 * Builds an element and its children with their lifetimes. A child's `start` counts from its group's
 * start, and children never outlive their group. A group's `stagger` delays child j's animations (and
 * its subtree's) by j × stagger; an animation with its own `stagger` on a group plays on each child in
 * turn instead of on the group as a whole.
 */
function buildNode(
  element: ModelElement,
  key: string,
  bounds: { start: number; end: number },
  offsets: { entry: number; exit: number },
  inherited: Omit<Placement, 'target' | 'result'>[],
  scene: SceneContext,
  all: ElementNode[],
): ElementNode {
  const seconds = (time: Time) => timeToSeconds(time, scene.fps);
  const startSeconds = Math.min(bounds.start + seconds(element.start ?? 0), bounds.end);
  const endSeconds =
    element.duration === undefined
      ? bounds.end
      : Math.min(startSeconds + seconds(element.duration), bounds.end);
  const reflow = scene.layout.reflowed && !hasOverrides(element, scene.layout.aspect);
  const node: ElementNode = {
    resolved: {
      key,
      element,
      startSeconds,
      endSeconds,
      animations: [],
      children: [],
      ...(reflow ? { reflow: true as const } : {}),
    },
    owned: [],
    driving: [],
    status: 'pending',
    finishSeconds: startSeconds,
  };
  all.push(node);
  if (element.id !== undefined && !scene.byId.has(element.id)) scene.byId.set(element.id, node);

  for (const placement of inherited) {
    const full: Placement = { ...placement, target: node, result: undefined };
    node.driving.push(full);
    placement.owner.owned.push(full);
  }
  const children = element.type === 'group' ? element.children : [];
  const distributed: Animation[] = [];
  for (const animation of element.animate ?? []) {
    if (element.type === 'group' && animation.stagger !== undefined && animation.preset !== 'wordByWord') {
      distributed.push(animation);
      continue;
    }
    const placement: Placement = {
      animation,
      owner: node,
      target: node,
      entryOffset: offsets.entry,
      exitOffset: offsets.exit,
      result: undefined,
    };
    node.driving.push(placement);
    node.owned.push(placement);
  }

  const groupStagger =
    element.type === 'group' && element.stagger !== undefined ? seconds(element.stagger) : 0;
  const last = children.length - 1;
  node.resolved.children = children.map((child, j) => {
    const handedDown = distributed.map((animation) => {
      const step = seconds(animation.stagger ?? 0);
      return {
        animation,
        owner: node,
        entryOffset: offsets.entry + j * step,
        exitOffset: offsets.exit + (last - j) * step,
      };
    });
    const childNode = buildNode(
      child,
      `${key}/e${j}`,
      { start: startSeconds, end: endSeconds },
      { entry: offsets.entry + j * groupStagger, exit: offsets.exit + (last - j) * groupStagger },
      handedDown,
      scene,
      all,
    );
    return childNode.resolved;
  });
  return node;
}

function resolvePlacement(placement: Placement, scene: SceneContext): ResolvedAnimation {
  const { animation, target } = placement;
  const preset = PRESETS[animation.preset];
  const seconds = (time: Time) => timeToSeconds(time, scene.fps);
  const element = target.resolved;
  const trigger = animation.trigger ?? (preset.kind === 'exit' ? 'elementEnd' : 'elementStart');
  const delay = seconds(animation.delay ?? 0);
  const isWords = animation.preset === 'wordByWord';

  let durationSeconds: number;
  if (animation.duration !== undefined) durationSeconds = seconds(animation.duration);
  else if (animation.preset === 'typewriter') {
    const by = animation.by ?? 'character';
    durationSeconds = typingUnits(element.element, by) / (animation.rate ?? DEFAULT_TYPING_RATE[by]);
  } else if (preset.durationSeconds !== 'lifetime') durationSeconds = preset.durationSeconds;
  else {
    // Spans what is left of the element once it starts, so it ends as the element leaves.
    const lead = trigger === 'elementStart' ? delay + placement.entryOffset : 0;
    durationSeconds = Math.max(0, element.endSeconds - element.startSeconds - lead);
  }
  const repeat = isWords
    ? 1
    : animation.repeat === 'forever'
      ? Infinity
      : (animation.repeat ?? (preset.kind === 'loop' ? Infinity : 1));
  const staggerSeconds =
    animation.stagger !== undefined ? seconds(animation.stagger) : isWords ? DEFAULT_WORD_STAGGER_SECONDS : 0;
  const span = isWords
    ? (wordCount(element.element) - 1) * staggerSeconds + durationSeconds
    : durationSeconds * repeat;
  const finiteSpan = Number.isFinite(span) ? span : 0;

  let base: number;
  let endAnchored = false;
  if (trigger === 'elementStart') base = element.startSeconds;
  else if (trigger === 'sceneStart') base = 0;
  else if (trigger === 'elementEnd') {
    base = element.endSeconds - finiteSpan;
    endAnchored = true;
  } else if (trigger === 'sceneEnd') {
    base = scene.durationSeconds - finiteSpan;
    endAnchored = true;
  } else if ('at' in trigger) base = seconds(trigger.at);
  else base = finishOf(trigger.after, placement, scene);

  const startSeconds = base + delay + (endAnchored ? -placement.exitOffset : placement.entryOffset);
  return {
    animation,
    startSeconds,
    durationSeconds,
    repeat,
    endSeconds: startSeconds + span,
    easing: animation.easing ?? preset.easing,
    staggerSeconds,
  };
}

/** When every finite animation an element declares has finished; when it appears if it has none. */
function finishOf(id: string, waiting: Placement, scene: SceneContext): number {
  const node = scene.byId.get(id);
  if (!node) {
    throw new Error(
      `${scene.label}: an animation on element "${nodeLabel(waiting.owner)}" waits for {after: "${id}"}, ` +
        `but no element in ${scene.peers} has the id "${id}"; use the id of an element in ${scene.peers}`,
    );
  }
  resolveOwned(node, scene);
  return node.finishSeconds;
}

function resolveOwned(node: ElementNode, scene: SceneContext): void {
  if (node.status === 'done') return;
  if (node.status === 'resolving') {
    const cycle = [...scene.stack.slice(scene.stack.indexOf(node)), node].map(nodeLabel).join(' → ');
    throw new Error(
      `${scene.label}: animations wait for each other in a cycle (${cycle}); ` +
        'start one of them on a time or a scene/element trigger instead of {after}',
    );
  }
  node.status = 'resolving';
  scene.stack.push(node);
  let finish = node.resolved.startSeconds;
  let anyFinite = false;
  for (const placement of node.owned) {
    placement.result = resolvePlacement(placement, scene);
    if (Number.isFinite(placement.result.endSeconds)) {
      finish = anyFinite ? Math.max(finish, placement.result.endSeconds) : placement.result.endSeconds;
      anyFinite = true;
    }
  }
  node.finishSeconds = finish;
  scene.stack.pop();
  node.status = 'done';
}

function resolveElements(elements: readonly ModelElement[], context: SceneContext): ResolvedElement[] {
  const all: ElementNode[] = [];
  const roots = elements.map((element, i) =>
    buildNode(
      element,
      `${context.keyPrefix}/e${i}`,
      { start: 0, end: context.durationSeconds },
      { entry: 0, exit: 0 },
      [],
      context,
      all,
    ),
  );
  for (const node of all) resolveOwned(node, context);
  for (const node of all) node.resolved.animations = node.driving.map((placement) => placement.result!);
  return roots.map((node) => node.resolved);
}

function trackAudio(
  track: AudioTrack,
  startSeconds: number,
  origin: 'music' | 'sfx',
  videoSeconds: number,
  fps: number,
): ResolvedAudio {
  const seconds = (time: Time) => timeToSeconds(time, fps);
  const sourceStartSeconds = seconds(track.trim?.start ?? 0);
  const loop = track.loop ?? false;
  let durationSeconds: number | undefined;
  if (track.duration !== undefined) durationSeconds = seconds(track.duration);
  else if (track.trim?.end !== undefined && !loop)
    durationSeconds = Math.max(0, seconds(track.trim.end) - sourceStartSeconds);
  else if (loop) durationSeconds = Math.max(0, videoSeconds - startSeconds);
  return {
    track,
    startSeconds,
    sourceStartSeconds,
    durationSeconds,
    loop,
    volume: track.volume ?? 1,
    fadeInSeconds: seconds(track.fadeIn ?? 0),
    fadeOutSeconds: seconds(track.fadeOut ?? 0),
    origin,
    rate: 1,
  };
}

/** A clip's own sound plays while the clip is on screen, but not past the end of its trimmed part. */
function clipAudio(element: ResolvedElement, scene: ResolvedLayer, fps: number): ResolvedAudio[] {
  const nested = element.children.flatMap((child) => clipAudio(child, scene, fps));
  const clip = element.element;
  if (clip.type !== 'clip' || clip.muted) return nested;
  const lifetime = element.endSeconds - element.startSeconds;
  if (lifetime <= 0) return nested;
  const seconds = (time: Time) => timeToSeconds(time, fps);
  const rate = clip.rate ?? 1;
  const loop = clip.loop ?? false;
  const sourceStartSeconds = seconds(clip.trim?.start ?? 0);
  const trimmedSeconds =
    clip.trim?.end !== undefined && !loop ? (seconds(clip.trim.end) - sourceStartSeconds) / rate : Infinity;
  const track: AudioTrack = { src: clip.src, loop, volume: clip.volume ?? 1 };
  if (clip.trim) track.trim = clip.trim;
  return [
    {
      track,
      startSeconds: scene.startSeconds + element.startSeconds,
      sourceStartSeconds,
      durationSeconds: Math.max(0, Math.min(lifetime, trimmedSeconds)),
      loop,
      volume: clip.volume ?? 1,
      fadeInSeconds: 0,
      fadeOutSeconds: 0,
      origin: 'clip',
      rate,
    },
    ...nested,
  ];
}

/**
 * The timeline of `model` drawn at `options.aspect` (default its own, else reels). The overrides of the
 * named aspect whose shape the frame has apply; drawn in another shape than the model's own, every
 * element without overrides for it is marked for reflow.
 */
export function resolveTimeline(written: VideoModel, options: ResolveOptions = {}): ResolvedVideo {
  const size = resolveAspect(options.aspect ?? written.aspect ?? 'reels');
  const layout: AspectLayout = {
    aspect: aspectOfSize(size),
    reflowed: !sameShape(size, resolveAspect(written.aspect ?? 'reels')),
  };
  const model = modelForAspect(written, layout.aspect);
  const fps = options.fps ?? model.fps ?? DEFAULT_FPS;
  const seconds = (time: Time) => timeToSeconds(time, fps);

  const scenes: ResolvedScene[] = [];
  model.scenes.forEach((scene, index) => {
    const durationSeconds = seconds(scene.duration);
    const previous = scenes[index - 1];
    const overlap = previous
      ? transitionOverlapSeconds(previous.durationSeconds, durationSeconds, scene.transition, fps)
      : 0;
    const startSeconds = previous ? previous.startSeconds + previous.durationSeconds - overlap : 0;
    const startFrame = Math.round(startSeconds * fps);
    let transitionIn: ResolvedTransition | undefined;
    if (previous && scene.transition && overlap > 0) {
      transitionIn = {
        type: scene.transition.type,
        durationSeconds: overlap,
        frames: previous.endFrame - startFrame,
        easing: scene.transition.easing ?? 'smooth',
        // Wipe and slide: the incoming scene enters from this edge ("left": it comes in from the left).
        direction: scene.transition.direction ?? 'left',
      };
    }
    const label = sceneId(scene, index);
    scenes.push({
      index,
      id: label,
      scene,
      startFrame,
      endFrame: Math.round((startSeconds + durationSeconds) * fps),
      startSeconds,
      durationSeconds,
      kind: 'scene',
      background: scene.background ?? model.background ?? DEFAULT_BACKGROUND,
      transitionIn,
      elements: resolveElements(scene.elements ?? [], {
        keyPrefix: sceneKeyPrefix(index),
        label: `scene "${label}"`,
        peers: 'that scene',
        durationSeconds,
        fps,
        byId: new Map(),
        stack: [],
        layout,
      }),
    });
  });

  const durationFrames = Math.max(0, ...scenes.map((scene) => scene.endFrame));
  const durationSeconds = durationFrames / fps;
  // Overlays are timed against the whole video, as if it were one scene.
  const overlays: ResolvedOverlays = {
    kind: 'overlays',
    startFrame: 0,
    endFrame: durationFrames,
    startSeconds: 0,
    durationSeconds,
    elements: resolveElements(model.overlays ?? [], {
      keyPrefix: OVERLAYS_KEY_PREFIX,
      label: 'the overlays',
      peers: 'the overlays',
      durationSeconds,
      fps,
      byId: new Map(),
      stack: [],
      layout,
    }),
  };
  const audio: ResolvedAudio[] = [
    ...(model.audio ?? []).map((track) =>
      trackAudio(track, seconds(track.start ?? 0), 'music', durationSeconds, fps),
    ),
    ...scenes.flatMap((scene) =>
      (scene.scene.audio ?? []).map((track) =>
        trackAudio(track, scene.startSeconds + seconds(track.start ?? 0), 'sfx', durationSeconds, fps),
      ),
    ),
    ...[...scenes, overlays].flatMap((layer) =>
      layer.elements.flatMap((element) => clipAudio(element, layer, fps)),
    ),
  ];

  return {
    model,
    size,
    aspect: layout.aspect,
    reflowed: layout.reflowed,
    scale: designScale(size),
    fps,
    durationFrames,
    durationSeconds,
    scenes,
    overlays,
    audio,
  };
}

/** The frame drawn for `frame`: a whole frame inside the video (before the start is the first, past the end the last). */
export function drawnFrame(video: ResolvedVideo, frame: number): number {
  const last = Math.max(0, video.durationFrames - 1);
  return Math.min(Math.max(0, Math.floor(frame)), last);
}

/**
 * Which scene(s) show at a frame. During a transition the incoming scene is `current` and the earlier
 * one `outgoing`; progress is the transition's eased progress, 0 on the first overlapped frame.
 */
export function frameComposition(video: ResolvedVideo, frame: number): FrameComposition {
  const at = drawnFrame(video, frame);
  const showing = video.scenes.filter((scene) => scene.startFrame <= at && at < scene.endFrame);
  const fallback = [...video.scenes].reverse().find((scene) => scene.startFrame <= at) ?? video.scenes[0];
  const current = showing[showing.length - 1] ?? fallback;
  if (!current) throw new Error('the video has no scenes; add at least one scene');
  const sceneAt = (scene: ResolvedScene) => ({ scene, seconds: (at - scene.startFrame) / video.fps });
  const outgoing = showing.length > 1 ? showing[showing.length - 2] : undefined;
  const transition = current.transitionIn;
  if (!outgoing || !transition) {
    return { current: sceneAt(current), outgoing: undefined, transition: undefined, progress: 0 };
  }
  const overlapFrames = Math.max(1, outgoing.endFrame - current.startFrame);
  const progress = easingFunction(transition.easing)((at - current.startFrame) / overlapFrames);
  return { current: sceneAt(current), outgoing: sceneAt(outgoing), transition, progress };
}
