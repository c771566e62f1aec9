// The code element drawn: a panel in the theme's background (a window bar with three dots and a
// title by default), a gutter of line numbers, and the highlighted tokens of the version on show,
// line by line at the rows code-steps.ts gives them. The panel keeps one size through every step,
// the largest any version needs, so morphs never resize it.
//
// Tokens are drawn one after another at their measured advances, in the theme's colours and font
// styles. Without a highlighter (a host that prepared none) the code draws in one colour.
import { perHost } from '../../canvas/host-cache.ts';
import { roundedRectPath } from '../../canvas/paint.ts';
import type { Box, CodeToken, Ctx2D, DrawEnv, HighlightedCode } from '../../canvas/types.ts';
import { cssFontFamilies } from '../../fonts/fonts.ts';
import { resolveLength } from '../../layout/length.ts';
import type { TypingState } from '../../animation/state.ts';
import { DEFAULT_CODE_LANGUAGE, DEFAULT_CODE_THEME } from '../../spec/code-element.ts';
import type { CodeElement } from '../../spec/code-element.ts';
import { canvasColor, formatRgba, mixColors, parseColor } from '../../spec/color.ts';
import type { Rgba } from '../../spec/color.ts';
import { countTypedCharacters, graphemes } from '../../spec/text-units.ts';
import { codeFrameAt, codeVersions, splitCodeLines } from './code-steps.ts';
import type { CodeFrame, CodeVersion } from './code-steps.ts';
import type { ElementDrawArgs } from '../definition.ts';

const DEFAULT_SIZE = 30;
const DEFAULT_LINE_HEIGHT = 1.5;
const DEFAULT_PADDING_EM = 1.1;
const DEFAULT_RADIUS = 18;
const DEFAULT_ACCENT = '#58a6ff';
/** Without a highlighter: github-dark's own colours. */
const PLAIN_FOREGROUND = '#e1e4e8';
const PLAIN_BACKGROUND = '#24292e';
const BAR_HEIGHT_EM = 2;
const DOT_RADIUS_EM = 0.22;
const DOT_GAP_EM = 0.72;
const DOTS = ['#ff5f57', '#febc2e', '#28c840'];
const TITLE_SIZE_EM = 0.8;
/** The gutter: the widest number plus this many columns of space. */
const GUTTER_GAP_COLUMNS = 2.2;
const HIGHLIGHT_BAND_ALPHA = 0.16;
const HIGHLIGHT_BAR_EM = 0.14;
/** Lines another line's focus dims keep this much of their opacity. */
const DIMMED_ALPHA = 0.3;
const CURSOR_WIDTH_EM = 0.1;
const BLACK: Rgba = { r: 0, g: 0, b: 0, a: 1 };

/** Everything about a code element's look in real pixels. */
export interface CodeLook {
  family: string;
  size: number;
  lineHeight: number;
  padding: number;
  radius: number;
  barHeight: number;
  title: string | undefined;
  dots: boolean;
  /** Panel, bar, border and shadow: false draws the code alone. */
  chrome: boolean;
  lineNumbers: boolean;
  accent: string;
  background: string | undefined;
  language: string;
  theme: string;
}

export function codeLook(element: CodeElement, env: DrawEnv, overrideSize?: number): CodeLook {
  const context = { frame: env.size, scale: env.scale };
  const size =
    overrideSize !== undefined
      ? overrideSize * env.scale
      : resolveLength(element.size ?? DEFAULT_SIZE, env.size.height, context);
  const window = element.window ?? true;
  const dots = window !== false && (window === true || window.dots !== false);
  const title = typeof window === 'object' ? window.title : undefined;
  return {
    family: env.fontFamily(element.font ?? 'mono'),
    size,
    lineHeight: size * (element.lineHeight ?? DEFAULT_LINE_HEIGHT),
    padding:
      element.padding === undefined
        ? DEFAULT_PADDING_EM * size
        : resolveLength(element.padding, size, context),
    radius: resolveLength(element.radius ?? DEFAULT_RADIUS, size, context),
    barHeight: dots || title ? BAR_HEIGHT_EM * size : 0,
    title,
    dots,
    chrome: window !== false,
    lineNumbers: element.lineNumbers ?? false,
    accent: element.accent ?? DEFAULT_ACCENT,
    background: element.background,
    language: element.language ?? DEFAULT_CODE_LANGUAGE,
    theme: element.theme ?? DEFAULT_CODE_THEME,
  };
}

function cssFont(look: CodeLook, token?: Pick<CodeToken, 'bold' | 'italic'>, size = look.size): string {
  const weight = token?.bold ? 700 : 400;
  return `${token?.italic ? 'italic ' : ''}${weight} ${Number(size.toFixed(3))}px ${cssFontFamilies([look.family])}`;
}

/** The code's tokens in its theme, or in one colour when the host prepared no highlighter. */
export function highlightedCode(
  env: DrawEnv,
  code: string,
  language: string,
  theme: string,
): HighlightedCode {
  const highlighted = env.code?.highlight(code, language, theme);
  if (highlighted) return highlighted;
  return {
    lines: splitCodeLines(code.replace(/\t/g, '  ')).map((text) => [
      { text, color: undefined, bold: false, italic: false, underline: false },
    ]),
    foreground: PLAIN_FOREGROUND,
    background: PLAIN_BACKGROUND,
    dark: true,
  };
}

const measuringContext = perHost((env): Ctx2D => env.createSurface(1, 1).ctx);

/** The gutter's width: room for the largest line number and a gap. */
function gutterWidth(ctx: Ctx2D, look: CodeLook, lines: number): number {
  if (!look.lineNumbers) return 0;
  ctx.font = cssFont(look);
  const column = ctx.measureText('0').width;
  return (String(Math.max(1, lines)).length + GUTTER_GAP_COLUMNS) * column;
}

/** The widest line of any version: its width in pixels, version, line (from 0) and text. */
export interface WidestLine {
  width: number;
  version: number;
  line: number;
  text: string;
}

/** Widest lines by versions and font: placement asks for the natural size on every frame. */
const widestLines = new WeakMap<readonly CodeVersion[], Map<string, WidestLine>>();

function widestLine(ctx: Ctx2D, look: CodeLook, versions: readonly CodeVersion[]): WidestLine {
  const font = cssFont(look);
  let byFont = widestLines.get(versions);
  if (!byFont) widestLines.set(versions, (byFont = new Map()));
  let widest = byFont.get(font);
  if (!widest) {
    widest = measureWidestLine(ctx, font, versions);
    if (byFont.size > 16) byFont.clear(); // an animated size measures anew each frame
    byFont.set(font, widest);
  }
  return widest;
}

function measureWidestLine(ctx: Ctx2D, font: string, versions: readonly CodeVersion[]): WidestLine {
  ctx.font = font;
  let widest: WidestLine = { width: 0, version: 0, line: 0, text: '' };
  versions.forEach((version, index) => {
    version.lines.forEach((line, lineIndex) => {
      const text = line.replace(/\t/g, '  ').trimEnd();
      const width = ctx.measureText(text).width;
      if (width > widest.width) widest = { width, version: index, line: lineIndex, text };
    });
  });
  return widest;
}

/** Where the code sits in a panel that fills `box`. */
interface CodeArea {
  panel: Box;
  /** Left of the first column and top of the first row. */
  x: number;
  y: number;
  gutter: number;
  /** Width left for the code's lines. */
  width: number;
}

function codeArea(ctx: Ctx2D, look: CodeLook, box: Box, maxLines: number): CodeArea {
  const gutter = gutterWidth(ctx, look, maxLines);
  const x = box.x + look.padding + gutter;
  return {
    panel: box,
    x,
    y: box.y + look.barHeight + look.padding,
    gutter,
    width: Math.max(0, box.x + box.width - look.padding - x),
  };
}

const versionCache = new WeakMap<CodeElement, CodeVersion[]>();

function versionsOf(element: CodeElement): CodeVersion[] {
  let versions = versionCache.get(element);
  if (!versions) versionCache.set(element, (versions = codeVersions(element)));
  return versions;
}

/** The panel's natural size: the widest line and the most lines of any version, with chrome. */
export function measureCode(
  element: CodeElement,
  env: DrawEnv,
  maxWidth: number,
  overrideSize?: number,
): { width: number; height: number } {
  const ctx = measuringContext(env);
  const look = codeLook(element, env, overrideSize);
  const versions = versionsOf(element);
  const rows = Math.max(...versions.map((version) => version.lines.length));
  const width = 2 * look.padding + gutterWidth(ctx, look, rows) + widestLine(ctx, look, versions).width;
  return {
    width: Math.min(Math.max(0, maxWidth), Math.ceil(width)),
    height: Math.ceil(look.barHeight + 2 * look.padding + rows * look.lineHeight),
  };
}

/** A line wider than the room the box leaves for code: what review's code_overflow reports. */
export interface CodeOverflow extends WidestLine {
  /** Width the box leaves for the lines. */
  available: number;
  size: number;
}

export function codeOverflow(element: CodeElement, env: DrawEnv, box: Box): CodeOverflow | undefined {
  const ctx = measuringContext(env);
  const look = codeLook(element, env);
  const versions = versionsOf(element);
  const rows = Math.max(...versions.map((version) => version.lines.length));
  const area = codeArea(ctx, look, box, rows);
  const widest = widestLine(ctx, look, versions);
  return widest.width > area.width + 1 ? { ...widest, available: area.width, size: look.size } : undefined;
}

function rgba(color: string): Rgba {
  return parseColor(color) ?? { r: 0, g: 0, b: 0, a: 1 };
}

function withAlpha(color: string, alpha: number): string {
  const parsed = rgba(color);
  return formatRgba({ ...parsed, a: parsed.a * alpha });
}

function drawChrome(ctx: Ctx2D, look: CodeLook, box: Box, theme: HighlightedCode, castShadow: boolean): void {
  const background = look.background ?? theme.background;
  ctx.save();
  if (castShadow) {
    // A soft drop shadow lifts the window off any background, as design tools draw one.
    ctx.shadowColor = 'rgba(0, 0, 0, 0.45)';
    ctx.shadowBlur = 1.6 * look.size;
    ctx.shadowOffsetY = 0.6 * look.size;
  }
  ctx.beginPath();
  roundedRectPath(ctx, box, look.radius);
  ctx.fillStyle = canvasColor(background);
  ctx.fill();
  ctx.restore();
  if (look.barHeight > 0) {
    const bar = { x: box.x, y: box.y, width: box.width, height: look.barHeight };
    ctx.save();
    ctx.beginPath();
    roundedRectPath(ctx, box, look.radius);
    ctx.clip();
    // The bar a shade darker than the panel: deeper on dark themes, just a tint on light ones.
    ctx.fillStyle = formatRgba(mixColors(rgba(background), BLACK, theme.dark ? 0.22 : 0.05));
    ctx.fillRect(bar.x, bar.y, bar.width, bar.height);
    ctx.fillStyle = withAlpha(theme.foreground, 0.08);
    ctx.fillRect(bar.x, bar.y + bar.height - 1, bar.width, 1);
    ctx.restore();
    const middle = bar.y + bar.height / 2;
    if (look.dots) {
      DOTS.forEach((color, index) => {
        ctx.beginPath();
        ctx.arc(
          bar.x + look.padding * 0.8 + DOT_RADIUS_EM * look.size + index * DOT_GAP_EM * look.size,
          middle,
          DOT_RADIUS_EM * look.size,
          0,
          2 * Math.PI,
        );
        ctx.fillStyle = color;
        ctx.fill();
      });
    }
    if (look.title) {
      ctx.font = cssFont(look, undefined, TITLE_SIZE_EM * look.size);
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillStyle = withAlpha(theme.foreground, 0.6);
      ctx.fillText(look.title, bar.x + bar.width / 2, middle);
      ctx.textAlign = 'left';
    }
  }
  // A hairline edge keeps a dark panel apart from a dark background.
  ctx.beginPath();
  roundedRectPath(
    ctx,
    { x: box.x + 0.5, y: box.y + 0.5, width: box.width - 1, height: box.height - 1 },
    look.radius,
  );
  ctx.strokeStyle = theme.dark ? 'rgba(255, 255, 255, 0.09)' : 'rgba(0, 0, 0, 0.12)';
  ctx.lineWidth = 1;
  ctx.stroke();
}

/** Characters left to type, counted as the typewriter counts them (spaces appear for free). */
interface TypingBudget {
  left: number;
  /** Where the last typed character ended. */
  cursor: { x: number; row: number } | undefined;
}

/** A line's tokens as drawn: neighbours of one look joined into one run, measured once. */
interface TokenRun {
  text: string;
  font: string;
  color: string;
  underline: boolean;
  /** From the line's start. */
  offset: number;
  width: number;
}

/**
 * Runs by line tokens and base font. A still code block draws the same runs every frame; measuring
 * and setting a font per token each frame cost more than the drawing itself.
 */
const lineRuns = new WeakMap<readonly CodeToken[], { key: string; runs: TokenRun[] }>();

function tokenRuns(ctx: Ctx2D, look: CodeLook, tokens: readonly CodeToken[], foreground: string): TokenRun[] {
  const key = `${cssFont(look)}\0${foreground}`;
  const known = lineRuns.get(tokens);
  if (known?.key === key) return known.runs;
  const runs: TokenRun[] = [];
  for (const token of tokens) {
    const font = cssFont(look, token);
    const color = canvasColor(token.color ?? foreground);
    const last = runs.at(-1);
    if (last && last.font === font && last.color === color && last.underline === token.underline) {
      last.text += token.text;
    } else {
      runs.push({ text: token.text, font, color, underline: token.underline, offset: 0, width: 0 });
    }
  }
  let offset = 0;
  for (const run of runs) {
    ctx.font = run.font;
    run.offset = offset;
    run.width = ctx.measureText(run.text).width;
    offset += run.width;
  }
  lineRuns.set(tokens, { key, runs });
  return runs;
}

/** Draws a whole line's runs from `x`; returns its end. */
function drawRuns(
  ctx: Ctx2D,
  look: CodeLook,
  runs: readonly TokenRun[],
  x: number,
  baseline: number,
): number {
  let font = '';
  let color = '';
  for (const run of runs) {
    if (!run.text.trim()) continue;
    if (run.font !== font) ctx.font = font = run.font;
    if (run.color !== color) ctx.fillStyle = color = run.color;
    ctx.fillText(run.text, x + run.offset, baseline);
    if (run.underline) {
      ctx.fillRect(x + run.offset, baseline + 0.12 * look.size, run.width, Math.max(1, 0.06 * look.size));
    }
  }
  const last = runs.at(-1);
  return last ? x + last.offset + last.width : x;
}

/** Draws one line's tokens from `x`, stopping when the typing budget runs out; returns its end. */
function drawTokens(
  ctx: Ctx2D,
  look: CodeLook,
  tokens: readonly CodeToken[],
  foreground: string,
  x: number,
  baseline: number,
  budget: TypingBudget | undefined,
): number {
  let cursor = x;
  for (const token of tokens) {
    if (budget && budget.left <= 0) break;
    let text = token.text;
    if (budget) {
      const characters = graphemes(text);
      let typed = 0;
      let cut = characters.length;
      for (let i = 0; i < characters.length; i++) {
        if (!/\s/.test(characters[i]!)) typed++;
        if (typed > budget.left) {
          cut = i;
          break;
        }
      }
      text = characters.slice(0, cut).join('');
      budget.left -= Math.min(typed, budget.left);
      if (cut < characters.length) budget.left = 0;
    }
    ctx.font = cssFont(look, token);
    const width = ctx.measureText(text).width;
    ctx.fillStyle = canvasColor(token.color ?? foreground);
    if (text.trim()) ctx.fillText(text, cursor, baseline);
    if (token.underline && text.trim()) {
      ctx.fillRect(cursor, baseline + 0.12 * look.size, width, Math.max(1, 0.06 * look.size));
    }
    cursor += width;
  }
  return cursor;
}

export interface CodeContent {
  versions: readonly CodeVersion[];
  frame: CodeFrame;
  typing?: TypingState | undefined;
}

/** Draws a code panel filling `box`: chrome, highlights, gutter and the frame's lines. */
export function drawCodePanel(
  ctx: Ctx2D,
  env: DrawEnv,
  look: CodeLook,
  box: Box,
  content: CodeContent,
  castShadow = true,
): void {
  const { versions, frame } = content;
  const highlighted = versions.map((version) =>
    highlightedCode(env, version.code, look.language, look.theme),
  );
  const theme = highlighted[frame.version]!;
  ctx.save();
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  if (look.chrome) drawChrome(ctx, look, box, theme, castShadow);
  ctx.shadowColor = 'transparent';
  const rows = Math.max(...versions.map((version) => version.lines.length));
  const area = codeArea(ctx, look, box, rows);
  // Lines stay inside the panel; one that does not fit is cut at its edge (review: code_overflow).
  ctx.beginPath();
  roundedRectPath(
    ctx,
    { ...box, y: box.y + look.barHeight, height: box.height - look.barHeight },
    look.radius,
  );
  ctx.clip();
  const rowTop = (row: number) => area.y + row * look.lineHeight;
  for (const line of frame.lines) {
    if (line.highlight <= 0) continue;
    const alpha = line.alpha * line.highlight;
    ctx.fillStyle = withAlpha(look.accent, HIGHLIGHT_BAND_ALPHA * alpha);
    ctx.fillRect(box.x, rowTop(line.row), box.width, look.lineHeight);
    ctx.fillStyle = withAlpha(look.accent, alpha);
    ctx.fillRect(box.x, rowTop(line.row), HIGHLIGHT_BAR_EM * look.size, look.lineHeight);
  }
  ctx.font = cssFont(look);
  const metrics = ctx.measureText('Hg');
  const ascent = Number.isFinite(metrics.fontBoundingBoxAscent)
    ? metrics.fontBoundingBoxAscent
    : 0.8 * look.size;
  const descent = Number.isFinite(metrics.fontBoundingBoxDescent)
    ? metrics.fontBoundingBoxDescent
    : 0.2 * look.size;
  const baselineInRow = (look.lineHeight - ascent - descent) / 2 + ascent;
  if (look.lineNumbers) drawGutter(ctx, look, area, frame, theme.foreground, rowTop, baselineInRow);
  const baseAlpha = ctx.globalAlpha;
  const typing = content.typing && frame.version === 0 && frame.lines.every((line) => line.alpha === 1);
  const budget: TypingBudget | undefined = typing
    ? {
        left: Math.floor(
          content.typing!.fraction * countTypedCharacters(versions[0]!.code.replace(/\t/g, '  ')) + 1e-9,
        ),
        cursor: undefined,
      }
    : undefined;
  const ordered = budget ? [...frame.lines].sort((a, b) => a.row - b.row) : frame.lines;
  for (const line of ordered) {
    if (budget && budget.left <= 0) break;
    const tokens = highlighted[line.version]!.lines[line.line] ?? [];
    ctx.globalAlpha = baseAlpha * line.alpha * (1 - (1 - DIMMED_ALPHA) * line.dim);
    const baseline = rowTop(line.row) + baselineInRow;
    const x = area.x + line.shiftEm * look.size;
    const end = budget
      ? drawTokens(ctx, look, tokens, theme.foreground, x, baseline, budget)
      : drawRuns(ctx, look, tokenRuns(ctx, look, tokens, theme.foreground), x, baseline);
    if (budget) budget.cursor = { x: end, row: line.row };
  }
  ctx.globalAlpha = baseAlpha;
  const cursor = content.typing?.cursor;
  if (typing && cursor?.visible) {
    const at = budget?.cursor ?? { x: area.x, row: 0 };
    ctx.fillStyle = canvasColor(cursor.color ?? look.accent);
    const top = rowTop(at.row) + baselineInRow - ascent;
    ctx.fillRect(at.x + 0.04 * look.size, top, Math.max(1, CURSOR_WIDTH_EM * look.size), ascent + descent);
  }
  ctx.restore();
}

function drawGutter(
  ctx: Ctx2D,
  look: CodeLook,
  area: CodeArea,
  frame: CodeFrame,
  foreground: string,
  rowTop: (row: number) => number,
  baselineInRow: number,
): void {
  ctx.font = cssFont(look);
  ctx.textAlign = 'right';
  const right = area.x - (GUTTER_GAP_COLUMNS / 2) * ctx.measureText('0').width;
  const baseAlpha = ctx.globalAlpha;
  for (let row = 0; row < Math.ceil(frame.rows); row++) {
    // The last number fades as the block grows or shrinks through it.
    const shown = Math.min(1, frame.rows - row);
    const highlighted = frame.lines.some((line) => line.highlight > 0.5 && Math.round(line.row) === row);
    ctx.globalAlpha = baseAlpha * shown;
    ctx.fillStyle = withAlpha(foreground, highlighted ? 0.75 : 0.32);
    ctx.fillText(String(row + 1), right, rowTop(row) + baselineInRow);
  }
  ctx.globalAlpha = baseAlpha;
  ctx.textAlign = 'left';
}

export function drawCode({ ctx, element, box, env, state, time }: ElementDrawArgs<CodeElement>): void {
  const versions = versionsOf(element);
  const frame = codeFrameAt(element, versions, time.elementSeconds, time.elementDuration, env.fps);
  const size = typeof state.props.size === 'number' ? state.props.size : undefined;
  drawCodePanel(
    ctx,
    env,
    codeLook(element, env, size),
    box,
    { versions, frame, typing: state.typing },
    !element.shadow,
  );
}

/** A static code block (markdown's fenced code): one version, no steps, no typing. */
export function drawCodeBlock(ctx: Ctx2D, env: DrawEnv, element: CodeElement, box: Box): void {
  const versions = versionsOf(element);
  const frame = codeFrameAt(element, versions, 0, 0, env.fps);
  drawCodePanel(ctx, env, codeLook(element, env), box, { versions, frame }, false);
}
