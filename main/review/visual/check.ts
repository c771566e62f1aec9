// What every visual check reads, and how findings name elements, times and lengths.
import type { ModelElement } from '../../../shared/spec/model.ts';
import type { GlyphCoverage } from '../../fonts/glyph-coverage.ts';
import type { ResolvedVideo } from '../../../shared/timeline/types.ts';
import type { ReviewSample } from '../capture.ts';
import type { CaptionTrack } from '../captions/caption-tracks.ts';
import type { ElementIndex } from '../element-timing.ts';
import { lifetimeFrames } from '../element-timing.ts';
import type { FindingDraft } from '../finding.ts';

export interface VisualCheckInput {
  video: ResolvedVideo;
  index: ElementIndex;
  samples: readonly ReviewSample[];
  /** Every captions element with the frames each page is on screen (what a caption shows, and how long). */
  captions: readonly CaptionTrack[];
  /** Which characters the video's fonts have (bundled and declared); without it none is checked. */
  glyphs?: GlyphCoverage | undefined;
}

export type VisualCheck = (input: VisualCheckInput) => FindingDraft[];

const EXCERPT_LENGTH = 40;

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= EXCERPT_LENGTH ? flat : `${flat.slice(0, EXCERPT_LENGTH - 1).trimEnd()}…`;
}

/** How messages name an element: its type, its text, its id and key, e.g. `text "Hello" (id "title", s0/e1)`. */
export function describeElement(key: string, element: ModelElement): string {
  const text = element.type === 'text' ? ` ${JSON.stringify(excerpt(element.text))}` : '';
  const id = element.id === undefined ? '' : `id "${element.id}", `;
  return `${element.type}${text} (${id}${key})`;
}

export function formatSeconds(seconds: number): string {
  return `${Number(seconds.toFixed(2))} s`;
}

/** A length in design pixels (what the spec's numbers mean), from output pixels. */
export function toDesign(video: ResolvedVideo, pixels: number): number {
  return pixels / video.scale;
}

/** The element's lifetime as a finding interval, looking at `focusFrame`. */
export function elementInterval(
  input: VisualCheckInput,
  key: string,
  focusFrame: number,
): Pick<FindingDraft, 'startFrame' | 'endFrame' | 'focusFrame' | 'element'> {
  const timing = input.index.get(key);
  const span = timing
    ? lifetimeFrames(timing, input.video.fps)
    : { startFrame: focusFrame, endFrame: focusFrame + 1 };
  const startFrame = Math.min(span.startFrame, focusFrame);
  const endFrame = Math.max(span.endFrame, focusFrame + 1);
  return { startFrame, endFrame, focusFrame, element: key };
}

/** Keeps, per key, the entry that `better` prefers (the worst case is what a finding reports). */
export function worstPerKey<T>(
  entries: Iterable<[string, T]>,
  better: (a: T, b: T) => boolean,
): Map<string, T> {
  const worst = new Map<string, T>();
  for (const [key, value] of entries) {
    const current = worst.get(key);
    if (current === undefined || better(value, current)) worst.set(key, value);
  }
  return worst;
}
