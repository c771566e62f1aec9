// label_overlap: labels of one chart drawn over each other (value labels of narrow bars, of thin pie
// slices, of crowded points), so neither reads. Judged from the labels the chart reports as it draws.
import type { SampledText } from '../capture.ts';
import { READABLE_ALPHA } from '../capture.ts';
import type { FindingDraft } from '../finding.ts';
import type { FrameRect } from '../../../shared/canvas/device-rect.ts';
import { describeElement, elementInterval, formatSeconds, toDesign, worstPerKey } from './check.ts';
import type { VisualCheck } from './check.ts';

/** Anti-aliased edges of neighbours may touch; only more than this is an overlap. */
const TOUCH_PX = 2;

interface Overlap {
  a: SampledText;
  b: SampledText;
  /** The share of the size that would part them: 0.8 means at 80 % of the size they no longer meet. */
  fit: number;
}

interface Crowded {
  frame: number;
  seconds: number;
  overlaps: Overlap[];
}

function overlap(a: FrameRect, b: FrameRect): { x: number; y: number } {
  return { x: Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), y: Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) };
}

/** How much smaller both labels must be, about their centres, to stop meeting along the easier axis. */
function fitShare(a: FrameRect, b: FrameRect): number {
  const along = (a0: number, a1: number, b0: number, b1: number) =>
    Math.abs((a0 + a1) / 2 - (b0 + b1) / 2) / ((a1 - a0 + b1 - b0) / 2);
  return Math.max(along(a.x0, a.x1, b.x0, b.x1), along(a.y0, a.y1, b.y0, b.y1));
}

function quoted(text: SampledText): string {
  return JSON.stringify(text.drawn.element.text);
}

export const checkLabelOverlap: VisualCheck = (input) => {
  const crowded: [string, Crowded][] = [];
  for (const sample of input.samples) {
    const byChart = new Map<string, SampledText[]>();
    for (const text of sample.texts) {
      const owner = input.index.get(text.drawn.key)?.resolved.element;
      if (owner?.type !== 'chart' || !text.drawn.atRest || text.drawn.alpha < READABLE_ALPHA) continue;
      if (!text.geometry.ink) continue;
      byChart.set(text.drawn.key, [...(byChart.get(text.drawn.key) ?? []), text]);
    }
    for (const [key, texts] of byChart) {
      const overlaps: Overlap[] = [];
      for (let i = 0; i < texts.length; i++) {
        for (let j = i + 1; j < texts.length; j++) {
          const [a, b] = [texts[i]!, texts[j]!];
          const meet = overlap(a.geometry.ink!, b.geometry.ink!);
          if (meet.x > TOUCH_PX && meet.y > TOUCH_PX)
            overlaps.push({ a, b, fit: fitShare(a.geometry.ink!, b.geometry.ink!) });
        }
      }
      if (overlaps.length > 0)
        crowded.push([key, { frame: sample.frame, seconds: sample.seconds, overlaps }]);
    }
  }
  const drafts: FindingDraft[] = [];
  for (const [key, worst] of worstPerKey(crowded, (a, b) => a.overlaps.length > b.overlaps.length)) {
    const first = worst.overlaps[0]!;
    const owner = input.index.get(key)!.resolved.element;
    const size = Math.round(toDesign(input.video, first.a.geometry.size));
    const fit = Math.min(...worst.overlaps.map((overlapping) => overlapping.fit));
    const smaller = Math.max(1, Math.floor(size * fit));
    const pairs = worst.overlaps.length;
    drafts.push({
      code: 'label_overlap',
      severity: 'warning',
      ...elementInterval(input, key, worst.frame),
      message: `${describeElement(key, owner)} draws ${pairs} pair${pairs === 1 ? '' : 's'} of labels over each other at ${formatSeconds(worst.seconds)}, e.g. ${quoted(first.a)} and ${quoted(first.b)}, so neither reads`,
      remedy: `show fewer labels (valueLabels: 'none', or fewer categories), lower size to about ${smaller} (it is ${size}), use horizontal: true for bars, or make the chart larger (width, height)`,
    });
  }
  return drafts;
};
