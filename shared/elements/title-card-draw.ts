// The title card: kicker, title, accent rule and subtitle on one type scale, in three layouts. The
// parts arrive one after another (the title rising out of a mask) and lift away last line first.
import type { Box, DrawEnv } from '../canvas/types.ts';
import { resolveLength } from '../layout/length.ts';
import { canvasColor, fadeColor } from '../spec/color.ts';
import type { TextElement } from '../spec/text-element.ts';
import type { TitleCardElement } from '../spec/title-elements.ts';
import { EASE_IN, EASE_OUT, beat, buildPhase } from './build-phase.ts';
import type { ElementDrawArgs } from './definition.ts';
import { drawTextBlock } from './text/text-draw.ts';
import { measureText } from './text/text-measure.ts';

export const TITLE_CARD_ENTER_SECONDS = 1.2;
export const TITLE_CARD_EXIT_SECONDS = 0.6;
const DEFAULT_SIZE = 150;
const DEFAULT_SPLIT_SIZE = 120;
/** The type scale, as fractions of the title size. */
const KICKER_RATIO = 0.2;
const SUBTITLE_RATIO = 0.3;
const MIN_BODY_SIZE = 28;

type Part = 'kicker' | 'title' | 'rule' | 'subtitle';

export interface TitleCardLayout {
  /** Each part's box in real pixels, in the element's box. */
  parts: Partial<Record<Part, Box>>;
  texts: Partial<Record<Exclude<Part, 'rule'>, TextElement>>;
  /** The rule runs across (centered, left) or down (split). */
  vertical: boolean;
  size: number;
}

function titleSize(element: TitleCardElement, env: DrawEnv): number {
  const fallback = element.style === 'split' ? DEFAULT_SPLIT_SIZE : DEFAULT_SIZE;
  return resolveLength(element.size ?? fallback, env.size.height, { frame: env.size, scale: env.scale });
}

function cardTexts(
  element: TitleCardElement,
  size: number,
  env: DrawEnv,
  align: 'left' | 'center' | 'right',
) {
  const color = element.color ?? '#ffffff';
  const body = element.bodyFont ?? 'sans';
  const design = (px: number) => px / env.scale;
  const bodySize = Math.max(MIN_BODY_SIZE * env.scale, size * SUBTITLE_RATIO);
  const texts: TitleCardLayout['texts'] = {
    title: {
      type: 'text',
      text: element.title,
      font: element.font ?? 'display',
      size: design(size),
      lineHeight: 1.02,
      letterSpacing: 0.01,
      color,
      align,
      maxLines: 3,
    },
  };
  if (element.kicker) {
    texts.kicker = {
      type: 'text',
      text: element.kicker,
      font: body,
      weight: 700,
      size: design(Math.max(MIN_BODY_SIZE * 0.8 * env.scale, size * KICKER_RATIO)),
      letterSpacing: 0.22,
      transform: 'uppercase',
      color: element.accent ?? '#f59e0b',
      align,
      maxLines: 1,
    };
  }
  if (element.subtitle) {
    texts.subtitle = {
      type: 'text',
      text: element.subtitle,
      font: body,
      weight: 400,
      size: design(bodySize),
      lineHeight: 1.35,
      color: fadeColor(color, 0.72),
      align: element.style === 'split' ? 'left' : align,
      maxLines: 4,
    };
  }
  return texts;
}

/** Stacks parts from the top, each with the gap before it; returns the stack's height. */
function stack(
  entries: { part: Part; width: number; height: number; gap: number }[],
  x: (width: number) => number,
  parts: TitleCardLayout['parts'],
): number {
  let y = 0;
  entries.forEach((entry, i) => {
    if (i > 0) y += entry.gap;
    parts[entry.part] = { x: x(entry.width), y, width: entry.width, height: entry.height };
    y += entry.height;
  });
  return y;
}

function shiftDown(parts: TitleCardLayout['parts'], names: Part[], dy: number): void {
  for (const name of names) {
    const box = parts[name];
    if (box) box.y += dy;
  }
}

export function titleCardLayout(element: TitleCardElement, env: DrawEnv, box: Box): TitleCardLayout {
  const style = element.style ?? 'centered';
  const size = titleSize(element, env);
  const align = style === 'centered' ? 'center' : style === 'split' ? 'right' : 'left';
  const texts = cardTexts(element, size, env, align);
  const showRule = element.rule !== false;
  const ruleThickness = Math.max(4 * env.scale, size * 0.04);
  const parts: TitleCardLayout['parts'] = {};
  const measure = (text: TextElement | undefined, width: number) =>
    text ? measureText(text, env, width) : undefined;

  if (style === 'split') {
    const gutter = size * 0.45;
    const column = Math.max(0, box.width / 2 - gutter);
    const kicker = measure(texts.kicker, column);
    const title = measure(texts.title, column)!;
    const subtitle = measure(texts.subtitle, column * 0.9);
    const left = [
      ...(kicker ? [{ part: 'kicker' as const, ...kicker, gap: 0 }] : []),
      { part: 'title' as const, ...title, gap: size * 0.14 },
    ];
    const leftHeight = stack(left, () => 0, parts);
    const height = Math.max(leftHeight, subtitle?.height ?? 0);
    const top = box.y + (box.height - height) / 2;
    const middle = box.x + box.width / 2;
    for (const name of ['kicker', 'title'] as const) {
      const part = parts[name];
      if (part)
        Object.assign(part, {
          x: middle - gutter - column,
          width: column,
          y: top + (height - leftHeight) / 2 + part.y,
        });
    }
    if (subtitle) {
      parts.subtitle = { x: middle + gutter, y: top + (height - subtitle.height) / 2, ...subtitle };
    }
    if (showRule) parts.rule = { x: middle - ruleThickness / 2, y: top, width: ruleThickness, height };
    return { parts, texts, vertical: true, size };
  }

  const width = box.width * (style === 'centered' ? 0.86 : 0.78);
  const kicker = measure(texts.kicker, width);
  const title = measure(texts.title, width)!;
  const subtitle = measure(texts.subtitle, width * 0.85);
  const x = style === 'centered' ? (w: number) => box.x + (box.width - w) / 2 : () => box.x;
  const entries = [
    ...(kicker ? [{ part: 'kicker' as const, ...kicker, gap: 0 }] : []),
    { part: 'title' as const, ...title, gap: size * 0.12 },
    ...(showRule
      ? [{ part: 'rule' as const, width: size * 0.64, height: ruleThickness, gap: size * 0.2 }]
      : []),
    ...(subtitle ? [{ part: 'subtitle' as const, ...subtitle, gap: size * (showRule ? 0.22 : 0.16) }] : []),
  ];
  const height = stack(entries, x, parts);
  shiftDown(parts, ['kicker', 'title', 'rule', 'subtitle'], box.y + (box.height - height) / 2);
  return { parts, texts, vertical: false, size };
}

/** Entrance beats, in order; the exit runs them the other way, last line first. */
const ENTER_BEATS: Record<Part, [number, number]> = {
  kicker: [0, 0.45],
  rule: [0.15, 0.6],
  title: [0.2, 0.8],
  subtitle: [0.45, 1],
};
const EXIT_BEATS: Record<Part, [number, number]> = {
  subtitle: [0, 0.6],
  title: [0.15, 0.8],
  rule: [0.3, 0.9],
  kicker: [0.4, 1],
};

export function drawTitleCard(args: ElementDrawArgs<TitleCardElement>): void {
  const { ctx, element, box, env, time } = args;
  const phase = buildPhase(element, time, env.fps, {
    enter: TITLE_CARD_ENTER_SECONDS,
    exit: TITLE_CARD_EXIT_SECONDS,
  });
  const layout = titleCardLayout(element, env, box);
  const { size } = layout;
  const arrived = (part: Part) => beat(phase.enter, ...ENTER_BEATS[part], EASE_OUT);
  const left = (part: Part) => beat(phase.exit, ...EXIT_BEATS[part], EASE_IN);
  const lift = size * 0.1;

  const rule = layout.parts.rule;
  const ruleShown = rule ? arrived('rule') * (1 - left('rule')) : 0;
  if (rule && ruleShown > 0) {
    const grown = layout.vertical
      ? { ...rule, y: rule.y + (rule.height * (1 - ruleShown)) / 2, height: rule.height * ruleShown }
      : element.style === 'left'
        ? { ...rule, width: rule.width * ruleShown }
        : { ...rule, x: rule.x + (rule.width * (1 - ruleShown)) / 2, width: rule.width * ruleShown };
    ctx.fillStyle = canvasColor(element.accent ?? '#f59e0b');
    ctx.fillRect(grown.x, grown.y, grown.width, grown.height);
  }

  for (const part of ['kicker', 'title', 'subtitle'] as const) {
    const text = layout.texts[part];
    const partBox = layout.parts[part];
    if (!text || !partBox) continue;
    const enter = arrived(part);
    const exit = left(part);
    if (enter <= 0 || exit >= 1) continue;
    ctx.save();
    if (part === 'title') {
      // The title rises out of a mask at its own box, so it appears from a line, not from nowhere.
      ctx.beginPath();
      ctx.rect(box.x - size, partBox.y - size * 0.2, box.width + 2 * size, partBox.height + size * 0.4);
      ctx.clip();
      ctx.translate(0, partBox.height * 0.9 * (1 - enter) - lift * exit);
      ctx.globalAlpha *= (1 - exit) * Math.min(1, enter * 2);
    } else {
      ctx.translate(0, size * 0.16 * (1 - enter) - lift * exit);
      ctx.globalAlpha *= enter * (1 - exit);
    }
    args.observeText?.(text, partBox);
    drawTextBlock(ctx, env, text, partBox);
    ctx.restore();
  }
}
