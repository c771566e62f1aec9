// Caption boxes drawn with the real Skia canvas over the brightest and darkest video there is: a
// white frame and a black one. The box must carry its text over white, and the line boxes of one
// page must read as one box, with no darker band where they overlap.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDrawEnv, createSkiaSurface, readRgba } from './canvas-host.ts';
import { registerBundledFonts } from '../fonts/register.ts';
import { restingState } from '../../shared/animation/state.ts';
import type { Box, DrawEnv } from '../../shared/canvas/types.ts';
import {
  DEFAULT_HIGHLIGHT_COLOR,
  captionTextStyle,
  drawCaptions,
  pageBox,
  pagesFor,
} from '../../shared/elements/captions/captions-draw.ts';
import { pageAt } from '../../shared/elements/captions/captions-pages.ts';
import { backgroundPadding, layoutTextElement } from '../../shared/elements/text/text-measure.ts';
import { CaptionsElementSchema } from '../../shared/spec/captions-element.ts';
import type { CaptionsElement } from '../../shared/spec/captions-element.ts';
import { contrastRatio, parseColor } from '../../shared/spec/color.ts';
import type { Rgba } from '../../shared/spec/color.ts';

const FRAME = { width: 1080, height: 1920 };
const BOX: Box = { x: 60, y: 200, width: 960, height: 1500 };
/** One cue, two lines on one page: a long line over a short one. */
const SRT = '1\n00:00:00,000 --> 00:00:03,000\nThe waves came in slow and bright over the sand\n';
let env: DrawEnv;

beforeAll(() => {
  registerBundledFonts();
  env = createDrawEnv(FRAME, 30, { image: () => undefined, videoFrame: () => undefined });
});

function captions(fields: Record<string, unknown> = {}): CaptionsElement {
  return CaptionsElementSchema.parse({ type: 'captions', srt: SRT, ...fields });
}

function draw(element: CaptionsElement, behind: string): { at: (x: number, y: number) => Rgba } {
  const surface = createSkiaSurface(FRAME.width, FRAME.height);
  surface.ctx.fillStyle = behind;
  surface.ctx.fillRect(0, 0, FRAME.width, FRAME.height);
  drawCaptions({
    ctx: surface.ctx,
    element,
    box: BOX,
    env,
    state: restingState(),
    time: { frame: 30, sceneSeconds: 1, elementSeconds: 1, elementDuration: 3 },
    key: 's0/e0',
    drawChildren: () => {},
  });
  const pixels = readRgba(surface);
  return {
    at: (x, y) => {
      const i = (Math.floor(y) * FRAME.width + Math.floor(x)) * 4;
      return { r: pixels[i]!, g: pixels[i + 1]!, b: pixels[i + 2]!, a: 1 };
    },
  };
}

/** The page showing at 1 s, laid out: each line's box (with the background padding) on the frame. */
function lineBoxes(element: CaptionsElement): Box[] {
  const page = pageAt(pagesFor(element, env, BOX), 1)!;
  const text = captionTextStyle(element, page.text);
  const layout = layoutTextElement(createSkiaSurface(1, 1).ctx, text, env, pageBox(element, env, BOX, text));
  const padding = backgroundPadding(text, env, layout.style.size);
  return layout.lines.map((line) => ({
    x: layout.area.x + line.x - padding.x,
    y: layout.top + line.y - padding.y,
    width: line.width + 2 * padding.x,
    height: layout.lineHeight + 2 * padding.y,
  }));
}

const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

describe('the default caption box', () => {
  for (const style of ['subtitle', 'karaoke'] as const) {
    it(`${style}: carries its text over a white frame nearly as well as over a black one`, () => {
      const element = captions({ style });
      const [first] = lineBoxes(element);
      // The left padding of the first line: box, no glyph.
      const x = first!.x + 6;
      const y = first!.y + first!.height / 2;
      const overWhite = draw(element, '#ffffff').at(x, y);
      const overBlack = draw(element, '#000000').at(x, y);
      const white = contrastRatio(WHITE, overWhite);
      // Bright video takes at most a quarter of the text's contrast, and leaves it AAA (7:1) and more.
      expect(white).toBeGreaterThanOrEqual(0.75 * contrastRatio(WHITE, overBlack));
      expect(white).toBeGreaterThan(15);
      if (style === 'karaoke')
        expect(contrastRatio(parseColor(DEFAULT_HIGHLIGHT_COLOR)!, overWhite)).toBeGreaterThan(7);
    });
  }

  it('draws the two line boxes of a page as one shape: no darker band where they overlap', () => {
    // Clear text, so every dark pixel is box.
    const element = captions({ color: 'rgba(0, 0, 0, 0)' });
    const lines = lineBoxes(element);
    expect(lines).toHaveLength(2);
    const [first, second] = lines;
    expect(second!.y).toBeLessThan(first!.y + first!.height);
    const frame = draw(element, '#ffffff');
    const box = frame.at(first!.x + 20, first!.y + 8);
    // Down a column through the first box, the overlap and the second box: one colour all along.
    const x = second!.x + second!.width / 2;
    const seen = new Set<string>();
    for (let y = first!.y + 8; y < second!.y + second!.height - 8; y++) {
      const { r, g, b } = frame.at(x, y);
      seen.add(`${r},${g},${b}`);
    }
    expect([...seen]).toEqual([`${box.r},${box.g},${box.b}`]);
  });
});
