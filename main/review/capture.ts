// Review's look at the video: a couple of dozen frames spread over the timeline, each drawn once as
// rendered (elements recorded, pixels hashed, optionally PNG-encoded) and, when it shows text at
// rest, once more without text to read what the text sits on. Only compact results are kept per
// sample (no full frames), so memory stays small whatever the frame size.
import type { DrawnElement } from '../../shared/canvas/types.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import { MAX_REVIEW_FRAMES } from '../../shared/protocol/review-frames.ts';
import { indexElements, isAnimatingAt, isAtRest, isInTransition, layerSecondsAt } from './element-timing.ts';
import type { ElementIndex } from './element-timing.ts';
import { clampToFrame, flatness, samplePoints } from './pixels.ts';
import type { Flatness } from './pixels.ts';
import { cancellationPoint } from '../engine/cancellation-point.ts';
import { encodePng } from '../engine/png.ts';
import { sha256 } from './review-session.ts';
import type { ReviewSession, TextRun } from './review-session.ts';
import { isDrawnText, textGeometry, unionRect } from './text-geometry.ts';
import type { DrawnText, TextGeometry } from './text-geometry.ts';

/** Below this opacity a text is not being read: where it sits and what lies behind it do not matter. */
export const READABLE_ALPHA = 0.05;

export interface SampledElement extends DrawnElement {
  /** Not in a transition, and neither it nor a group around it is entering, leaving or keyframed. */
  atRest: boolean;
}

export interface SampledText {
  drawn: SampledElement & DrawnText;
  geometry: TextGeometry;
  /**
   * RGB triples of the frame drawn without text, inside the text's glyph bands: what the glyphs sit
   * on. Read only for text at rest and visible; undefined otherwise.
   */
  backdrop: Uint8Array | undefined;
}

export interface ReviewSample {
  frame: number;
  seconds: number;
  /** sha256 of the frame's straight RGBA pixels. */
  sha256: string;
  flatness: Flatness;
  /** Every element drawn on the frame, in drawing order (groups before their children). */
  elements: SampledElement[];
  /** Each distinct run of text drawn, by element, with its font: what missing_glyph reads. */
  textRuns: TextRun[];
  texts: SampledText[];
  /** The frame as PNG, when asked for. */
  png: Buffer | undefined;
}

/** Elements moving in or out at a frame (a transition counts as many): what makes a frame a poor sample. */
function restlessness(video: ResolvedVideo, index: ElementIndex, frame: number): number {
  let moving = isInTransition(video, frame) ? 100 : 0;
  for (const timing of index.values()) {
    const seconds = layerSecondsAt(timing.layer, frame, video.fps);
    const { startSeconds, endSeconds } = timing.resolved;
    if (seconds >= startSeconds && seconds < endSeconds && isAnimatingAt(timing.resolved, seconds, video.fps))
      moving++;
  }
  return moving;
}

/**
 * Up to `count` (at most MAX_REVIEW_FRAMES) distinct frames spread evenly over the whole timeline, first and last
 * included. Each frame between them may move by up to half the spacing to a nearby frame where fewer
 * elements are entering or leaving and no transition runs, so checks that judge elements at rest
 * have more to judge.
 */
export function sampleFrames(video: ResolvedVideo, count: number): number[] {
  const total = video.durationFrames;
  if (total <= 0) return [];
  const wanted = Math.max(1, Math.min(MAX_REVIEW_FRAMES, Math.floor(count), total));
  if (wanted === 1) return [0];
  if (wanted >= total) return Array.from({ length: total }, (_, i) => i);
  const index = indexElements(video);
  const spacing = (total - 1) / (wanted - 1);
  const reach = Math.max(0, Math.floor((spacing - 1) / 2));
  const frames = new Set<number>();
  for (let i = 0; i < wanted; i++) {
    const target = Math.round(i * spacing);
    if (i === 0 || i === wanted - 1 || reach === 0) {
      frames.add(target);
      continue;
    }
    let best = target;
    let bestScore = restlessness(video, index, target);
    for (let offset = 1; offset <= reach && bestScore > 0; offset++) {
      for (const frame of [target - offset, target + offset]) {
        const score = restlessness(video, index, frame);
        if (score < bestScore) [best, bestScore] = [frame, score];
      }
    }
    frames.add(best);
  }
  return [...frames].sort((a, b) => a - b);
}

export interface CaptureOptions {
  /** Encode each sample as PNG (on the thread pool, overlapping the next draw). */
  png?: boolean | undefined;
  signal?: AbortSignal | undefined;
  /** Called after each sample is drawn, with how many of how many are done (for progress bars). */
  onSample?: ((done: number, total: number) => void) | undefined;
}

/** Draws one sample frame and reduces it to what the checks read. */
async function captureFrame(
  session: ReviewSession,
  index: ElementIndex,
  frame: number,
  png: boolean,
): Promise<{ sample: Omit<ReviewSample, 'png'>; png: Promise<Buffer> | undefined }> {
  const { video } = session;
  const { elements: drawn, textRuns } = await session.drawObserved(frame);
  const rgba = session.rgba();
  const encoded = png ? encodePng(rgba, video.size.width, video.size.height) : undefined;
  const elements: SampledElement[] = drawn.map((element) => ({
    ...element,
    atRest: !element.inTransition && isAtRest(index, element.key, frame, video.fps),
  }));
  const texts: SampledText[] = elements.filter(isDrawnText).map((text) => ({
    drawn: text,
    geometry: textGeometry(session.measuring.ctx, session.layoutEnv, text),
    backdrop: undefined,
  }));
  const readable = texts.filter((text) => text.drawn.atRest && text.drawn.alpha >= READABLE_ALPHA);
  const areas = readable.flatMap((text) => {
    const area = unionRect(text.geometry.glyphBands);
    const pixels = area && clampToFrame(area, video.size);
    return pixels ? [{ text, pixels }] : [];
  });
  if (areas.length > 0) {
    await session.drawWithoutText(
      frame,
      areas.map((area) => area.pixels),
    );
    for (const { text, pixels } of areas) {
      text.backdrop = samplePoints(session.region(pixels), pixels, text.geometry.glyphBands);
    }
  }
  const sample = {
    frame,
    seconds: frame / video.fps,
    sha256: sha256(rgba),
    flatness: flatness(rgba, video.size),
    elements,
    textRuns,
    texts,
  };
  return { sample, png: encoded };
}

/** Captures the given frames in order on a review session. */
export async function captureSamples(
  session: ReviewSession,
  frames: readonly number[],
  options: CaptureOptions = {},
): Promise<ReviewSample[]> {
  const index = indexElements(session.video);
  const captured: { sample: Omit<ReviewSample, 'png'>; png: Promise<Buffer> | undefined }[] = [];
  try {
    for (const frame of frames) {
      await cancellationPoint(options.signal);
      captured.push(await captureFrame(session, index, frame, options.png ?? false));
      options.onSample?.(captured.length, frames.length);
    }
  } finally {
    // Encodes still running must settle before the caller moves on (or closes the session).
    await Promise.allSettled(captured.map((entry) => entry.png));
  }
  return Promise.all(captured.map(async (entry) => ({ ...entry.sample, png: await entry.png })));
}
