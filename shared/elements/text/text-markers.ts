// Highlighter markers on a text block: the element's highlight spans resolved for a frame, and their
// swept bands drawn under the words, which take a readable colour as the sweep passes them.
import { easingFunction } from '../../animation/easing.ts';
import { roundedRectPath } from '../../canvas/paint.ts';
import type { Ctx2D } from '../../canvas/types.ts';
import { canvasColor, contrastRatio, parseColor } from '../../spec/color.ts';
import type { TextElement } from '../../spec/text-element.ts';
import { timeToSeconds } from '../../spec/time.ts';
import { markerRects, spanRanges, sweptRects } from './text-effects.ts';
import type { WordPlacement } from './text-effects.ts';
import type { RunPainter, TextStyle } from './text-measure.ts';

/** A highlighter marker: from just over the x-height to just under the baseline, a little wider than the words. */
const MARKER_TOP_EM = 0.82;
const MARKER_BOTTOM_EM = 0.16;
const MARKER_PAD_X_EM = 0.12;
const MARKER_RADIUS_EM = 0.1;
const DEFAULT_MARKER_COLOR = '#fde047';
const DEFAULT_MARKER_START_SECONDS = 0.3;
const DEFAULT_MARKER_SWEEP_SECONDS = 0.5;

/** A marker span resolved for one frame: what it covers, its colours and how far it has swept. */
export interface MarkerSpan {
  words?: number | readonly [number, number] | undefined;
  match?: string | undefined;
  color: string;
  /** The covered words' colour once the sweep passes them. */
  textColor: string | undefined;
  progress: number;
}

/** The band of a line a marker covers: most of the em box, a little over the glyphs. */
function markerBand(style: TextStyle): (baseline: number) => { top: number; height: number } {
  return (baseline) => ({
    top: baseline - MARKER_TOP_EM * style.size,
    height: (MARKER_TOP_EM + MARKER_BOTTOM_EM) * style.size,
  });
}

export function drawMarkers(
  ctx: Ctx2D,
  text: string,
  words: readonly WordPlacement[],
  markers: readonly MarkerSpan[],
  painter: RunPainter,
  style: TextStyle,
): Map<number, string> {
  const textColors = new Map<number, string>();
  for (const marker of markers) {
    const rects = markerRects(
      words,
      spanRanges(text, marker),
      painter.measure,
      markerBand(style),
      MARKER_PAD_X_EM * style.size,
    );
    const swept = sweptRects(rects, marker.progress);
    if (swept.length === 0) continue;
    ctx.beginPath();
    for (const rect of swept) roundedRectPath(ctx, rect, MARKER_RADIUS_EM * style.size);
    ctx.fillStyle = canvasColor(marker.color);
    ctx.fill();
    const textColor = marker.textColor ?? readableOn(marker.color);
    // A word takes the marker's text colour once the sweep has passed its middle.
    swept.forEach((rect, i) => {
      const full = rects[i]!;
      for (const index of rect.words) {
        const word = words.find((placed) => placed.word.index === index);
        if (!word) continue;
        const middle = word.x + word.word.width / 2;
        if (rect.x + rect.width >= middle || rect.width >= full.width) textColors.set(index, textColor);
      }
    });
  }
  return textColors;
}

const BLACK = { r: 0, g: 0, b: 0, a: 1 };
const WHITE = { r: 255, g: 255, b: 255, a: 1 };

/** Black or white, whichever contrasts more with the colour. */
function readableOn(color: string): string {
  const rgba = parseColor(color);
  if (!rgba) return '#000000';
  return contrastRatio(rgba, BLACK) >= contrastRatio(rgba, WHITE) ? '#000000' : '#ffffff';
}

export function markersAt(
  element: TextElement,
  elementSeconds: number,
  fps: number,
): MarkerSpan[] | undefined {
  return element.highlight?.map((span) => {
    const start = span.start === undefined ? DEFAULT_MARKER_START_SECONDS : timeToSeconds(span.start, fps);
    const duration =
      span.duration === undefined ? DEFAULT_MARKER_SWEEP_SECONDS : timeToSeconds(span.duration, fps);
    const linear = duration <= 0 ? (elementSeconds >= start ? 1 : 0) : (elementSeconds - start) / duration;
    return {
      words: span.words,
      match: span.match,
      color: span.color ?? DEFAULT_MARKER_COLOR,
      textColor: span.textColor,
      progress: easingFunction('inOut')(Math.min(1, Math.max(0, linear))),
    };
  });
}
