// The code element drawn with Skia, the bundled mono font and shiki's tokens: what a viewer sees.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDrawEnv } from './canvas-host.ts';
import { registerBundledFonts } from '../fonts/register.ts';
import { restingState } from '../../shared/animation/state.ts';
import type { TypingState } from '../../shared/animation/state.ts';
import type { DrawEnv } from '../../shared/canvas/types.ts';
import { loadCodeHighlighter } from '../../shared/code/highlighter.ts';
import { drawCode, measureCode } from '../../shared/elements/code/code-draw.ts';
import { drawMarkdown, measureMarkdown } from '../../shared/elements/markdown/markdown-draw.ts';
import type { CodeElement } from '../../shared/spec/code-element.ts';
import { typingUnits } from '../../shared/timeline/resolve.ts';
import type { MarkdownElement } from '../../shared/spec/markdown-element.ts';

const FRAME = { width: 1920, height: 1080 };
const noMedia = { image: () => undefined, videoFrame: () => undefined };
let env: DrawEnv;

beforeAll(async () => {
  registerBundledFonts();
  env = createDrawEnv(
    FRAME,
    30,
    noMedia,
    undefined,
    await loadCodeHighlighter([{ language: 'typescript', theme: 'github-dark' }]),
  );
}, 20_000);

const CODE = 'const total = items\n  .map((item) => item.price)\n  .reduce((a, b) => a + b, 0);';

function code(fields: Partial<CodeElement> = {}): CodeElement {
  return { type: 'code', code: CODE, language: 'typescript', ...fields } as CodeElement;
}

function draw(element: CodeElement, typing?: TypingState, elementSeconds = 0): Uint8ClampedArray {
  const size = measureCode(element, env, FRAME.width);
  const surface = env.createSurface(size.width, size.height);
  drawCode({
    ctx: surface.ctx,
    element,
    box: { x: 0, y: 0, ...size },
    env,
    state: { ...restingState(), typing },
    time: { frame: 0, sceneSeconds: elementSeconds, elementSeconds, elementDuration: 4 },
    key: 's0/e0',
    drawChildren: () => {},
  });
  return surface.ctx.getImageData(0, 0, size.width, size.height).data;
}

/** Pixels far from the panel colour: ink of the drawn characters. */
function inkPixels(data: Uint8ClampedArray): number {
  let count = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i]! - 0x24) + Math.abs(data[i + 1]! - 0x29) + Math.abs(data[i + 2]! - 0x2e) > 120)
      count++;
  }
  return count;
}

const typing = (fraction: number): TypingState => ({ fraction, by: 'character', cursor: undefined });

describe('code element drawing', () => {
  it('sizes the panel from its widest line and its lines, chrome included', () => {
    const size = measureCode(code(), env, FRAME.width);
    // 30 px JetBrains Mono at scale 1 is 18 px a column; the widest line has 30 columns.
    expect(size.width).toBe(Math.ceil(2 * 33 + 30 * 18));
    // Bar (2 em), padding (2 × 1.1 em), three lines of 1.5 em.
    expect(size.height).toBe(Math.ceil(60 + 66 + 3 * 45));
  });

  it('draws the last frame of a typing reveal exactly as the static code', () => {
    expect(Buffer.from(draw(code(), typing(1))).equals(Buffer.from(draw(code())))).toBe(true);
  });

  it('types characters in reading order as the fraction grows', () => {
    const none = inkPixels(draw(code(), typing(0)));
    const some = inkPixels(draw(code(), typing(0.3)));
    const all = inkPixels(draw(code()));
    // Window dots are ink too: nothing typed leaves only them.
    expect(some).toBeGreaterThan(none);
    expect(all).toBeGreaterThan(some);
  });

  it('types as many characters as the typewriter counts, spaces for free', () => {
    // "const total = items" has 16 characters besides spaces; the whole code has 62.
    const element = code({ window: { dots: false } });
    expect(typingUnits(element, 'character')).toBe(62);
    const size = measureCode(element, env, FRAME.width);
    const data = draw(element, typing(16 / 62));
    const rowInk = (row: number) => {
      let count = 0;
      for (let y = Math.round(33 + row * 45); y < 33 + (row + 1) * 45; y++)
        for (let x = 0; x < size.width; x++) {
          const i = (y * size.width + x) * 4;
          if (data[i]! + data[i + 1]! + data[i + 2]! > 450) count++;
        }
      return count;
    };
    expect(rowInk(0)).toBeGreaterThan(100);
    expect(rowInk(1)).toBe(0);
  });

  it('tints highlighted lines with the accent and dims unfocused ones', () => {
    const element = code({ window: { dots: false }, highlight: [2], focus: [2], accent: '#ff0000' });
    const size = measureCode(element, env, FRAME.width);
    const data = draw(element);
    const lineHeight = 45;
    const pixel = (x: number, y: number) =>
      Array.from(data.slice((y * size.width + x) * 4, (y * size.width + x) * 4 + 4));
    const rowMiddle = (row: number) => Math.round(33 + (row + 0.5) * lineHeight);
    // The accent bar at the left of line 2, and a reddish band across it.
    expect(pixel(1, rowMiddle(1))).toEqual([255, 0, 0, 255]);
    const band = pixel(size.width - 4, rowMiddle(1));
    expect(band[0]! - band[2]!).toBeGreaterThan(20);
    // Line 1 (dimmed) shows much less ink than line 2.
    const ink = (row: number) => {
      let count = 0;
      for (let y = Math.round(33 + row * lineHeight); y < 33 + (row + 1) * lineHeight; y++)
        for (let x = 40; x < size.width - 10; x++) {
          const [r, g, b] = pixel(x, y);
          if (r! + g! + b! > 450) count++;
        }
      return count;
    };
    expect(ink(0)).toBe(0);
    expect(ink(1)).toBeGreaterThan(50);
  });
});

describe('markdown element drawing', () => {
  it('draws a fenced code block with the code element and wraps text to its width', () => {
    const element: MarkdownElement = {
      type: 'markdown',
      markdown:
        '## Changes\n\nThe loop became a **single reduce** over the items.\n\n```ts\nconst a = 1;\n```',
    };
    const narrow = measureMarkdown(element, env, 500);
    const wide = measureMarkdown(element, env, 1600);
    expect(narrow.height).toBeGreaterThan(wide.height);
    const surface = env.createSurface(800, narrow.height);
    drawMarkdown({
      ctx: surface.ctx,
      element,
      box: { x: 0, y: 0, width: 500, height: narrow.height },
      env,
      state: restingState(),
      time: { frame: 0, sceneSeconds: 0, elementSeconds: 0, elementDuration: 4 },
      key: 's0/e0',
      drawChildren: () => {},
    });
    // The code panel's github-dark background at the bottom of the block.
    const data = surface.ctx.getImageData(250, narrow.height - 6, 1, 1).data;
    expect(Array.from(data)).toEqual([0x24, 0x29, 0x2e, 255]);
  });
});
