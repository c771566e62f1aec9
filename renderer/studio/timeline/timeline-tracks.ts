// The Timeline's rows, from the timeline the preview plays (so they follow every build, for .ts and
// .json alike, and the aspect shown): one per scene, one per element of a scene, one per overlay.
// Frames are counted as inspect counts them (main/inspect/timeline-facts.ts), rounded once.
import type { ModelElement } from '../../../shared/spec/model.ts';
import type { ResolvedElement, ResolvedVideo } from '../../../shared/timeline/types.ts';
import { elementPointer } from '../../../shared/timeline/element-keys.ts';

export interface Track {
  /** The element key ("s0/e2", "o/e1"), or "s0" for a scene's own row. */
  key: string;
  kind: 'scene' | 'element' | 'overlay';
  /** What the row is called: the id, else the start of the text, else the source, else the type. */
  label: string;
  type: string;
  /** Frames [startFrame, endFrame). */
  startFrame: number;
  endFrame: number;
  /** JSON pointer into the spec ("/scenes/0", "/scenes/0/elements/2", "/overlays/1"). */
  pointer: string;
  /** What finds the element in a .ts source: its id, its text, its media source. */
  needles: string[];
}

const LABEL_CHARS = 40;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= LABEL_CHARS ? flat : `${flat.slice(0, LABEL_CHARS - 1)}…`;
}

function needlesOf(element: ModelElement): string[] {
  const fields = element as { id?: unknown; text?: unknown; src?: unknown };
  return [fields.id, fields.text, fields.src].filter(
    (value): value is string => typeof value === 'string' && value.trim() !== '',
  );
}

function elementLabel(element: ModelElement): string {
  const [first] = needlesOf(element);
  return first === undefined ? element.type : excerpt(first);
}

function elementTrack(
  resolved: ResolvedElement,
  layerStartSeconds: number,
  fps: number,
  kind: Track['kind'],
): Track {
  return {
    key: resolved.key,
    kind,
    label: elementLabel(resolved.element),
    type: resolved.element.type,
    startFrame: Math.round((layerStartSeconds + resolved.startSeconds) * fps),
    endFrame: Math.round((layerStartSeconds + resolved.endSeconds) * fps),
    pointer: elementPointer(resolved.key) ?? '',
    needles: needlesOf(resolved.element),
  };
}

export function tracksOf(video: ResolvedVideo): Track[] {
  const tracks: Track[] = [];
  for (const scene of video.scenes) {
    tracks.push({
      key: `s${scene.index}`,
      kind: 'scene',
      label: scene.id,
      type: 'scene',
      startFrame: scene.startFrame,
      endFrame: scene.endFrame,
      pointer: `/scenes/${scene.index}`,
      needles: scene.scene.id ? [scene.scene.id] : [],
    });
    for (const element of scene.elements)
      tracks.push(elementTrack(element, scene.startSeconds, video.fps, 'element'));
  }
  for (const element of video.overlays.elements)
    tracks.push(elementTrack(element, video.overlays.startSeconds, video.fps, 'overlay'));
  return tracks;
}

/** The row a finding's element belongs on: its own, else its top-level group's ("s0/e2/e1" → "s0/e2"). */
export function trackKeyOf(elementKey: string, tracks: readonly Track[]): string | undefined {
  const top = /^(s\d+\/e\d+|o\/e\d+)/.exec(elementKey)?.[1];
  return tracks.find((track) => track.key === elementKey || track.key === top)?.key;
}

/** The scene row a frame falls in (a finding about the whole frame sits there). */
export function sceneKeyAt(frame: number, tracks: readonly Track[]): string | undefined {
  return tracks.find((t) => t.kind === 'scene' && frame >= t.startFrame && frame < t.endFrame)?.key;
}
