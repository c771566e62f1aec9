// The terminal window's geometry: its type grid (one monospace cell per character), the title bar
// and padding in proportion to the font size, and its natural size from the session it plays.
import { perHost } from '../../canvas/host-cache.ts';
import type { Box, Ctx2D, DrawEnv } from '../../canvas/types.ts';
import { cssFontFamilies } from '../../fonts/fonts.ts';
import { resolveLength } from '../../layout/length.ts';
import type { TerminalElement } from '../../spec/terminal-element.ts';
import { cells, rowTimes, terminalSchedule } from './terminal-timeline.ts';

const DEFAULT_SIZE = 28;
const DEFAULT_LINE_HEIGHT = 1.5;
/** Proportions of the font size, so a window looks the same at any size. */
const TITLE_BAR_EM = 1.9;
const PADDING_X_EM = 1.1;
const PADDING_Y_EM = 0.8;
const RADIUS_EM = 0.45;
/** The natural width shows at least this many columns, and no more than a wide terminal's. */
const MIN_COLUMNS = 40;
const MAX_COLUMNS = 120;
/** The natural height shows at most this many rows; the rest scroll. */
const MAX_NATURAL_ROWS = 30;

/** The monospace face, then the sans face for symbols it lacks (✓ and ✗ are common in output). */
export function monoFont(env: DrawEnv, size: number, weight: number, italic = false): string {
  const families = cssFontFamilies([env.fontFamily('mono'), env.fontFamily('sans')]);
  // Fixed decimals: a canvas ignores a font string it cannot parse.
  return `${italic ? 'italic ' : ''}${weight} ${Number(size.toFixed(3))}px ${families}`;
}

export interface MonoMetrics {
  /** The advance of one character cell. */
  cell: number;
  /** Baseline below the top of a line box, the leading split evenly above and below. */
  baseline: number;
}

/** Cell metrics are measured once per font size and host, not every frame. */
const metricsCache = perHost((env) => ({
  ctx: env.createSurface(1, 1).ctx,
  bySize: new Map<string, Omit<MonoMetrics, 'baseline'> & { ascent: number; descent: number }>(),
}));

function monoMetrics(env: DrawEnv, size: number, lineHeight: number): MonoMetrics {
  const cache = metricsCache(env);
  const font = monoFont(env, size, 400);
  let measured = cache.bySize.get(font);
  if (!measured) {
    const ctx: Ctx2D = cache.ctx;
    ctx.font = font;
    const metrics = ctx.measureText('M');
    const ascent = Number.isFinite(metrics.fontBoundingBoxAscent)
      ? metrics.fontBoundingBoxAscent
      : 0.8 * size;
    const descent = Number.isFinite(metrics.fontBoundingBoxDescent)
      ? metrics.fontBoundingBoxDescent
      : 0.2 * size;
    measured = { cell: metrics.width > 0 ? metrics.width : 0.6 * size, ascent, descent };
    cache.bySize.set(font, measured);
  }
  return { cell: measured.cell, baseline: (lineHeight + measured.ascent - measured.descent) / 2 };
}

export interface TerminalLayout extends MonoMetrics {
  size: number;
  lineHeight: number;
  /** The title bar's height; 0 without a window frame. */
  titleBar: number;
  radius: number;
  /** Where rows of text go. */
  content: Box;
  columns: number;
  /** Rows the window shows at once. */
  rows: number;
}

function fontSize(element: TerminalElement, env: DrawEnv, keyframed?: number | string): number {
  // Keyframed sizes are design pixels, like every other keyframed length.
  if (typeof keyframed === 'number') return Math.max(1, keyframed * env.scale);
  const context = { frame: env.size, scale: env.scale };
  return Math.max(1, resolveLength(element.size ?? DEFAULT_SIZE, env.size.height, context));
}

function chrome(element: TerminalElement, size: number) {
  const framed = (element.window ?? 'mac') !== 'none';
  return {
    titleBar: framed ? TITLE_BAR_EM * size : 0,
    padX: framed ? PADDING_X_EM * size : 0,
    padY: framed ? PADDING_Y_EM * size : 0,
  };
}

/** The window laid out in `box` (real pixels). */
export function layoutTerminal(
  element: TerminalElement,
  env: DrawEnv,
  box: Box,
  keyframedSize?: number | string,
): TerminalLayout {
  const size = fontSize(element, env, keyframedSize);
  const lineHeight = size * (element.lineHeight ?? DEFAULT_LINE_HEIGHT);
  const metrics = monoMetrics(env, size, lineHeight);
  const { titleBar, padX, padY } = chrome(element, size);
  const content = {
    x: box.x + padX,
    y: box.y + titleBar + padY,
    width: Math.max(0, box.width - 2 * padX),
    height: Math.max(0, box.height - titleBar - 2 * padY),
  };
  // A hair of slack so a box sized to exactly n rows (or columns) shows n despite rounding.
  const fits = Math.max(1, Math.floor(content.height / lineHeight + 1e-3));
  return {
    ...metrics,
    size,
    lineHeight,
    titleBar,
    radius: (element.window ?? 'mac') === 'none' ? 0 : RADIUS_EM * size,
    content,
    columns: Math.max(1, Math.floor(content.width / metrics.cell + 1e-3)),
    rows: Math.min(element.rows ?? fits, fits),
  };
}

/** The longest line the session shows, in characters. */
function longestLine(element: TerminalElement, fps: number): number {
  let longest = 0;
  for (const line of terminalSchedule(element, fps).lines) {
    const lengths =
      line.kind === 'command'
        ? [line.prompt.length + line.chars.length]
        : line.states.map((runs) => runs.reduce((sum, run) => sum + cells(run.text).length, 0));
    longest = Math.max(longest, ...lengths);
  }
  return longest;
}

/**
 * Natural size: wide enough for the longest line (within a terminal's usual widths), tall enough
 * for `rows` rows, or for every row the session prints up to a tall terminal's.
 */
export function measureTerminal(
  element: TerminalElement,
  env: DrawEnv,
  maxWidth: number,
  maxHeight: number,
): { width: number; height: number } {
  const size = fontSize(element, env);
  const lineHeight = size * (element.lineHeight ?? DEFAULT_LINE_HEIGHT);
  const { cell } = monoMetrics(env, size, lineHeight);
  const { titleBar, padX, padY } = chrome(element, size);
  const wanted = Math.min(MAX_COLUMNS, Math.max(MIN_COLUMNS, longestLine(element, env.fps)));
  const columns = Math.max(1, Math.min(wanted, Math.floor((maxWidth - 2 * padX) / cell)));
  const rows =
    element.rows ?? Math.min(MAX_NATURAL_ROWS, rowTimes(terminalSchedule(element, env.fps), columns).length);
  return {
    width: Math.min(maxWidth, Math.ceil(columns * cell + 2 * padX)),
    height: Math.min(maxHeight, Math.ceil(titleBar + 2 * padY + rows * lineHeight)),
  };
}
