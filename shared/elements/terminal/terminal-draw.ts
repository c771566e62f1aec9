// Paints a terminal at one moment: the window (title bar, dots, hairlines), the rows the timeline
// says are shown, in monospace cells, and the cursor. What is shown when is terminal-timeline.ts's.
import { roundedRectPath } from '../../canvas/paint.ts';
import type { Box, Ctx2D, DrawEnv } from '../../canvas/types.ts';
import { cssFontFamilies } from '../../fonts/fonts.ts';
import { canvasColor } from '../../spec/color.ts';
import type { TerminalElement } from '../../spec/terminal-element.ts';
import type { ElementDrawArgs } from '../definition.ts';
import { layoutTerminal, monoFont } from './terminal-layout.ts';
import type { TerminalLayout } from './terminal-layout.ts';
import { TERMINAL_PALETTES, WINDOW_DOTS, ansiColor } from './terminal-themes.ts';
import type { TerminalPalette } from './terminal-themes.ts';
import { cells, cursorLit, terminalSchedule, terminalView } from './terminal-timeline.ts';
import type { TerminalCursor, TerminalRun } from './terminal-timeline.ts';

const DOT_RADIUS_EM = 0.24;
const DOT_SPACING_EM = 0.78;
const DOT_INSET_EM = 0.95;
const TITLE_SIZE_EM = 0.62;
/** Underline and strikethrough: their place from the baseline and their weight. */
const UNDERLINE_EM = 0.16;
const STRIKE_EM = -0.27;
const RULE_EM = 0.06;
const DIM_ALPHA = 0.55;
/** A block cursor covers the glyph height, not the whole line box. */
const CURSOR_HEIGHT_EM = 1.25;
const CURSOR_BAR_EM = 0.1;
/** Text the monospace face draws in whole: one fillText keeps it to its cells. */
const PLAIN_ASCII = /^[\x20-\x7e]*$/;

function hairline(env: DrawEnv): number {
  return Math.max(1, env.scale);
}

function drawWindow(ctx: Ctx2D, element: TerminalElement, env: DrawEnv, box: Box, layout: TerminalLayout) {
  const palette = TERMINAL_PALETTES[element.theme ?? 'dark'];
  ctx.save();
  ctx.beginPath();
  roundedRectPath(ctx, box, layout.radius);
  ctx.fillStyle = palette.window;
  // The element's shadow (set by the frame) falls from the window only, not from every glyph.
  ctx.fill();
  ctx.shadowColor = 'transparent';
  ctx.clip();
  ctx.fillStyle = palette.titleBar;
  ctx.fillRect(box.x, box.y, box.width, layout.titleBar);
  ctx.fillStyle = palette.border;
  ctx.fillRect(box.x, box.y + layout.titleBar - hairline(env), box.width, hairline(env));
  ctx.restore();
  ctx.save();
  ctx.shadowColor = 'transparent';
  ctx.beginPath();
  const inset = hairline(env) / 2;
  roundedRectPath(
    ctx,
    { x: box.x + inset, y: box.y + inset, width: box.width - 2 * inset, height: box.height - 2 * inset },
    layout.radius - inset,
  );
  ctx.strokeStyle = palette.border;
  ctx.lineWidth = hairline(env);
  ctx.stroke();
  const middle = box.y + layout.titleBar / 2;
  if ((element.window ?? 'mac') === 'mac') {
    WINDOW_DOTS.forEach((color, i) => {
      ctx.beginPath();
      const x = box.x + (DOT_INSET_EM + i * DOT_SPACING_EM) * layout.size;
      ctx.arc(x, middle, DOT_RADIUS_EM * layout.size, 0, 2 * Math.PI);
      ctx.fillStyle = color;
      ctx.fill();
    });
  }
  if (element.title) drawTitle(ctx, element.title, env, box, layout, palette);
  ctx.restore();
}

function drawTitle(
  ctx: Ctx2D,
  title: string,
  env: DrawEnv,
  box: Box,
  layout: TerminalLayout,
  palette: TerminalPalette,
) {
  const size = TITLE_SIZE_EM * layout.size;
  ctx.font = `500 ${Number(size.toFixed(3))}px ${cssFontFamilies([env.fontFamily('sans')])}`;
  ctx.fillStyle = palette.title;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  // Clear of the dots on the left, and as far from the right edge.
  const side = (DOT_INSET_EM + 3 * DOT_SPACING_EM) * layout.size;
  ctx.fillText(title, box.x + box.width / 2, box.y + layout.titleBar / 2, Math.max(0, box.width - 2 * side));
}

function runColor(run: TerminalRun, palette: TerminalPalette, promptColor: string | undefined): string {
  if (run.role === 'prompt') return promptColor ? canvasColor(promptColor) : palette.prompt;
  if (run.role === 'command') return palette.command;
  return run.fg ? ansiColor(run.fg, palette) : palette.output;
}

function runWeight(run: TerminalRun): number {
  if (run.bold || run.role === 'prompt') return 700;
  return run.role === 'command' ? 500 : 400;
}

function drawRow(
  ctx: Ctx2D,
  env: DrawEnv,
  row: readonly TerminalRun[],
  top: number,
  layout: TerminalLayout,
  palette: TerminalPalette,
  promptColor: string | undefined,
) {
  let column = 0;
  const baseline = top + layout.baseline;
  // The element's own opacity (a fade) is already on the context: dim text takes a share of it.
  const alpha = ctx.globalAlpha;
  let lastFont = '';
  for (const run of row) {
    const chars = cells(run.text);
    const length = chars.length;
    const x = layout.content.x + column * layout.cell;
    const width = length * layout.cell;
    column += length;
    ctx.globalAlpha = alpha;
    if (run.bg) {
      ctx.fillStyle = ansiColor(run.bg, palette);
      ctx.fillRect(x, top, width, layout.lineHeight);
    }
    const color = runColor(run, palette, promptColor);
    ctx.globalAlpha = run.dim ? alpha * DIM_ALPHA : alpha;
    ctx.fillStyle = color;
    const font = monoFont(env, layout.size, runWeight(run), run.italic === true);
    // Setting a font makes the canvas parse it: only when it changes.
    if (font !== lastFont) ctx.font = lastFont = font;
    if (PLAIN_ASCII.test(run.text)) ctx.fillText(run.text, x, baseline);
    else {
      // A symbol from the fallback face has its own width: each character keeps to its cell.
      chars.forEach((char, i) => ctx.fillText(char, x + i * layout.cell, baseline));
    }
    const rule = Math.max(1, RULE_EM * layout.size);
    if (run.underline) ctx.fillRect(x, baseline + UNDERLINE_EM * layout.size, width, rule);
    if (run.strikethrough) ctx.fillRect(x, baseline + STRIKE_EM * layout.size, width, rule);
  }
  ctx.globalAlpha = alpha;
}

function drawCursor(
  ctx: Ctx2D,
  element: TerminalElement,
  cursor: TerminalCursor,
  top: number,
  layout: TerminalLayout,
  palette: TerminalPalette,
) {
  const options = typeof element.cursor === 'object' ? element.cursor : {};
  if (!cursorLit(cursor.idle, options.blink ?? true)) return;
  const x = layout.content.x + cursor.column * layout.cell;
  const height = Math.min(layout.lineHeight, CURSOR_HEIGHT_EM * layout.size);
  const y = top + (layout.lineHeight - height) / 2;
  const thickness = Math.max(2, CURSOR_BAR_EM * layout.size);
  ctx.fillStyle = options.color ? canvasColor(options.color) : palette.cursor;
  switch (options.shape ?? 'block') {
    case 'bar':
      ctx.fillRect(x, y, thickness, height);
      break;
    case 'underline':
      ctx.fillRect(x, y + height - thickness, layout.cell, thickness);
      break;
    default:
      ctx.fillRect(x, y, layout.cell, height);
  }
}

export function drawTerminal({
  ctx,
  element,
  box,
  env,
  state,
  time,
}: ElementDrawArgs<TerminalElement>): void {
  const layout = layoutTerminal(element, env, box, state.props.size);
  const palette = TERMINAL_PALETTES[element.theme ?? 'dark'];
  ctx.save();
  if ((element.window ?? 'mac') !== 'none') drawWindow(ctx, element, env, box, layout);
  ctx.shadowColor = 'transparent';
  const view = terminalView(terminalSchedule(element, env.fps), time.elementSeconds, layout);
  const rowTop = (row: number) => layout.content.y + (row - view.scroll) * layout.lineHeight;
  // Rows scroll up through the top padding, fading as they leave, and rise into view through the
  // bottom padding, fading in; at rest the padding is empty.
  const { content } = layout;
  const top = box.y + layout.titleBar;
  const bottom = Math.min(box.y + box.height, 2 * content.y - top + layout.rows * layout.lineHeight);
  ctx.beginPath();
  ctx.rect(box.x, top, box.width, bottom - top);
  ctx.clip();
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  const alpha = ctx.globalAlpha;
  const first = Math.max(0, Math.floor(view.scroll));
  const last = Math.min(view.rows.length, Math.ceil(view.scroll) + layout.rows);
  for (let row = first; row < last; row++) {
    // How far the row sits outside the window's rows, in rows: 0 inside, 1 fully out.
    const outside = Math.max(view.scroll - row, row - view.scroll - (layout.rows - 1), 0);
    if (outside >= 1) continue;
    ctx.globalAlpha = alpha * (1 - outside);
    drawRow(ctx, env, view.rows[row]!, rowTop(row), layout, palette, element.promptColor);
  }
  ctx.globalAlpha = alpha;
  if (view.cursor && element.cursor !== false) {
    drawCursor(ctx, element, view.cursor, rowTop(view.cursor.row), layout, palette);
  }
  ctx.restore();
}
