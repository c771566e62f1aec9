// Captions on screen: the page showing now, laid out as a text block at the bottom, centre or top of
// the element's box (by default the safe area), in one of three looks. subtitle: lines in a dark box;
// pop: a few heavy words, the spoken one grown and coloured, each page popping in; karaoke: the whole
// line, each word filling with colour as it is sung.
import { easingFunction } from '../../animation/easing.ts';
import { perHost } from '../../canvas/host-cache.ts';
import type { Box, DrawEnv } from '../../canvas/types.ts';
import { resolveLength } from '../../layout/length.ts';
import type { CaptionsElement } from '../../spec/captions-element.ts';
import type { TextElement } from '../../spec/text-element.ts';
import { textDecorationShape, textFontShape } from '../../spec/text-element.ts';
import type { TimedCue } from '../../captions/timed-words.ts';
import type { ElementDrawArgs } from '../definition.ts';
import type { CaptionPage } from './captions-pages.ts';
import {
  DEFAULT_MAX_LINES,
  captionClock,
  captionCues,
  captionPages,
  captionStyle,
  pageAt,
} from './captions-pages.ts';
import type { WordLook } from '../text/text-effects.ts';
import { drawTextBlock } from '../text/text-draw.ts';
import { measureText, textPadding, wordMeasure } from '../text/text-measure.ts';

export const DEFAULT_HIGHLIGHT_COLOR = '#facc15';
const DEFAULT_ACTIVE_SCALE = 1.15;
const DEFAULT_MAX_WIDTH = '90%';
/** pop: how long the spoken word takes to grow, and a new page to pop in. */
const POP_GROW_SECONDS = 0.1;
const PAGE_POP_SECONDS = 0.12;
const PAGE_POP_FROM = 0.88;
/**
 * The subtitle and karaoke box: near-opaque, because captions sit over video of any brightness.
 * Over a white frame it keeps white text at 15.8:1 (20:1 over black) and the karaoke yellow at
 * 10:1; the 0.78 it had let bright video show through as a grey box.
 */
export const CAPTION_BOX_COLOR = 'rgba(10, 12, 16, 0.9)';

/** Each style's look when the element does not say otherwise. */
const STYLE_DEFAULTS: Record<CaptionsElement['style'] & string, Partial<TextElement>> = {
  subtitle: {
    size: 52,
    weight: 600,
    lineHeight: 1.3,
    background: { color: CAPTION_BOX_COLOR, radius: 12 },
  },
  pop: {
    size: 86,
    weight: 900,
    lineHeight: 1.12,
    transform: 'uppercase',
    stroke: { color: '#000000', width: 7 },
    textShadow: { color: 'rgba(0, 0, 0, 0.6)', blur: 14, y: 6 },
  },
  karaoke: {
    size: 60,
    weight: 800,
    lineHeight: 1.3,
    background: { color: CAPTION_BOX_COLOR, radius: 14 },
  },
};

/** The text styling captions share with text, as the spec declares it. */
const TEXT_FIELDS = Object.keys({ ...textFontShape, ...textDecorationShape }) as (keyof TextElement &
  keyof CaptionsElement)[];

/** A page of the captions as the text element it draws as (no text yet for the layout's own use). */
export function captionTextStyle(element: CaptionsElement, text = ' '): TextElement {
  const style: TextElement = { type: 'text', text, ...STYLE_DEFAULTS[captionStyle(element)] };
  for (const field of TEXT_FIELDS) {
    if (element[field] !== undefined) (style as Record<string, unknown>)[field] = element[field];
  }
  return style;
}

/** The width lines break in, in real pixels. */
export function captionLineWidth(element: CaptionsElement, env: DrawEnv, box: Box): number {
  const width = resolveLength(element.maxWidth ?? DEFAULT_MAX_WIDTH, box.width, {
    frame: env.size,
    scale: env.scale,
  });
  return Math.max(1, Math.min(box.width, width));
}

const pageCache = perHost(
  () => new WeakMap<CaptionsElement, { cues: readonly TimedCue[]; width: number; pages: CaptionPage[] }>(),
);

/** The element's pages for a box of this size, laid out with its own font and width. */
export function pagesFor(element: CaptionsElement, env: DrawEnv, box: Box): CaptionPage[] {
  const cues = captionCues(element, (src) => env.media.captionText?.(src));
  const width = captionLineWidth(element, env, box);
  const cache = pageCache(env);
  const cached = cache.get(element);
  if (cached && cached.cues === cues && cached.width === width) return cached.pages;
  const style = captionTextStyle(element);
  const measure = wordMeasure(style, env);
  const pages = captionPages(element, cues, {
    ...measure,
    // Lines break inside the background box's padding, as the drawing lays them out.
    maxWidth: Math.max(1, width - 2 * textPadding(style, env).x),
    maxLines: element.maxLines ?? DEFAULT_MAX_LINES,
  });
  cache.set(element, { cues, width, pages });
  return pages;
}

/** Where a page's text block sits in the element's box. */
export function pageBox(element: CaptionsElement, env: DrawEnv, box: Box, text: TextElement): Box {
  const width = captionLineWidth(element, env, box);
  const { height } = measureText(text, env, width);
  const position = element.position ?? 'bottom';
  const y =
    position === 'top'
      ? box.y
      : position === 'center'
        ? box.y + (box.height - height) / 2
        : box.y + box.height - height;
  return { x: box.x + (box.width - width) / 2, y, width, height };
}

function wordLooks(
  element: CaptionsElement,
  page: CaptionPage,
  seconds: number,
): ((index: number) => WordLook | undefined) | undefined {
  const color = element.highlightColor ?? DEFAULT_HIGHLIGHT_COLOR;
  const style = captionStyle(element);
  if (style === 'karaoke') {
    return (index) => {
      const word = page.words[index];
      if (!word) return undefined;
      const span = word.end - word.start;
      const progress = span <= 0 ? (seconds >= word.start ? 1 : 0) : (seconds - word.start) / span;
      return { sweep: { color, progress: Math.min(1, Math.max(0, progress)) } };
    };
  }
  if (style === 'pop') {
    let active = -1;
    page.words.forEach((word, index) => {
      if (word.start <= seconds) active = index;
    });
    if (active < 0) return undefined;
    const grow = easingFunction('out')(
      Math.min(1, Math.max(0, (seconds - page.words[active]!.start) / POP_GROW_SECONDS)),
    );
    const scale = 1 + ((element.activeScale ?? DEFAULT_ACTIVE_SCALE) - 1) * grow;
    return (index) => (index === active ? { color, scale } : undefined);
  }
  return undefined;
}

export function drawCaptions(args: ElementDrawArgs<CaptionsElement>): void {
  const { ctx, element, box, env, time } = args;
  const seconds = captionClock(element, time.elementSeconds, env.fps);
  const page = pageAt(pagesFor(element, env, box), seconds);
  if (!page) return;
  const text = captionTextStyle(element, page.text);
  const area = pageBox(element, env, box, text);
  args.observeText?.(text, area);
  ctx.save();
  if (captionStyle(element) === 'pop') {
    const pop = easingFunction('back')(Math.min(1, Math.max(0, (seconds - page.start) / PAGE_POP_SECONDS)));
    const scale = PAGE_POP_FROM + (1 - PAGE_POP_FROM) * pop;
    const cx = area.x + area.width / 2;
    const cy = area.y + area.height / 2;
    ctx.translate(cx, cy);
    ctx.scale(scale, scale);
    ctx.translate(-cx, -cy);
  }
  drawTextBlock(ctx, env, text, area, { wordLook: wordLooks(element, page, seconds) });
  ctx.restore();
}
