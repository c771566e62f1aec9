// The reflow and per-aspect overrides as a viewer sees them, on the landscape promo example drawn as a
// reel: without its overrides every text stays inside the frame and its safe area (the same layout
// written for reels is cut at the left edge, and the pixels show it); with them, each aspect draws as
// its overrides say and reviews clean.
import { describe, expect, it } from 'vitest';
import { loadImage } from '@napi-rs/canvas';
import { createCanvas } from '@napi-rs/canvas';
import type { VideoModel } from '../../shared/spec/model.ts';
import { safeAreaInsets } from '../../shared/spec/sizes.ts';
import { projectContext } from '../engine/project-context.ts';
import { loadProject } from '../project/load.ts';
import { loadSpecFile } from '../project/resolve-input.ts';
import { READABLE_ALPHA } from './capture.ts';
import type { ReviewSample, SampledText } from './capture.ts';
import { transformedBounds } from '../../shared/canvas/device-rect.ts';
import { visualReview } from './visual-review.ts';
import type { VisualReviewOptions } from './visual-review.ts';

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;
const PROMO = `${EXAMPLES}specs/promo-landscape.json`;
const HEADLINE = 's0/e1';
const CARD = 's0/e3';
/** Glyph pixels of the headline (#fdf4ff) on the promo's dark ground; its pink and lilac lines are not as bright. */
const isHeadlineInk = (r: number, g: number, b: number) => r > 200 && g > 200 && b > 200;

function withoutOverrides(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutOverrides);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'aspects')
      .map(([key, field]) => [key, withoutOverrides(field)]),
  );
}

async function review(model: VideoModel, options: Partial<VisualReviewOptions> = {}) {
  const project = await projectContext(await loadProject(EXAMPLES));
  return visualReview({ model, project, aspect: 'reels', samples: 12, ...options });
}

const readable = (sample: ReviewSample): SampledText[] =>
  sample.texts.filter((text) => text.drawn.atRest && text.drawn.alpha >= READABLE_ALPHA);

/** The headline's lines on the first sample that shows it at rest, and that sample. */
function headlineOn(samples: readonly ReviewSample[]): { sample: ReviewSample; text: SampledText } {
  for (const sample of samples) {
    const text = readable(sample).find((candidate) => candidate.drawn.key === HEADLINE);
    if (text) return { sample, text };
  }
  throw new Error('no sample shows the headline at rest');
}

/** Headline-bright pixels in columns [x0, x1) of the rows the headline's lines cover. */
async function inkInColumns(
  sample: ReviewSample,
  text: SampledText,
  x0: number,
  x1: number,
): Promise<number> {
  const image = await loadImage(sample.png!);
  const ctx = createCanvas(image.width, image.height).getContext('2d');
  ctx.drawImage(image, 0, 0);
  let count = 0;
  for (const line of text.geometry.inkLines) {
    const top = Math.max(0, Math.floor(line.y0));
    const height = Math.min(image.height, Math.ceil(line.y1)) - top;
    const { data } = ctx.getImageData(x0, top, x1 - x0, height);
    for (let i = 0; i < data.length; i += 4) if (isHeadlineInk(data[i]!, data[i + 1]!, data[i + 2]!)) count++;
  }
  return count;
}

describe('the landscape promo drawn as a reel', () => {
  const written = loadSpecFile(PROMO);

  it(
    'keeps every text inside the frame and its safe area with no overrides at all',
    { timeout: 60_000 },
    async () => {
      const model = withoutOverrides(await written) as VideoModel;
      const result = await review(model, { png: true });
      const { width, height } = result.video.size;
      const insets = safeAreaInsets(result.video.size);
      const safe = {
        x0: insets.left * width,
        y0: insets.top * height,
        x1: (1 - insets.right) * width,
        y1: (1 - insets.bottom) * height,
      };
      const outside: string[] = [];
      let texts = 0;
      for (const sample of result.samples) {
        for (const text of readable(sample)) {
          texts++;
          const box = transformedBounds(text.drawn.box, text.drawn.transform);
          for (const rect of [box, ...text.geometry.inkLines]) {
            if (
              rect.x0 < safe.x0 - 2 ||
              rect.x1 > safe.x1 + 2 ||
              rect.y0 < safe.y0 - 2 ||
              rect.y1 > safe.y1 + 2
            )
              outside.push(
                `${text.drawn.key} at frame ${sample.frame}: x ${rect.x0}–${rect.x1}, y ${rect.y0}–${rect.y1}`,
              );
          }
        }
      }
      expect(texts).toBeGreaterThan(10);
      expect(outside).toEqual([]);
      const cut = result.drafts.filter((draft) =>
        ['text_overflow', 'offscreen_element', 'unsafe_area'].includes(draft.code),
      );
      expect(cut).toEqual([]);
      // What the viewer sees: no headline glyph left of the safe area.
      const { sample, text } = headlineOn(result.samples);
      expect(await inkInColumns(sample, text, 0, Math.floor(safe.x0) - 2)).toBe(0);
      expect(await inkInColumns(sample, text, Math.ceil(safe.x0), Math.floor(safe.x1))).toBeGreaterThan(1000);
    },
  );

  it(
    'is cut at the left edge when the same layout claims to be written for reels, so nothing reflows',
    { timeout: 60_000 },
    async () => {
      const model = { ...(withoutOverrides(await written) as VideoModel), aspect: 'reels' as const };
      const result = await review(model, { png: true });
      const cut = result.drafts.find((draft) => draft.code === 'text_overflow' && draft.element === HEADLINE);
      expect(cut?.message).toMatch(/past the left edge of the frame/);
      const { sample, text } = headlineOn(result.samples);
      expect(await inkInColumns(sample, text, 0, 4)).toBeGreaterThan(0);
    },
  );

  it(
    'draws as its reels overrides say, reviewed clean, and as written in landscape',
    { timeout: 60_000 },
    async () => {
      const model = await written;
      const reels = await review(model);
      expect(reels.drafts).toEqual([]);
      const box = (result: typeof reels, key: string) => {
        for (const sample of result.samples) {
          const drawn = sample.elements.find((element) => element.key === key && element.atRest);
          if (drawn) return transformedBounds(drawn.box, drawn.transform);
        }
        throw new Error(`${key} is never drawn at rest`);
      };
      // The card moved under the text, 300 design pixels square (1:1 on a reel), centred.
      const card = box(reels, CARD);
      expect(card.x1 - card.x0).toBeCloseTo(300, 0);
      expect((card.x0 + card.x1) / 2).toBeCloseTo(540, 0);
      const headline = headlineOn(reels.samples).text.geometry.ink!;
      expect(card.y0).toBeGreaterThan(headline.y1);
      // In landscape the card is where the spec writes it: 560 wide, right of the headline.
      const landscape = await review(model, { aspect: 'landscape' });
      const asWritten = box(landscape, CARD);
      expect(asWritten.x1 - asWritten.x0).toBeCloseTo(560, 0);
      expect(asWritten.x0).toBeGreaterThan(headlineOn(landscape.samples).text.geometry.ink!.x1);
    },
  );
});
