// The resolved timeline: every time in seconds and frames, every trigger settled.
import type { Animation, Direction, Easing } from '../spec/primitives.ts';
import type { AudioTrack } from '../spec/audio.ts';
import type { Background } from '../spec/background.ts';
import type { ModelElement, ModelScene, VideoModel } from '../spec/model.ts';
import type { TransitionType } from '../spec/schema.ts';
import type { AspectName, FrameSize } from '../spec/sizes.ts';

export interface ResolvedAnimation {
  animation: Animation;
  /** Seconds from the scene start when the (first repetition of the) animation begins. */
  startSeconds: number;
  /** Length of one repetition in seconds. */
  durationSeconds: number;
  /** Number of repetitions; Infinity for "forever". */
  repeat: number;
  /** Seconds from the scene start when it has fully finished (Infinity for endless loops). */
  endSeconds: number;
  easing: Easing;
  /** For wordByWord and group stagger: the delay between successive words or children. */
  staggerSeconds: number;
}

export interface ResolvedElement {
  /** Unique path in the video, e.g. "s0/e2/e1" (a scene's), "o/e0" (an overlay). */
  key: string;
  element: ModelElement;
  /** Seconds from the start of its layer (its scene, or the video for overlays). */
  startSeconds: number;
  endSeconds: number;
  animations: ResolvedAnimation[];
  /** Group children, with their own timings (group stagger already applied). */
  children: ResolvedElement[];
  /**
   * Drawn in an aspect its video was not laid out for, without overrides of its own for that aspect:
   * placement keeps its text inside the safe area (shared/elements/reflow.ts).
   */
  reflow?: true;
}

export interface ResolvedTransition {
  type: TransitionType;
  /** Overlap with the previous scene. */
  durationSeconds: number;
  frames: number;
  easing: Easing;
  direction: Direction;
}

/** What a list of elements is timed against: its run of the video. */
interface LayerSpan {
  /** First frame (inclusive) and end frame (exclusive) in the video, transitions included. */
  startFrame: number;
  endFrame: number;
  startSeconds: number;
  durationSeconds: number;
  elements: ResolvedElement[];
}

export interface ResolvedScene extends LayerSpan {
  kind: 'scene';
  index: number;
  id: string;
  scene: ModelScene;
  background: Background;
  /** How this scene enters; undefined for the first scene and for cuts. */
  transitionIn: ResolvedTransition | undefined;
}

/** The overlays: elements over the whole video, drawn above every scene and outside transitions. */
export interface ResolvedOverlays extends LayerSpan {
  kind: 'overlays';
}

/** Where an element's times count from: its scene, or the overlays (the whole video). */
export type ResolvedLayer = ResolvedScene | ResolvedOverlays;

export interface ResolvedAudio {
  track: AudioTrack;
  /** Seconds from the video start. */
  startSeconds: number;
  /** Where playback starts in the source, and how long it plays (undefined: to the source end). */
  sourceStartSeconds: number;
  durationSeconds: number | undefined;
  loop: boolean;
  volume: number;
  fadeInSeconds: number;
  fadeOutSeconds: number;
  /** "music", "sfx" (scene audio) or "clip" (a clip element's own sound). */
  origin: 'music' | 'sfx' | 'clip';
  /** Playback rate (clips). */
  rate: number;
}

export interface ResolvedVideo {
  /** The model as this aspect shows it: its overrides for the aspect merged in (aspect-model.ts). */
  model: VideoModel;
  size: FrameSize;
  /** The named aspect the frame has the shape of, whose overrides apply; none for other shapes. */
  aspect?: AspectName | undefined;
  /** Drawn in a shape other than the one the video was laid out for (its `aspect`, else reels). */
  reflowed?: boolean;
  /** Design pixels to real pixels. */
  scale: number;
  fps: number;
  durationFrames: number;
  durationSeconds: number;
  scenes: ResolvedScene[];
  /** Always there; without overlays in the model its element list is empty. */
  overlays: ResolvedOverlays;
  audio: ResolvedAudio[];
}

/** One scene visible at a frame, with its local time; two during a transition. */
export interface SceneAtFrame {
  scene: ResolvedScene;
  /** Seconds from the scene start. */
  seconds: number;
}

export interface FrameComposition {
  /** The incoming (or only) scene. */
  current: SceneAtFrame;
  /** During a transition: the outgoing scene and the transition's eased progress 0..1. */
  outgoing: SceneAtFrame | undefined;
  transition: ResolvedTransition | undefined;
  progress: number;
}
