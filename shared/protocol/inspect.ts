// What `inspect` answers: a composition's timeline and the files it reads, as JSON facts. Made by
// main/inspect, read by the session CLI, the studio and agents.
import type { ResolvedAudio } from '../timeline/types.ts';

/** Frames [startFrame, endFrame) in the video. */
export interface FrameInterval {
  startFrame: number;
  endFrame: number;
}

export interface AnimationFact extends FrameInterval {
  preset: string;
  kind: string;
  /** A count, or "forever" for endless loops (Infinity is not JSON). */
  repeat: number | 'forever';
}

export interface ElementFact extends FrameInterval {
  /** "s0/e2/e1" for a scene's element, "o/e0" for an overlay. */
  key: string;
  /** Where it is written in the spec: "/scenes/0/elements/2/children/1", "/overlays/0". */
  pointer: string;
  id?: string;
  type: string;
  /** A short description: the start of the text, the media source, the fill. */
  label: string;
  /**
   * What the element is made of, one short line each, for elements with parts: a chart's series, a
   * code block's lines, a terminal's commands, an annotation's target.
   */
  parts?: string[];
  animations: AnimationFact[];
  children?: ElementFact[];
}

export interface SceneFact extends FrameInterval {
  index: number;
  id: string;
  startSeconds: number;
  durationSeconds: number;
  /** A deliberate still (the spec's `hold`). */
  hold: boolean;
  background: string;
  transitionIn?: { type: string; frames: number; seconds: number };
  elements: ElementFact[];
}

export interface AudioFact {
  src: string;
  origin: ResolvedAudio['origin'];
  startFrame: number;
  /** Undefined when it plays to the source's end, which only the file knows. */
  endFrame?: number;
  volume: number;
  loop: boolean;
}

export interface TimelineFacts {
  fps: number;
  width: number;
  height: number;
  durationFrames: number;
  durationSeconds: number;
  scenes: SceneFact[];
  /** Elements over the whole video, timed from its start, drawn above every scene. */
  overlays: ElementFact[];
  audio: AudioFact[];
}

/** The file behind a source, or why there is none. */
export interface FileFacts {
  path?: string;
  bytes?: number;
  sha256?: string;
  /** http(s) sources: whether the download cache already holds a copy (inspect never downloads). */
  remote?: 'cached' | 'not-downloaded';
  /** Why a render cannot use it, e.g. "missing_asset: media source … not found (looked for …)". */
  missing?: string;
  /** The MediaError code behind `missing`. */
  missingCode?: string;
  /** A similarly named file where it was looked for, as a source string (a likely typo). */
  suggestion?: string;
}

export interface AssetFact extends FileFacts {
  src: string;
  kind: MediaKind;
  width?: number;
  height?: number;
  durationSeconds?: number;
  /** Videos and audio: whether the file has a sound stream. */
  hasAudio?: boolean;
  uses: SourceUse[];
}

export type FontOrigin = 'bundled' | 'project' | 'spec' | 'undeclared';

export interface FontFact extends FileFacts {
  family: string;
  /** bundled: ships with Kino; project: kino.json fonts; spec: the video's fonts; undeclared: neither. */
  origin: FontOrigin;
  src?: string;
  weight?: number;
  italic?: boolean;
  /** Text elements that ask for this family (for a bundled face: those this face draws). */
  usedBy: TextFontUse[];
}

export interface ResourceFacts {
  root: string;
  assetsDir: string;
  assets: AssetFact[];
  fonts: FontFact[];
}

export interface InspectResult {
  timeline: TimelineFacts;
  resources: ResourceFacts;
  warnings: string[];
}

export type MediaKind = 'image' | 'video' | 'audio' | 'captions' | 'data';

export interface SourceUse extends FrameInterval {
  /** The element key ("s0/e2", "o/e0"), "s1/background", or "audio/<n>" for the n-th soundtrack entry. */
  key: string;
  /** Whether `key` names an element, so a finding can point at it. */
  isElement: boolean;
  kind: MediaKind;
}

export interface TextFontUse extends FrameInterval {
  key: string;
  family: string;
  weight: number;
  italic: boolean;
}
