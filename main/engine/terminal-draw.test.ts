// The terminal drawn with the real Skia canvas and the bundled fonts: the pixels a viewer would see.
import { beforeAll, describe, expect, it } from 'vitest';
import { createDrawEnv } from './canvas-host.ts';
import { registerBundledFonts } from '../fonts/register.ts';
import { restingState } from '../../shared/animation/state.ts';
import type { Box, DrawEnv } from '../../shared/canvas/types.ts';
import { drawTerminal } from '../../shared/elements/terminal/terminal-draw.ts';
import { layoutTerminal, measureTerminal } from '../../shared/elements/terminal/terminal-layout.ts';
import {
  SCROLL_SECONDS,
  scheduleTerminal,
  terminalSchedule,
} from '../../shared/elements/terminal/terminal-timeline.ts';
import { TERMINAL_PALETTES, WINDOW_DOTS } from '../../shared/elements/terminal/terminal-themes.ts';
import { parseColor } from '../../shared/spec/color.ts';
import type { TerminalElement } from '../../shared/spec/terminal-element.ts';

const FRAME = { width: 1920, height: 1080 };
const BOX: Box = { x: 20, y: 20, width: 900, height: 420 };
let env: DrawEnv;

beforeAll(() => {
  registerBundledFonts();
  env = createDrawEnv(FRAME, 30, { image: () => undefined, videoFrame: () => undefined });
});

const ESC = '\u001b';
const SESSION: TerminalElement['session'] = [
  { command: 'npm test', output: `${ESC}[32m✓${ESC}[0m 12 passed\n${ESC}[1;31mERROR${ESC}[0m none` },
  { command: 'ls', output: 'a.txt  b.txt' },
];

function render(element: TerminalElement, seconds: number, box = BOX) {
  const surface = env.createSurface(box.x * 2 + box.width, box.y * 2 + box.height);
  const ctx = surface.ctx;
  ctx.fillStyle = '#000000';
  ctx.fillRect(0, 0, surface.canvas.width, surface.canvas.height);
  drawTerminal({
    ctx,
    element,
    box,
    env,
    state: restingState(),
    time: { frame: 0, sceneSeconds: seconds, elementSeconds: seconds, elementDuration: 10 },
    key: 's0/e0',
    drawChildren: () => {},
  });
  const { width } = surface.canvas;
  const data = ctx.getImageData(0, 0, width, surface.canvas.height).data;
  return {
    data,
    at(x: number, y: number): [number, number, number] {
      const i = (Math.round(y) * width + Math.round(x)) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!];
    },
  };
}

function same(a: Uint8ClampedArray, b: Uint8ClampedArray): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(
    Buffer.from(b.buffer, b.byteOffset, b.byteLength),
  );
}

function rgb(hex: string): [number, number, number] {
  const { r, g, b } = parseColor(hex)!;
  return [r, g, b];
}

/** Pixels of a region whose colour is within `tolerance` of `hex` on every channel. */
function countColor(image: ReturnType<typeof render>, region: Box, hex: string, tolerance = 24): number {
  const [r, g, b] = rgb(hex);
  let count = 0;
  for (let y = region.y; y < region.y + region.height; y++) {
    for (let x = region.x; x < region.x + region.width; x++) {
      const [pr, pg, pb] = image.at(x, y);
      if (Math.abs(pr - r) <= tolerance && Math.abs(pg - g) <= tolerance && Math.abs(pb - b) <= tolerance)
        count++;
    }
  }
  return count;
}

describe('drawTerminal', () => {
  it('draws the finished session exactly as a terminal that shows it all at once', () => {
    const animated: TerminalElement = {
      type: 'terminal',
      session: SESSION,
      title: 'zsh',
      cursor: { blink: false },
    };
    const end = terminalSchedule(animated, 30).end + SCROLL_SECONDS + 0.5;
    const immediate: TerminalElement = {
      ...animated,
      typeSpeed: 200,
      startDelay: 0,
      gap: 0,
      pause: 0,
      lineDelay: 0,
    };
    expect(scheduleTerminal(immediate, 30).end).toBeLessThan(0.2);
    expect(same(render(animated, end).data, render(immediate, 5).data)).toBe(true);
    // And it is not just an empty window: the last frame differs from the first.
    expect(same(render(animated, 0).data, render(animated, end).data)).toBe(false);
  });

  it('draws the mac title bar dots, the prompt, ANSI colours in the theme and the cursor', () => {
    const element: TerminalElement = { type: 'terminal', session: SESSION, cursor: { blink: false } };
    const layout = layoutTerminal(element, env, BOX);
    const image = render(element, 30);
    const middle = BOX.y + layout.titleBar / 2;
    WINDOW_DOTS.forEach((color, i) => {
      const x = BOX.x + (0.95 + i * 0.78) * layout.size;
      expect(image.at(x, middle)).toEqual(rgb(color));
    });
    const palette = TERMINAL_PALETTES.dark;
    const row = (index: number): Box => ({
      x: Math.round(layout.content.x),
      y: Math.round(layout.content.y + index * layout.lineHeight),
      width: Math.round(20 * layout.cell),
      height: Math.round(layout.lineHeight),
    });
    // Row 0: the green prompt; row 1: a green tick; row 2: ERROR in the theme's red, then plain output.
    expect(countColor(image, row(0), palette.prompt)).toBeGreaterThan(20);
    expect(countColor(image, row(1), palette.ansi[2]!)).toBeGreaterThan(20);
    expect(countColor(image, row(2), palette.ansi[1]!)).toBeGreaterThan(50);
    expect(countColor(image, row(1), palette.ansi[1]!)).toBe(0);
    // Row 5: the final prompt, with the block cursor in the cell after "$ ".
    const cursorX = layout.content.x + 2.5 * layout.cell;
    const cursorY = layout.content.y + 5.5 * layout.lineHeight;
    expect(image.at(cursorX, cursorY)).toEqual(rgb(palette.cursor));
    const hidden = render({ ...element, cursor: false }, 30);
    expect(hidden.at(cursorX, cursorY)).toEqual(rgb(palette.window));
  });

  it('scrolls the oldest rows out of a window that holds fewer', () => {
    const output = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`).join('\n');
    const element = (text: string): TerminalElement => ({
      type: 'terminal',
      session: [{ output: text }],
      rows: 4,
      startDelay: 0,
    });
    expect(layoutTerminal(element(output(1, 12)), env, BOX).rows).toBe(4);
    const scrolled = render(element(output(1, 12)), 30).data;
    // The window shows the last four lines, where the first four would sit.
    expect(same(scrolled, render(element(output(9, 12)), 30).data)).toBe(true);
    expect(same(scrolled, render(element(output(1, 4)), 30).data)).toBe(false);
  });

  it('is as wide as its longest line and as tall as its rows', () => {
    const element: TerminalElement = { type: 'terminal', session: SESSION, rows: 10 };
    const natural = measureTerminal(element, env, 1800, 1000);
    const layout = layoutTerminal(element, env, { x: 0, y: 0, ...natural });
    // The lines are short, so the window takes the least columns a terminal shows.
    expect(layout.columns).toBe(40);
    expect(layout.rows).toBe(10);
  });
});
