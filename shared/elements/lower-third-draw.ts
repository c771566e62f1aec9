// The lower third: a name and a title in one of four styles. Its parts are laid out from the measured
// text (so the box hugs it), then revealed beat by beat; the exit plays the entrance backwards.
import type { Box, Ctx2D, DrawEnv } from '../canvas/types.ts';
import { roundedRectPath } from '../canvas/paint.ts';
import { resolveLength } from '../layout/length.ts';
import { canvasColor, fadeColor } from '../spec/color.ts';
import type { TextElement } from '../spec/text-element.ts';
import type { LowerThirdElement } from '../spec/title-elements.ts';
import { EASE_POP, beat, buildPhase } from './build-phase.ts';
import type { ElementDrawArgs } from './definition.ts';
import { drawTextBlock } from './text/text-draw.ts';
import { measureText } from './text/text-measure.ts';

export const LOWER_THIRD_ENTER_SECONDS = 0.9;
export const LOWER_THIRD_EXIT_SECONDS = 0.5;
const DEFAULT_SIZE = 52;
const TITLE_RATIO = 0.6;
const READABLE_SHADOW = { color: 'rgba(2, 6, 23, 0.55)', blur: 14, y: 2 };

type Style = NonNullable<LowerThirdElement['style']>;

/** Width each style adds beside its text, per name size. */
const CHROME_WIDTH: Record<Style, number> = { bar: 1.14, underline: 0, boxed: 0.72, minimal: 0.6 };

/** Where each part sits, relative to the element box's top-left, in real pixels. */
export interface LowerThirdLayout {
  width: number;
  height: number;
  /** Filled shapes: the accent bar, panels, boxes, the rule and the dot. */
  shapes: { box: Box; color: string; role: 'accent' | 'panel' | 'name' | 'title' | 'dot' }[];
  name: { text: TextElement; box: Box };
  title: { text: TextElement; box: Box } | undefined;
}

function nameSize(element: LowerThirdElement, env: DrawEnv): number {
  return resolveLength(element.size ?? DEFAULT_SIZE, env.size.height, { frame: env.size, scale: env.scale });
}

function texts(element: LowerThirdElement, style: Style, size: number, env: DrawEnv) {
  const boxed = style === 'boxed';
  const color = element.color ?? '#ffffff';
  const shadow = style === 'underline' || style === 'minimal' ? READABLE_SHADOW : undefined;
  const base = { type: 'text', font: element.font ?? 'sans', align: 'left', maxLines: 1 } as const;
  const name: TextElement = {
    ...base,
    text: element.name,
    size: size / env.scale,
    weight: 700,
    lineHeight: 1.1,
    color: boxed ? (element.color ?? '#0f172a') : color,
    ...(shadow && { textShadow: shadow }),
  };
  const title: TextElement | undefined = element.title
    ? {
        ...base,
        text: element.title,
        size: (size * TITLE_RATIO) / env.scale,
        weight: 500,
        lineHeight: 1.2,
        letterSpacing: 0.02,
        color: boxed || style === 'bar' ? color : fadeColor(color, 0.8),
        ...(shadow && { textShadow: shadow }),
      }
    : undefined;
  return { name, title };
}

export function lowerThirdLayout(
  element: LowerThirdElement,
  env: DrawEnv,
  maxWidth: number,
): LowerThirdLayout {
  const style = element.style ?? 'bar';
  const s = nameSize(element, env);
  const accent = element.accent ?? '#6366f1';
  const { name, title } = texts(element, style, s, env);
  // The text gets what the style's bars, padding and dot leave of the width.
  const room = Math.max(0, maxWidth - CHROME_WIDTH[style] * s);
  const nameSized = measureText(name, env, room);
  const titleSized = title ? measureText(title, env, room) : { width: 0, height: 0 };
  const textWidth = Math.max(nameSized.width, titleSized.width);
  const gap = title ? 0.12 * s : 0;
  switch (style) {
    case 'bar': {
      const bar = 0.14 * s;
      const padX = 0.5 * s;
      const padY = 0.32 * s;
      const height = padY * 2 + nameSized.height + gap + titleSized.height;
      const width = bar + padX * 2 + textWidth;
      return {
        width,
        height,
        shapes: [
          {
            box: { x: bar, y: 0, width: width - bar, height },
            color: element.background ?? '#0f172a',
            role: 'panel',
          },
          { box: { x: 0, y: 0, width: bar, height }, color: accent, role: 'accent' },
        ],
        name: { text: name, box: { x: bar + padX, y: padY, width: textWidth, height: nameSized.height } },
        title: title && {
          text: title,
          box: {
            x: bar + padX,
            y: padY + nameSized.height + gap,
            width: textWidth,
            height: titleSized.height,
          },
        },
      };
    }
    case 'underline': {
      const rule = { x: 0, y: nameSized.height + 0.1 * s, width: textWidth, height: 0.08 * s };
      const titleTop = rule.y + rule.height + 0.16 * s;
      return {
        width: textWidth,
        height: title ? titleTop + titleSized.height : rule.y + rule.height,
        shapes: [{ box: rule, color: accent, role: 'accent' }],
        name: { text: name, box: { x: 0, y: 0, width: textWidth, height: nameSized.height } },
        title: title && {
          text: title,
          box: { x: 0, y: titleTop, width: textWidth, height: titleSized.height },
        },
      };
    }
    case 'boxed': {
      const padX = 0.36 * s;
      const nameBox = { x: 0, y: 0, width: nameSized.width + 2 * padX, height: nameSized.height + 0.4 * s };
      const titleBox = {
        x: 0,
        y: nameBox.height,
        width: title ? titleSized.width + 2 * padX : 0,
        height: title ? titleSized.height + 0.32 * s : 0,
      };
      return {
        width: Math.max(nameBox.width, titleBox.width),
        height: nameBox.height + titleBox.height,
        shapes: [
          { box: nameBox, color: element.background ?? '#ffffff', role: 'name' },
          ...(title ? [{ box: titleBox, color: accent, role: 'title' as const }] : []),
        ],
        name: { text: name, box: { x: padX, y: 0.2 * s, width: nameSized.width, height: nameSized.height } },
        title: title && {
          text: title,
          box: { x: padX, y: nameBox.height + 0.16 * s, width: titleSized.width, height: titleSized.height },
        },
      };
    }
    case 'minimal': {
      const dot = 0.26 * s;
      const indent = dot + 0.34 * s;
      return {
        width: indent + textWidth,
        height: nameSized.height + gap + titleSized.height,
        shapes: [
          {
            box: { x: 0, y: nameSized.height / 2 - dot / 2, width: dot, height: dot },
            color: accent,
            role: 'dot',
          },
        ],
        name: { text: name, box: { x: indent, y: 0, width: textWidth, height: nameSized.height } },
        title: title && {
          text: title,
          box: { x: indent, y: nameSized.height + gap, width: textWidth, height: titleSized.height },
        },
      };
    }
  }
}

export function measureLowerThird(
  element: LowerThirdElement,
  env: DrawEnv,
  maxWidth: number,
): { width: number; height: number } {
  const layout = lowerThirdLayout(element, env, maxWidth);
  return { width: Math.ceil(layout.width), height: Math.ceil(layout.height) };
}

function at(box: Box, origin: Box): Box {
  return { ...box, x: box.x + origin.x, y: box.y + origin.y };
}

/** The reveal of each part at progress 0..1 of the entrance (played backwards to leave). */
function beats(style: Style, p: number) {
  switch (style) {
    case 'bar':
      return {
        accent: beat(p, 0, 0.35),
        panel: beat(p, 0.2, 0.7),
        name: beat(p, 0.4, 0.9),
        title: beat(p, 0.5, 1),
      };
    case 'underline':
      return { accent: beat(p, 0.25, 0.75), panel: 1, name: beat(p, 0, 0.6), title: beat(p, 0.45, 1) };
    case 'boxed':
      return {
        accent: beat(p, 0.3, 0.8),
        panel: beat(p, 0, 0.5),
        name: beat(p, 0.25, 0.7),
        title: beat(p, 0.5, 1),
      };
    case 'minimal':
      return {
        accent: beat(p, 0, 0.35, EASE_POP),
        panel: 1,
        name: beat(p, 0.15, 0.7),
        title: beat(p, 0.35, 1),
      };
  }
}

function fillShape(ctx: Ctx2D, box: Box, color: string, round: boolean): void {
  ctx.beginPath();
  if (round)
    ctx.ellipse(
      box.x + box.width / 2,
      box.y + box.height / 2,
      box.width / 2,
      box.height / 2,
      0,
      0,
      Math.PI * 2,
    );
  else roundedRectPath(ctx, box, 0);
  ctx.fillStyle = canvasColor(color);
  ctx.fill();
}

/** Text that slides in from `shift` pixels to the left, inside `clip` (so it appears from an edge). */
function drawSlidingText(
  args: ElementDrawArgs<LowerThirdElement>,
  part: { text: TextElement; box: Box },
  reveal: number,
  shift: { x: number; y: number },
  clip: Box | undefined,
  backing: string | undefined,
): void {
  if (reveal <= 0) return;
  const { ctx, env } = args;
  ctx.save();
  if (clip) {
    ctx.beginPath();
    ctx.rect(clip.x, clip.y, clip.width, clip.height);
    ctx.clip();
  }
  ctx.globalAlpha *= Math.min(1, reveal * 1.4);
  ctx.translate(shift.x * (1 - reveal), shift.y * (1 - reveal));
  // Review hides the whole lower third to read what its text sits on, so the panel or box under a
  // line goes with it as its backing (padding 0, so the observed layout is the drawn one).
  const observed = backing
    ? { ...part.text, background: { color: backing, paddingX: 0, paddingY: 0 } }
    : part.text;
  args.observeText?.(observed, part.box);
  drawTextBlock(ctx, env, part.text, part.box);
  ctx.restore();
}

export function drawLowerThird(args: ElementDrawArgs<LowerThirdElement>): void {
  const { ctx, element, box, env, time } = args;
  const style = element.style ?? 'bar';
  const phase = buildPhase(element, time, env.fps, {
    enter: LOWER_THIRD_ENTER_SECONDS,
    exit: LOWER_THIRD_EXIT_SECONDS,
  });
  const progress = phase.exit > 0 ? 1 - phase.exit : phase.enter;
  if (progress <= 0) return;
  const layout = lowerThirdLayout(element, env, box.width);
  const reveal = beats(style, progress);
  const s = nameSize(element, env);
  for (const shape of layout.shapes) {
    const placed = at(shape.box, box);
    if (shape.role === 'dot') {
      const grown = reveal.accent;
      const scaled = {
        x: placed.x + (placed.width * (1 - grown)) / 2,
        y: placed.y + (placed.height * (1 - grown)) / 2,
        width: placed.width * grown,
        height: placed.height * grown,
      };
      if (grown > 0) fillShape(ctx, scaled, shape.color, true);
      continue;
    }
    const share =
      shape.role === 'accent' ? reveal.accent : shape.role === 'title' ? reveal.accent : reveal.panel;
    if (share <= 0) continue;
    // The bar style's accent grows up from the baseline; everything else wipes out from the left.
    const grown =
      style === 'bar' && shape.role === 'accent'
        ? { ...placed, y: placed.y + placed.height * (1 - share), height: placed.height * share }
        : { ...placed, width: placed.width * share };
    fillShape(ctx, grown, shape.color, false);
  }
  const panel = style === 'bar' ? at(layout.shapes[0]!.box, box) : undefined;
  const fromLeft = { x: -0.6 * s, y: 0 };
  const fromBelow = { x: 0, y: 0.4 * s };
  const shift = style === 'bar' || style === 'boxed' ? fromLeft : fromBelow;
  const nameClip = style === 'boxed' ? at(layout.shapes[0]!.box, box) : panel;
  const titleClip = style === 'boxed' ? layout.shapes[1] && at(layout.shapes[1].box, box) : panel;
  const nameBacking = style === 'bar' || style === 'boxed' ? layout.shapes[0]?.color : undefined;
  const titleBacking =
    style === 'bar' ? layout.shapes[0]?.color : style === 'boxed' ? layout.shapes[1]?.color : undefined;
  drawSlidingText(
    args,
    { ...layout.name, box: at(layout.name.box, box) },
    reveal.name,
    shift,
    nameClip,
    nameBacking,
  );
  if (layout.title) {
    drawSlidingText(
      args,
      { ...layout.title, box: at(layout.title.box, box) },
      reveal.title,
      shift,
      titleClip,
      titleBacking,
    );
  }
}
