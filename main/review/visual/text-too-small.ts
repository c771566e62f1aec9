// text_too_small: text whose glyphs reach the output too small to read on the screen the video is
// watched on. Judged by the largest size an element reaches across the samples, so a text that
// scales in (or pulses) is judged at its full size.
import { READABLE_ALPHA } from '../capture.ts';
import type { FindingDraft } from '../finding.ts';
import { describeElement, elementInterval, toDesign, worstPerKey } from './check.ts';
import type { VisualCheck } from './check.ts';

/**
 * The smallest font size, as a share of the frame's shorter side: 3 %, 32 px at 1080. A phone shows
 * the shorter side of a reel (or of a landscape video turned sideways) about 390 points wide, so
 * 3 % is about 12 pt there: just above the 11 pt that Apple's and Google's guidelines give as the
 * smallest text to read comfortably. (Font size is the em, so capitals are about 0.7 of it.)
 */
export const MIN_FONT_SHARE = 0.03;

export function minimumFontPx(size: { width: number; height: number }): number {
  return MIN_FONT_SHARE * Math.min(size.width, size.height);
}

export const checkTextTooSmall: VisualCheck = (input) => {
  const minimum = minimumFontPx(input.video.size);
  const sizes = input.samples.flatMap((sample) =>
    sample.texts
      .filter((text) => text.drawn.alpha >= READABLE_ALPHA)
      .map(
        (
          text,
        ): [string, { frame: number; fontPx: number; size: number; element: typeof text.drawn.element }] => [
          text.drawn.key,
          {
            frame: sample.frame,
            fontPx: text.geometry.fontPx,
            size: text.geometry.size,
            element: text.drawn.element,
          },
        ],
      ),
  );
  const drafts: FindingDraft[] = [];
  for (const [key, largest] of worstPerKey(sizes, (a, b) => a.fontPx > b.fontPx)) {
    if (largest.fontPx >= minimum - 0.05) continue;
    const size = toDesign(input.video, largest.size);
    // The spec's size that renders at the minimum under the same transform.
    const needed = Math.ceil((size * minimum) / largest.fontPx - 1e-6);
    drafts.push({
      code: 'text_too_small',
      severity: 'warning',
      ...elementInterval(input, key, largest.frame),
      message:
        `${describeElement(key, largest.element)} renders at ${Number(largest.fontPx.toFixed(1))} px at most, ` +
        `below the ${Number(minimum.toFixed(1))} px minimum (${MIN_FONT_SHARE * 100} % of the frame's shorter side)`,
      remedy: `raise size to at least ${needed} (it is ${Number(size.toFixed(1))}), shortening the text if it then needs more room`,
    });
  }
  return drafts;
};
