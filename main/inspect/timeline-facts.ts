// The resolved timeline as plain JSON facts: what plays when, in video frames, so an author (or an
// agent) can see where every scene, element, animation and sound sits without reading the resolver.
import { PRESETS } from '../../shared/animation/presets.ts';
import type { Background } from '../../shared/spec/background.ts';
import type { ModelElement } from '../../shared/spec/model.ts';
import { annotationLabel, annotationParts } from './annotation-facts.ts';
import { chartLabel, chartParts } from './chart-facts.ts';
import { codeLabel, codeParts, markdownLabel, markdownParts } from './code-facts.ts';
import { terminalLabel, terminalParts } from './terminal-facts.ts';
import type {
  ResolvedAnimation,
  ResolvedAudio,
  ResolvedElement,
  ResolvedLayer,
  ResolvedScene,
  ResolvedVideo,
} from '../../shared/timeline/types.ts';
import { elementPointer } from '../../shared/timeline/element-keys.ts';
import type {
  FrameInterval,
  AnimationFact,
  ElementFact,
  SceneFact,
  AudioFact,
  TimelineFacts,
} from '../../shared/protocol/inspect.ts';

const LABEL_CHARS = 60;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= LABEL_CHARS ? flat : `${flat.slice(0, LABEL_CHARS - 1)}…`;
}

function paintLabel(paint: unknown): string {
  if (typeof paint === 'string') return paint;
  if (paint && typeof paint === 'object' && 'type' in paint) return `${String(paint.type)} gradient`;
  return 'no fill';
}

function elementLabel(element: ModelElement): string {
  switch (element.type) {
    case 'text':
      return excerpt(element.text);
    case 'counter':
      return `${element.prefix ?? ''}${element.from ?? 0} → ${element.to}${element.suffix ?? ''}`;
    case 'captions':
      return element.words
        ? `${element.words.length} timed words`
        : `${element.style ?? 'subtitle'} captions`;
    case 'image':
    case 'clip':
      return element.src;
    case 'group':
      return `${element.children.length} children`;
    case 'terminal':
      return terminalLabel(element);
    case 'chart':
      return chartLabel(element);
    case 'code':
      return codeLabel(element);
    case 'markdown':
      return markdownLabel(element);
    case 'custom':
      return 'custom drawing';
    case 'line':
      return `line ${element.stroke.color}`;
    case 'path':
      return `path ${paintLabel(element.fill)}`;
    case 'arrow':
    case 'callout':
    case 'spotlight':
    case 'lowerThird':
    case 'titleCard':
    case 'progressBar':
      return annotationLabel(element, excerpt);
    default:
      return `${element.type} ${paintLabel(element.fill)}`;
  }
}

/** The parts inspect lists for elements made of parts; undefined for the rest. */
function elementParts(element: ModelElement): string[] | undefined {
  switch (element.type) {
    case 'arrow':
    case 'callout':
    case 'spotlight':
    case 'lowerThird':
    case 'titleCard':
    case 'progressBar':
      return annotationParts(element, excerpt);
    case 'chart':
      return chartParts(element);
    case 'code':
      return codeParts(element);
    case 'markdown':
      return markdownParts(element);
    case 'terminal':
      return terminalParts(element);
    default:
      return undefined;
  }
}

function backgroundLabel(background: Background): string {
  if (typeof background === 'string') return background;
  switch (background.type) {
    case 'color':
      return background.color;
    case 'image':
    case 'video':
      return `${background.type} ${background.src}`;
    default:
      return `${background.type} background`;
  }
}

/**
 * Frames an element shows on, counted the way the media plan counts them (scene start seconds plus
 * element seconds, rounded once), so intervals here match where its media is decoded.
 */
export function elementInterval(
  scene: Pick<ResolvedLayer, 'startSeconds'>,
  element: Pick<ResolvedElement, 'startSeconds' | 'endSeconds'>,
  fps: number,
): FrameInterval {
  return {
    startFrame: Math.round((scene.startSeconds + element.startSeconds) * fps),
    endFrame: Math.round((scene.startSeconds + element.endSeconds) * fps),
  };
}

function animationFact(
  animation: ResolvedAnimation,
  scene: ResolvedLayer,
  owner: FrameInterval,
  fps: number,
): AnimationFact {
  const start = Math.round((scene.startSeconds + animation.startSeconds) * fps);
  // An endless loop plays as long as its element does.
  const end = Number.isFinite(animation.endSeconds)
    ? Math.round((scene.startSeconds + animation.endSeconds) * fps)
    : owner.endFrame;
  return {
    preset: animation.animation.preset,
    kind: PRESETS[animation.animation.preset].kind,
    startFrame: start,
    endFrame: Math.max(start, end),
    repeat: Number.isFinite(animation.repeat) ? animation.repeat : 'forever',
  };
}

function elementFact(resolved: ResolvedElement, scene: ResolvedLayer, fps: number): ElementFact {
  const interval = elementInterval(scene, resolved, fps);
  const fact: ElementFact = {
    key: resolved.key,
    pointer: elementPointer(resolved.key) ?? '',
    type: resolved.element.type,
    label: elementLabel(resolved.element),
    ...interval,
    animations: resolved.animations.map((animation) => animationFact(animation, scene, interval, fps)),
  };
  if (resolved.element.id !== undefined) fact.id = resolved.element.id;
  const parts = elementParts(resolved.element);
  if (parts !== undefined) fact.parts = parts;
  if (resolved.children.length > 0)
    fact.children = resolved.children.map((child) => elementFact(child, scene, fps));
  return fact;
}

function sceneFact(scene: ResolvedScene, fps: number): SceneFact {
  const fact: SceneFact = {
    index: scene.index,
    id: scene.id,
    startFrame: scene.startFrame,
    endFrame: scene.endFrame,
    startSeconds: scene.startSeconds,
    durationSeconds: scene.durationSeconds,
    hold: scene.scene.hold ?? false,
    background: backgroundLabel(scene.background),
    elements: scene.elements.map((element) => elementFact(element, scene, fps)),
  };
  if (scene.transitionIn) {
    fact.transitionIn = {
      type: scene.transitionIn.type,
      frames: scene.transitionIn.frames,
      seconds: scene.transitionIn.durationSeconds,
    };
  }
  return fact;
}

function audioFact(audio: ResolvedAudio, fps: number, durationFrames: number): AudioFact {
  const fact: AudioFact = {
    src: audio.track.src,
    origin: audio.origin,
    startFrame: Math.round(audio.startSeconds * fps),
    volume: audio.volume,
    loop: audio.loop,
  };
  // The mix is cut where the video ends.
  if (audio.durationSeconds !== undefined)
    fact.endFrame = Math.min(durationFrames, Math.round((audio.startSeconds + audio.durationSeconds) * fps));
  return fact;
}

export function timelineFacts(video: ResolvedVideo): TimelineFacts {
  return {
    fps: video.fps,
    width: video.size.width,
    height: video.size.height,
    durationFrames: video.durationFrames,
    durationSeconds: video.durationSeconds,
    scenes: video.scenes.map((scene) => sceneFact(scene, video.fps)),
    overlays: video.overlays.elements.map((element) => elementFact(element, video.overlays, video.fps)),
    audio: video.audio.map((audio) => audioFact(audio, video.fps, video.durationFrames)),
  };
}
