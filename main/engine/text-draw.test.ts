// Draws with the real Skia canvas and the bundled fonts, and checks the pixels a viewer would see.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDrawEnv, createSkiaSurface } from './canvas-host.ts';
import { registerBundledFonts } from '../fonts/register.ts';
import { restingState } from '../../shared/animation/state.ts';
import type { AnimatedState } from '../../shared/animation/state.ts';
import type { Box, Ctx2D, DrawEnv } from '../../shared/canvas/types.ts';
import { drawText } from '../../shared/elements/text/text-draw.ts';
import { layoutTextElement, measureText } from '../../shared/elements/text/text-measure.ts';
import { ELLIPSIS } from '../../shared/elements/text/text-layout.ts';
import type { TextElement } from '../../shared/spec/text-element.ts';

const FRAME = { width: 1920, height: 1080 };
const noMedia = { image: () => undefined, videoFrame: () => undefined };
let env: DrawEnv;

beforeAll(() => {
  registerBundledFonts();
  env = createDrawEnv(FRAME, 30, noMedia);
});

function text(fields: Partial<TextElement> & { text: string }): TextElement {
  return { type: 'text', ...fields } as TextElement;
}

interface Rendered {
  data: Uint8ClampedArray;
  width: number;
  height: number;
  at(x: number, y: number): [number, number, number, number];
}

function render(
  element: TextElement,
  box: Box,
  options: { state?: Partial<AnimatedState>; size?: { width: number; height: number }; env?: DrawEnv } = {},
  prepare?: (ctx: Ctx2D) => void,
): Rendered {
  const { width, height } = options.size ?? { width: 1200, height: 400 };
  const drawEnv = options.env ?? env;
  const surface = drawEnv.createSurface(width, height);
  const ctx = surface.ctx;
  ctx.fillStyle = '#000000';
  ctx.fillRect(0, 0, width, height);
  prepare?.(ctx);
  drawText({
    ctx,
    element,
    box,
    env: drawEnv,
    state: { ...restingState(), ...options.state },
    time: { frame: 0, sceneSeconds: 0, elementSeconds: 0, elementDuration: 2 },
    key: 's0/e0',
    drawChildren: () => {},
  });
  const data = ctx.getImageData(0, 0, width, height).data;
  return {
    data,
    width,
    height,
    at: (x, y) => {
      const i = (Math.round(y) * width + Math.round(x)) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
    },
  };
}

/** Bounds of the pixels that pass `lit`. */
function litBounds(image: Rendered, lit = (r: number, g: number, b: number) => r + g + b > 384) {
  let left = Infinity;
  let right = -Infinity;
  let top = Infinity;
  let bottom = -Infinity;
  let count = 0;
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      if (!lit(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!)) continue;
      count++;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
    }
  }
  return { left, right, top, bottom, count };
}

/** Runs of consecutive rows that hold lit pixels: one per visible line of text. */
function litRowBands(image: Rendered): number {
  let bands = 0;
  let inBand = false;
  for (let y = 0; y < image.height; y++) {
    let any = false;
    for (let x = 0; x < image.width && !any; x++) any = image.data[(y * image.width + x) * 4]! > 128;
    if (any && !inBand) bands++;
    inBand = any;
  }
  return bands;
}

function countPixels(image: Rendered, match: (r: number, g: number, b: number) => boolean): number {
  let count = 0;
  for (let i = 0; i < image.data.length; i += 4)
    if (match(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!)) count++;
  return count;
}

const isRed = (r: number, g: number, b: number) => r > 200 && g < 60 && b < 60;
const isWhite = (r: number, g: number, b: number) => r > 200 && g > 200 && b > 200;

describe('measureText', () => {
  it('is the widest line by all lines, and wraps at the width it is given', () => {
    const element = text({ text: 'Ship videos from code', size: 72 });
    const wide = measureText(element, env, 5000);
    expect(wide.height).toBe(Math.ceil(72 * 1.15));
    expect(wide.width).toBeGreaterThan(500);
    const narrow = measureText(element, env, wide.width * 0.7);
    expect(narrow.height).toBe(Math.ceil(2 * 72 * 1.15));
    expect(narrow.width).toBeLessThanOrEqual(wide.width * 0.7);
    expect(narrow.width).toBeGreaterThan(wide.width * 0.3);
  });

  it('lays out the same lines again in the size it returned', () => {
    const element = text({ text: 'Programmatic video with verified output, every time', size: 64 });
    const size = measureText(element, env, 700);
    const layout = layoutTextElement(env.createSurface(1, 1).ctx, element, env, { x: 0, y: 0, ...size });
    const again = layoutTextElement(env.createSurface(1, 1).ctx, element, env, {
      x: 0,
      y: 0,
      width: 700,
      height: 1000,
    });
    expect(layout.lines.map((l) => l.text)).toEqual(again.lines.map((l) => l.text));
    expect(layout.overflow).toBe(false);
  });

  it('includes the background padding (0.5em by 0.25em by default)', () => {
    const plain = measureText(text({ text: 'Pill', size: 80 }), env, 2000);
    const padded = measureText(text({ text: 'Pill', size: 80, background: { color: '#fff' } }), env, 2000);
    expect(padded.width - plain.width).toBeCloseTo(80, 0);
    expect(padded.height - plain.height).toBeCloseTo(40, 0);
  });

  it('uses the frame height for a % size and upper-cases when asked', () => {
    const element = text({ text: 'hello', size: '10%', transform: 'uppercase' });
    const layout = layoutTextElement(env.createSurface(1, 1).ctx, element, env, {
      x: 0,
      y: 0,
      width: 2000,
      height: 500,
    });
    expect(layout.lines[0]!.text).toBe('HELLO');
    expect(layout.style.size).toBe(108);
  });
});

describe('drawText layout on the canvas', () => {
  const box = { x: 100, y: 50, width: 1000, height: 300 };

  it('wraps to the box width: two lines of ink, none outside the box', () => {
    const element = text({ text: 'Render every frame faithfully', size: 72 });
    const oneLine = measureText(element, env, 5000).width;
    const narrow = { ...box, width: Math.ceil(oneLine * 0.75) };
    const image = render(element, narrow);
    expect(litRowBands(image)).toBe(2);
    const ink = litBounds(image);
    expect(ink.left).toBeGreaterThanOrEqual(narrow.x);
    expect(ink.right).toBeLessThanOrEqual(narrow.x + narrow.width);
  });

  it('puts left-aligned ink at the left edge, right-aligned at the right, centred in the middle', () => {
    const ink = (align: 'left' | 'center' | 'right') =>
      litBounds(render(text({ text: 'Align me', size: 72, align }), box));
    const left = ink('left');
    const right = ink('right');
    const center = ink('center');
    expect(left.left - box.x).toBeGreaterThanOrEqual(0);
    expect(left.left - box.x).toBeLessThan(10);
    expect(box.x + box.width - right.right).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width - right.right).toBeLessThan(10);
    expect(Math.abs((center.left + center.right) / 2 - (box.x + box.width / 2))).toBeLessThan(5);
    // The block is centred vertically too.
    expect(Math.abs((center.top + center.bottom) / 2 - (box.y + box.height / 2))).toBeLessThan(12);
  });

  it('cuts to maxLines with an ellipsis on the last line', () => {
    const element = text({
      text: 'One two three four five six seven eight nine ten eleven twelve thirteen fourteen',
      size: 60,
      maxLines: 2,
    });
    const layout = layoutTextElement(env.createSurface(1, 1).ctx, element, env, { ...box, width: 500 });
    expect(layout.lines).toHaveLength(2);
    expect(layout.lines[1]!.text.endsWith(ELLIPSIS)).toBe(true);
    expect(layout.truncated).toBe(true);
    expect(layout.lines[1]!.width).toBeLessThanOrEqual(500);
    expect(litRowBands(render(element, { ...box, width: 500 }))).toBe(2);
  });

  it('reports text taller than its box as overflow', () => {
    const element = text({ text: 'A\nB\nC', size: 72 });
    const ctx = env.createSurface(1, 1).ctx;
    expect(layoutTextElement(ctx, element, env, { ...box, height: 200 }).overflow).toBe(true);
    expect(layoutTextElement(ctx, element, env, { ...box, height: 260 }).overflow).toBe(false);
  });
});

describe('drawText styling', () => {
  const box = { x: 100, y: 50, width: 1000, height: 300 };

  it('draws a pill behind the text: pill color inside, rounded off at the corners', () => {
    const element = text({ text: 'Live now', size: 72, background: { color: '#ff0000', radius: 'pill' } });
    const size = measureText(element, env, 1000);
    const pill = { x: 200, y: 100, ...size };
    const image = render(element, pill);
    const red = litBounds(image, isRed);
    expect(red.left).toBeGreaterThanOrEqual(pill.x - 1);
    expect(red.right).toBeLessThanOrEqual(pill.x + pill.width + 1);
    expect(red.bottom - red.top).toBeGreaterThan(pill.height - 3);
    // Inside the left cap, at mid-height, it is the pill color; at the box corner it is rounded away.
    expect(image.at(pill.x + 4, pill.y + pill.height / 2)).toEqual([255, 0, 0, 255]);
    expect(image.at(pill.x + 3, pill.y + 3)).toEqual([0, 0, 0, 255]);
    expect(image.at(pill.x + pill.width / 2, pill.y + 3)).toEqual([255, 0, 0, 255]);
    // The text is drawn over the pill.
    expect(countPixels(image, isWhite)).toBeGreaterThan(2000);
  });

  it('fills overlapping per-line background boxes once, so translucent color is not doubled', () => {
    const element = text({
      text: 'First line\nSecond line',
      size: 60,
      background: { color: 'rgba(255,0,0,0.5)' },
    });
    const layout = layoutTextElement(env.createSurface(1, 1).ctx, element, env, box);
    const image = render(element, box);
    // Where the two line boxes overlap (between the lines, at the left padding).
    const x = box.x + layout.area.x - box.x + Math.max(layout.lines[0]!.x, layout.lines[1]!.x) - 10;
    const between = image.at(x, layout.top + layout.lineHeight);
    const single = image.at(x, layout.top + layout.lineHeight / 2 - 30);
    expect(between[0]).toBeGreaterThan(100);
    expect(between[0]).toBe(single[0]);
  });

  it('outlines glyphs with the stroke color under the fill', () => {
    const plain = render(text({ text: 'Outline', size: 96 }), box);
    const outlined = render(text({ text: 'Outline', size: 96, stroke: { color: '#ff0000', width: 6 } }), box);
    expect(countPixels(plain, isRed)).toBe(0);
    const red = countPixels(outlined, isRed);
    expect(red).toBeGreaterThan(3000);
    // Under the fill: the white glyph interiors are not eaten by the outline.
    const whitePlain = countPixels(plain, isWhite);
    expect(Math.abs(countPixels(outlined, isWhite) - whitePlain) / whitePlain).toBeLessThan(0.08);
    // The outline surrounds the glyphs: its ink reaches about 6px beyond theirs.
    const glyphs = litBounds(plain);
    const outline = litBounds(outlined, isRed);
    expect(glyphs.left - outline.left).toBeGreaterThanOrEqual(4);
    expect(outline.right - glyphs.right).toBeGreaterThanOrEqual(4);
  });

  // Issue 12: with a transparent fill the stroke of every contour showed, the ones Inter 800 draws
  // overlapping inside t, e and d included. Only the outline outside the glyphs may show.
  it('draws outline-only text (transparent fill) with no stroke inside the glyphs', () => {
    const glyphs = { text: 'ted', size: 300, weight: 800 } as const;
    const filled = render(text({ ...glyphs, color: '#ffffff' }), box);
    const outlined = render(
      text({ ...glyphs, color: 'rgba(0, 0, 0, 0)', stroke: { color: '#ff0000', width: 6 } }),
      box,
    );
    // Pixels deep inside the glyphs: lit in the filled text, and so are their 4 neighbours 3 px away.
    let inside = 0;
    let strokedInside = 0;
    const lit = (x: number, y: number) => filled.at(x, y)[0] > 250;
    for (let y = 4; y < filled.height - 4; y++) {
      for (let x = 4; x < filled.width - 4; x++) {
        if (!(lit(x, y) && lit(x - 3, y) && lit(x + 3, y) && lit(x, y - 3) && lit(x, y + 3))) continue;
        inside++;
        if (outlined.at(x, y)[0] > 40) strokedInside++;
      }
    }
    expect(inside).toBeGreaterThan(5000);
    expect(strokedInside).toBe(0);
    // And the outline outside them is still there, all round.
    expect(countPixels(outlined, isRed)).toBeGreaterThan(3000);
  });

  it('casts one even shadow for outline and fill together, offset from the glyphs', () => {
    const element = text({
      text: 'I',
      size: 300,
      weight: 900,
      align: 'left',
      stroke: { color: '#ffffff', width: 8 },
      textShadow: { color: 'rgba(0,0,255,0.5)', x: 200 },
    });
    const image = render(element, { x: 100, y: 0, width: 800, height: 400 });
    const glyph = litBounds(image, isWhite);
    const shadow = litBounds(image, (r, g, b) => b > 100 && r < 20 && g < 20);
    expect(shadow.left - glyph.left).toBeGreaterThan(195);
    expect(shadow.left - glyph.left).toBeLessThan(205);
    // Across the shadowed stem, the shadow is one even tone: the outline's and the fill's shadows
    // are not stacked (darker band along the edges) nor is the fill's missing (hollow middle).
    const y = (shadow.top + shadow.bottom) / 2;
    const tones = new Set<number>();
    for (let x = shadow.left + 2; x <= shadow.right - 2; x++) tones.add(image.at(x, y)[2]);
    expect([...tones]).toEqual([128]);
  });

  it('lays every shadow under all the glyphs, so no line is darkened by the shadow of another', () => {
    const lines = text({ text: 'Upper line\nLower line', size: 72 });
    const plain = countPixels(render(lines, box), isWhite);
    // The shadow of the lower line is cast up onto the upper line.
    const shadowed = render({ ...lines, textShadow: { color: '#0000ff', y: -60 } }, box);
    expect(countPixels(shadowed, isWhite)).toBe(plain);
    expect(countPixels(shadowed, (r, g, b) => b > 200 && r < 60 && g < 60)).toBeGreaterThan(1000);
  });

  it('draws the same pixels when the box is moved by the transform instead (layer alignment)', () => {
    const element = text({
      text: 'Layered',
      size: 80,
      stroke: { color: '#00ff00', width: 5 },
      textShadow: { color: 'rgba(0,0,255,0.8)', blur: 10, y: 8 },
    });
    const direct = render(element, { x: 150, y: 70, width: 800, height: 200 });
    const moved = render(element, { x: 0, y: 0, width: 800, height: 200 }, {}, (ctx) =>
      ctx.translate(150, 70),
    );
    expect(Buffer.compare(Buffer.from(direct.data), Buffer.from(moved.data))).toBe(0);
  });

  it('uses keyframed color, and keyframed size grows the text without re-wrapping', () => {
    const element = text({ text: 'Grow me', size: 60, color: '#ffffff' });
    const green = render(element, box, { state: { props: { color: '#00ff00' } } });
    expect(countPixels(green, isWhite)).toBe(0);
    expect(countPixels(green, (r, g, b) => g > 200 && r < 60 && b < 60)).toBeGreaterThan(1000);
    const natural = measureText(element, env, 1000);
    const tight = { x: 300, y: 100, ...natural };
    const normal = litBounds(render(element, tight));
    const grown = render(element, tight, { state: { props: { size: 120 } } });
    expect(litRowBands(grown)).toBe(1);
    const big = litBounds(grown);
    expect((big.bottom - big.top) / (normal.bottom - normal.top)).toBeCloseTo(2, 1);
    expect(Math.abs((big.left + big.right) / 2 - (normal.left + normal.right) / 2)).toBeLessThan(4);
  });
});

describe('degenerate sizes', () => {
  it('draws nothing at a keyframed size of 0 or below, rather than falling back to another font size', () => {
    const box = { x: 100, y: 50, width: 1000, height: 300 };
    const element = text({ text: 'Grow from nothing', size: 60 });
    for (const size of [0, -20, 1e-7]) {
      const image = render(element, box, { state: { props: { size } } });
      expect(countPixels(image, (r, g, b) => r + g + b > 60)).toBe(0);
    }
    expect(measureText({ ...element, size: -5 }, env, 1000)).toEqual({ width: 0, height: 0 });
  });
});

describe('letter spacing', () => {
  it('widens the text by the spacing between characters, and the ink matches the measure', () => {
    const element = text({ text: 'SPACED', size: 80, align: 'left', letterSpacing: 0.25 });
    const tight = measureText({ ...element, letterSpacing: 0 }, env, 2000);
    const spaced = measureText(element, env, 2000);
    expect(spaced.width - tight.width).toBeCloseTo(5 * 0.25 * 80, -1);
    const ink = litBounds(render(element, { x: 100, y: 50, ...spaced }));
    expect(Math.abs(ink.right - ink.left - spaced.width)).toBeLessThan(12);
  });

  it('draws character by character where ctx.letterSpacing is missing, measuring the same', () => {
    // A context without the letterSpacing property, as in browsers that lack it.
    const withoutLetterSpacing = (ctx: Ctx2D): Ctx2D =>
      new Proxy(ctx, {
        get(target, property) {
          if (property === 'letterSpacing') return undefined;
          const value = Reflect.get(target, property, target) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
        set: (target, property, value) => Reflect.set(target, property, value, target),
      });
    const oldEnv: DrawEnv = {
      ...env,
      createSurface(width, height) {
        const surface = createSkiaSurface(width, height);
        return { canvas: surface.canvas, ctx: withoutLetterSpacing(surface.ctx) };
      },
    };
    const element = text({ text: 'TRACKING', size: 80, align: 'left', letterSpacing: 0.3 });
    const native = measureText(element, env, 2000);
    const perChar = measureText(element, oldEnv, 2000);
    expect(Math.abs(perChar.width - native.width) / native.width).toBeLessThan(0.03);
    const ink = litBounds(render(element, { x: 100, y: 50, ...perChar }, { env: oldEnv }));
    expect(Math.abs(ink.right - ink.left - perChar.width)).toBeLessThan(12);
  });
});

describe('wordByWord', () => {
  const box = { x: 100, y: 50, width: 1000, height: 300 };
  const element = text({ text: 'Words rise one by one', size: 72, stroke: { color: '#ff0000', width: 4 } });

  it('draws nothing at progress 0 and exactly the static text at progress 1', () => {
    const blank = render(text({ text: 'x', size: 1, color: '#000' }), box);
    const hidden = render(element, box, { state: { wordProgress: () => 0 } });
    expect(Buffer.compare(Buffer.from(hidden.data), Buffer.from(blank.data))).toBe(0);
    const normal = render(element, box);
    const revealed = render(element, box, { state: { wordProgress: () => 1 } });
    expect(Buffer.compare(Buffer.from(revealed.data), Buffer.from(normal.data))).toBe(0);
  });

  it('shows only the words revealed so far, each where the static text has it', () => {
    const layout = layoutTextElement(env.createSurface(1, 1).ctx, element, env, box);
    const first = layout.lines[0]!.words[0]!;
    const firstRight = layout.area.x + layout.lines[0]!.x + first.x + first.width;
    const image = render(element, box, { state: { wordProgress: (index) => (index === 0 ? 1 : 0) } });
    const ink = litBounds(image, (r, g, b) => r + g + b > 100);
    expect(ink.right).toBeLessThanOrEqual(firstRight + 6);
    expect(ink.left).toBeGreaterThanOrEqual(layout.area.x + layout.lines[0]!.x - 6);
  });

  it('fades a word in from below, its outline not showing through its fill', () => {
    const half = render(element, box, { state: { wordProgress: (index) => (index === 0 ? 0.5 : 0) } });
    const full = render(element, box, { state: { wordProgress: (index) => (index === 0 ? 1 : 0) } });
    const halfInk = litBounds(half, (r, g, b) => r + g + b > 40);
    const fullInk = litBounds(full, (r, g, b) => r + g + b > 40);
    expect(halfInk.top - fullInk.top).toBeCloseTo(0.5 * 0.3 * 72, -1);
    // Glyph interiors are half white over black: grey, not tinted by the red outline beneath.
    const interiors = countPixels(
      half,
      (r, g, b) => Math.abs(r - 128) < 6 && Math.abs(g - 128) < 6 && Math.abs(b - 128) < 6,
    );
    const tinted = countPixels(half, (r, g, b) => r > 150 && g > 90 && g < 120 && b > 90 && b < 120);
    expect(interiors).toBeGreaterThan(500);
    expect(tinted).toBe(0);
  });
});

describe('sample title', () => {
  it('renders a title with stroke, shadow and a solid pill behind it', () => {
    const surface = createSkiaSurface(1280, 400);
    const ctx = surface.ctx;
    const sky = ctx.createLinearGradient(0, 0, 1280, 400);
    sky.addColorStop(0, '#1e3a8a');
    sky.addColorStop(1, '#9d174d');
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, 1280, 400);
    const element = text({
      text: 'Kino renders titles',
      size: 96,
      weight: 800,
      color: '#ffffff',
      stroke: { color: '#0f172a', width: 5 },
      textShadow: { color: 'rgba(0,0,0,0.6)', blur: 18, y: 8 },
      background: { color: '#f59e0b', radius: 'pill' },
    });
    const size = measureText(element, env, 1200);
    const box = { x: (1280 - size.width) / 2, y: (400 - size.height) / 2, ...size };
    drawText({
      ctx,
      element,
      box,
      env,
      state: restingState(),
      time: { frame: 0, sceneSeconds: 0, elementSeconds: 0, elementDuration: 2 },
      key: 's0/e0',
      drawChildren: () => {},
    });
    const pill = ctx.getImageData(Math.round(box.x + 10), Math.round(box.y + box.height / 2), 1, 1).data;
    expect([...pill]).toEqual([0xf5, 0x9e, 0x0b, 255]);
  });
});
