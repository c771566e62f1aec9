// The markdown element drawn: blocks laid out by markdown-layout.ts from the top of its box,
// headings in the heading colour, links in the accent (underlined), inline code on a soft pill,
// list markers and the quote bar in the accent, fenced code through the code element's drawing.
// With `reveal`, blocks fade and rise in one after another.
import { easingFunction } from '../../animation/easing.ts';
import { perHost } from '../../canvas/host-cache.ts';
import type { Ctx2D, DrawEnv } from '../../canvas/types.ts';
import { cssFontFamilies } from '../../fonts/fonts.ts';
import { resolveLength } from '../../layout/length.ts';
import type { CodeElement } from '../../spec/code-element.ts';
import { canvasColor, formatRgba, parseColor } from '../../spec/color.ts';
import type { MarkdownElement } from '../../spec/markdown-element.ts';
import { timeToSeconds } from '../../spec/time.ts';
import { drawCodeBlock, measureCode } from '../code/code-draw.ts';
import type { ElementDrawArgs } from '../definition.ts';
import { markdownBlocks } from './markdown-blocks.ts';
import type { MarkdownBlock } from './markdown-blocks.ts';
import { CODE_SPAN_PAD_EM, RULE_HEIGHT_EM, layoutMarkdown } from './markdown-layout.ts';
import type { LaidBlock, MarkdownLayout, PieceFont } from './markdown-layout.ts';

const DEFAULT_SIZE = 36;
const DEFAULT_LINE_HEIGHT = 1.4;
const DEFAULT_COLOR = '#e5e7eb';
const DEFAULT_HEADING_COLOR = '#ffffff';
const DEFAULT_ACCENT = '#7dd3fc';
const CODE_BLOCK_SCALE = 0.8;
const CODE_BLOCK_RADIUS = 14;
const DEFAULT_STAGGER_SECONDS = 0.18;
const DEFAULT_REVEAL_SECONDS = 0.5;
/** How far below its place a block starts as it is revealed. */
const REVEAL_RISE_EM = 0.6;
const QUOTE_BAR_EM = 0.16;

interface MarkdownStyle {
  size: number;
  lineHeight: number;
  family: string;
  mono: string;
}

function markdownStyle(element: MarkdownElement, env: DrawEnv, overrideSize?: number): MarkdownStyle {
  const size =
    overrideSize !== undefined
      ? overrideSize * env.scale
      : resolveLength(element.size ?? DEFAULT_SIZE, env.size.height, { frame: env.size, scale: env.scale });
  return {
    size,
    lineHeight: element.lineHeight ?? DEFAULT_LINE_HEIGHT,
    family: env.fontFamily(element.font ?? 'sans'),
    mono: env.fontFamily('mono'),
  };
}

function cssFont(style: MarkdownStyle, font: PieceFont): string {
  const families = cssFontFamilies([font.mono ? style.mono : style.family]);
  return `${font.italic ? 'italic ' : ''}${font.weight} ${Number(font.size.toFixed(3))}px ${families}`;
}

interface Parsed {
  blocks: MarkdownBlock[];
  /** Fenced code blocks as code elements, drawn and measured by the code element's drawing. */
  code: Map<MarkdownBlock, CodeElement>;
  layouts: Map<string, MarkdownLayout>;
}

const parsedCache = new WeakMap<MarkdownElement, Parsed>();

function parsed(element: MarkdownElement): Parsed {
  let known = parsedCache.get(element);
  if (!known) {
    const blocks = markdownBlocks(element.markdown);
    known = { blocks, code: new Map(), layouts: new Map() };
    parsedCache.set(element, known);
  }
  return known;
}

function codeElementFor(
  element: MarkdownElement,
  entry: Parsed,
  block: MarkdownBlock,
  style: MarkdownStyle,
  env: DrawEnv,
): CodeElement {
  let code = entry.code.get(block);
  if (!code && block.kind === 'code') {
    code = {
      type: 'code',
      code: block.code,
      language: block.language,
      theme: element.theme,
      size: (CODE_BLOCK_SCALE * style.size) / env.scale,
      radius: CODE_BLOCK_RADIUS,
      window: { dots: false },
    };
    entry.code.set(block, code);
  }
  return code!;
}

const measuringContext = perHost((env): Ctx2D => env.createSurface(1, 1).ctx);

export function layoutMarkdownElement(
  element: MarkdownElement,
  env: DrawEnv,
  width: number,
  overrideSize?: number,
): MarkdownLayout {
  const entry = parsed(element);
  const style = markdownStyle(element, env, overrideSize);
  const key = `${Math.round(width * 100)}:${style.size}`;
  const known = entry.layouts.get(key);
  if (known) return known;
  const ctx = measuringContext(env);
  const layout = layoutMarkdown(entry.blocks, width, {
    size: style.size,
    lineHeight: style.lineHeight,
    measure: (text, font) => {
      ctx.font = cssFont(style, font);
      return ctx.measureText(text).width;
    },
    codeHeight: (block) => measureCode(codeElementFor(element, entry, block, style, env), env, width).height,
  });
  if (entry.layouts.size > 16) entry.layouts.clear();
  entry.layouts.set(key, layout);
  return layout;
}

export function measureMarkdown(
  element: MarkdownElement,
  env: DrawEnv,
  maxWidth: number,
): { width: number; height: number } {
  const layout = layoutMarkdownElement(element, env, Math.max(0, maxWidth));
  return {
    width: Math.min(Math.max(0, maxWidth), Math.ceil(layout.width)),
    height: Math.ceil(layout.height),
  };
}

function withAlpha(color: string, alpha: number): string {
  const parsedColor = parseColor(color) ?? { r: 255, g: 255, b: 255, a: 1 };
  return formatRgba({ ...parsedColor, a: parsedColor.a * alpha });
}

/** Each block's reveal, 0..1, eased. */
function revealProgress(element: MarkdownElement, index: number, seconds: number, fps: number): number {
  const reveal = element.reveal;
  if (!reveal) return 1;
  const options = reveal === true ? {} : reveal;
  const delay = options.delay === undefined ? 0 : timeToSeconds(options.delay, fps);
  const stagger =
    options.stagger === undefined ? DEFAULT_STAGGER_SECONDS : timeToSeconds(options.stagger, fps);
  const duration =
    options.duration === undefined ? DEFAULT_REVEAL_SECONDS : timeToSeconds(options.duration, fps);
  const linear = duration <= 0 ? 1 : (seconds - delay - index * stagger) / duration;
  return easingFunction('out')(Math.min(1, Math.max(0, linear)));
}

interface Colors {
  body: string;
  heading: string;
  accent: string;
}

function baselineIn(ctx: Ctx2D, lineHeight: number, font: PieceFont): number {
  const metrics = ctx.measureText('Hg');
  const ascent = Number.isFinite(metrics.fontBoundingBoxAscent)
    ? metrics.fontBoundingBoxAscent
    : 0.8 * font.size;
  const descent = Number.isFinite(metrics.fontBoundingBoxDescent)
    ? metrics.fontBoundingBoxDescent
    : 0.2 * font.size;
  return (lineHeight - ascent - descent) / 2 + ascent;
}

function drawTextBlockLines(
  ctx: Ctx2D,
  style: MarkdownStyle,
  laid: LaidBlock,
  left: number,
  top: number,
  colors: Colors,
): void {
  const color = laid.block.kind === 'heading' ? colors.heading : colors.body;
  for (const line of laid.lines) {
    ctx.font = cssFont(style, laid.font);
    const baseline = top + line.y + baselineIn(ctx, line.height, laid.font);
    for (const piece of line.pieces) {
      const x = left + laid.indent + piece.x;
      const size = piece.font.size;
      const pad = piece.style.code ? CODE_SPAN_PAD_EM * size : 0;
      if (piece.style.code) {
        ctx.beginPath();
        ctx.roundRect(
          x + 0.08 * size,
          baseline - 0.98 * size,
          piece.width - 0.16 * size,
          1.35 * size,
          0.25 * size,
        );
        ctx.fillStyle = withAlpha(color, 0.12);
        ctx.fill();
      }
      const ink = piece.style.link ? colors.accent : color;
      ctx.font = cssFont(style, piece.font);
      ctx.fillStyle = canvasColor(laid.block.kind === 'quote' ? withAlpha(ink, 0.85) : ink);
      ctx.fillText(piece.text, x + pad, baseline);
      const rule = Math.max(1, 0.06 * size);
      if (piece.style.link) ctx.fillRect(x, baseline + 0.14 * size, piece.width, rule);
      if (piece.style.strike) ctx.fillRect(x, baseline - 0.3 * size, piece.width, rule);
    }
  }
}

function drawMarker(
  ctx: Ctx2D,
  style: MarkdownStyle,
  laid: LaidBlock,
  left: number,
  top: number,
  colors: Colors,
): void {
  const block = laid.block;
  if (block.kind !== 'item') return;
  const first = laid.lines[0];
  if (!first) return;
  const font: PieceFont = { ...laid.font, weight: 700 };
  ctx.font = cssFont(style, font);
  const baseline = top + first.y + baselineIn(ctx, first.height, font);
  ctx.fillStyle = canvasColor(colors.accent);
  ctx.textAlign = 'right';
  const gap = block.ordered ? 0.45 * style.size : 0.6 * style.size;
  ctx.fillText(block.marker, left + laid.indent - gap, baseline);
  ctx.textAlign = 'left';
}

export function drawMarkdown({
  ctx,
  element,
  box,
  env,
  state,
  time,
}: ElementDrawArgs<MarkdownElement>): void {
  const size = typeof state.props.size === 'number' ? state.props.size : undefined;
  const style = markdownStyle(element, env, size);
  const layout = layoutMarkdownElement(element, env, box.width, size);
  const entry = parsed(element);
  const colors: Colors = {
    body: typeof state.props.color === 'string' ? state.props.color : (element.color ?? DEFAULT_COLOR),
    heading: element.headingColor ?? DEFAULT_HEADING_COLOR,
    accent: element.accent ?? DEFAULT_ACCENT,
  };
  ctx.save();
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  const baseAlpha = ctx.globalAlpha;
  layout.blocks.forEach((laid, index) => {
    const progress = revealProgress(element, index, time.elementSeconds, env.fps);
    if (progress <= 0) return;
    ctx.globalAlpha = baseAlpha * progress;
    const top = box.y + laid.y + (1 - progress) * REVEAL_RISE_EM * style.size;
    const block = laid.block;
    if (block.kind === 'code') {
      const code = codeElementFor(element, entry, block, style, env);
      drawCodeBlock(ctx, env, code, { x: box.x, y: top, width: box.width, height: laid.height });
      return;
    }
    if (block.kind === 'rule') {
      ctx.fillStyle = withAlpha(colors.body, 0.25);
      ctx.fillRect(box.x, top, box.width, Math.max(1, RULE_HEIGHT_EM * style.size * 0.3));
      return;
    }
    if (block.kind === 'quote') {
      ctx.fillStyle = canvasColor(colors.accent);
      ctx.beginPath();
      ctx.roundRect(box.x, top, QUOTE_BAR_EM * style.size, laid.height, (QUOTE_BAR_EM * style.size) / 2);
      ctx.fill();
    }
    drawMarker(ctx, style, laid, box.x, top, colors);
    drawTextBlockLines(ctx, style, laid, box.x, top, colors);
  });
  ctx.globalAlpha = baseAlpha;
  ctx.restore();
}
