// A code element's morph between steps drawn frame by frame with Skia, the bundled mono font and
// shiki's tokens: the window must show code on every frame, not blank out mid-morph.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDrawEnv } from './canvas-host.ts';
import { registerBundledFonts } from '../fonts/register.ts';
import { restingState } from '../../shared/animation/state.ts';
import type { DrawEnv } from '../../shared/canvas/types.ts';
import { loadCodeHighlighter } from '../../shared/code/highlighter.ts';
import { drawCode, measureCode } from '../../shared/elements/code/code-draw.ts';
import type { CodeElement } from '../../shared/spec/code-element.ts';

const FRAME = { width: 1920, height: 1080 };
const FPS = 30;
const noMedia = { image: () => undefined, videoFrame: () => undefined };
let env: DrawEnv;

beforeAll(async () => {
  registerBundledFonts();
  env = createDrawEnv(
    FRAME,
    FPS,
    noMedia,
    undefined,
    await loadCodeHighlighter([{ language: 'typescript', theme: 'github-dark' }]),
  );
}, 20_000);

/** Its body wrapped in try/catch: every line of it is kept, two spaces deeper. */
const BEFORE = [
  'async function load(url: string) {',
  '  const response = await fetch(url);',
  '  const data = await response.json();',
  '  return data.items;',
  '}',
].join('\n');
const AFTER = [
  'async function load(url: string) {',
  '  try {',
  '    const response = await fetch(url);',
  '    const data = await response.json();',
  '    return data.items;',
  '  } catch (error) {',
  '    return [];',
  '  }',
  '}',
].join('\n');
/** The code-walkthrough example's last step: a loop rewritten as a reduce. */
const LOOP = [
  'function total(cart: Item[]): number {',
  '  let sum = 0;',
  '  for (const item of cart) {',
  '    sum += item.price * item.qty;',
  '  }',
  '  return sum;',
  '}',
].join('\n');
const REDUCE = [
  'function total(cart: Item[]): number {',
  '  return cart.reduce(',
  '    (sum, { price, qty }) =>',
  '      sum + price * qty,',
  '    0,',
  '  );',
  '}',
].join('\n');
const STEP_AT = 1;
const MORPH = 0.8;
const DURATION = 3;

function element(fields: Partial<CodeElement> = {}): CodeElement {
  return {
    type: 'code',
    code: BEFORE,
    language: 'typescript',
    lineNumbers: true,
    steps: [{ code: AFTER, at: STEP_AT }],
    morphDuration: MORPH,
    ...fields,
  } as CodeElement;
}

const PANEL = [0x24, 0x29, 0x2e];

/**
 * The code's ink at `elementSeconds`: how far each pixel right of the gutter and below the window
 * bar is from the panel colour, summed, so a glyph faded to half counts half.
 */
function codeInk(code: CodeElement, elementSeconds: number): number {
  const { data, width, height } = drawnAt(code, elementSeconds);
  // 30 px: bar 60, padding 33; the gutter holds one digit and 2.2 columns of 18 px.
  const top = 60;
  const left = 33 + Math.ceil(3.2 * 18);
  let ink = 0;
  for (let y = top; y < height; y++) {
    for (let x = left; x < width; x++) {
      const i = (y * width + x) * 4;
      ink +=
        Math.abs(data[i]! - PANEL[0]!) +
        Math.abs(data[i + 1]! - PANEL[1]!) +
        Math.abs(data[i + 2]! - PANEL[2]!);
    }
  }
  return ink;
}

function drawnAt(code: CodeElement, elementSeconds: number) {
  const size = measureCode(code, env, FRAME.width);
  const surface = env.createSurface(size.width, size.height);
  drawCode({
    ctx: surface.ctx,
    element: code,
    box: { x: 0, y: 0, ...size },
    env,
    state: restingState(),
    time: { frame: 0, sceneSeconds: elementSeconds, elementSeconds, elementDuration: DURATION },
    key: 's0/e0',
    drawChildren: () => {},
  });
  return { data: surface.ctx.getImageData(0, 0, size.width, size.height).data, ...size };
}

/** The least share of the steady code's ink (the lesser of before and after) on any frame of the morph. */
function leastShareOverMorph(code: CodeElement): number {
  const floor = Math.min(codeInk(code, STEP_AT - 1 / FPS), codeInk(code, STEP_AT + MORPH + 1 / FPS));
  let least = Infinity;
  for (let frame = 0; frame <= MORPH * FPS; frame++) {
    least = Math.min(least, codeInk(code, STEP_AT + frame / FPS) / floor);
  }
  return least;
}

describe('code morph drawing', () => {
  it('shows at least 80 % of the steady code on every frame of a morph that re-indents lines', () => {
    expect(leastShareOverMorph(element())).toBeGreaterThanOrEqual(0.8);
  });

  it('keeps the window full while a loop is rewritten as a reduce, most tokens new', () => {
    const code = element({
      code: LOOP,
      steps: [{ code: REDUCE, at: STEP_AT }],
    });
    expect(leastShareOverMorph(code)).toBeGreaterThanOrEqual(0.8);
  });

  it('ends where the still code begins: the last moment of the morph draws the next version', () => {
    const code = element();
    const ending = drawnAt(code, STEP_AT + MORPH - 0.001).data;
    const still = drawnAt(code, STEP_AT + MORPH).data;
    let differing = 0;
    for (let i = 0; i < still.length; i += 4) {
      const difference = Math.max(
        Math.abs(ending[i]! - still[i]!),
        Math.abs(ending[i + 1]! - still[i + 1]!),
        Math.abs(ending[i + 2]! - still[i + 2]!),
      );
      if (difference > 24) differing++;
    }
    expect(differing).toBeLessThan(0.001 * (still.length / 4));
  });
});
