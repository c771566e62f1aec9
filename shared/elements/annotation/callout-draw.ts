// The callout: a box of text with a pointer out to a target, a point or another element (which it
// follows as that element moves). The target dot pops, the pointer draws out to the box, the box rises.
import type { Box, Ctx2D, DrawEnv } from '../../canvas/types.ts';
import { roundedRectPath } from '../../canvas/paint.ts';
import { resolveLength, resolvePosition } from '../../layout/length.ts';
import type { CalloutElement } from '../../spec/annotation-elements.ts';
import { canvasColor } from '../../spec/color.ts';
import type { TextElement } from '../../spec/text-element.ts';
import type { Point } from './annotation-geometry.ts';
import { calloutPointer } from './annotation-geometry.ts';
import { EASE_IN, EASE_OUT, EASE_POP, beat, buildPhase } from '../build-phase.ts';
import type { ElementDrawArgs, SceneLookup } from '../definition.ts';
import { drawTextBlock } from '../text/text-draw.ts';
import { measureText } from '../text/text-measure.ts';

export const CALLOUT_ENTER_SECONDS = 0.8;
export const CALLOUT_EXIT_SECONDS = 0.4;
const DEFAULT_SIZE = 34;
const DEFAULT_RADIUS = 18;
const PADDING_EM = 0.7;
/** A callout reads as a note, not a paragraph: its text wraps at this width (design px). */
const MAX_TEXT_WIDTH = 520;
const POINTER_WIDTH = 4;
const DOT_RADIUS = 9;
const HALO_RADIUS = 22;
const RISE = 18;

function lengthContext(env: DrawEnv) {
  return { frame: env.size, scale: env.scale };
}

export function calloutText(element: CalloutElement): TextElement {
  return {
    type: 'text',
    text: element.text,
    font: element.font ?? 'sans',
    weight: element.weight ?? 600,
    size: element.size ?? DEFAULT_SIZE,
    lineHeight: 1.3,
    color: element.color ?? '#0f172a',
    align: 'left',
  };
}

function padding(element: CalloutElement, env: DrawEnv): number {
  const size = resolveLength(element.size ?? DEFAULT_SIZE, env.size.height, lengthContext(env));
  return element.padding === undefined
    ? size * PADDING_EM
    : resolveLength(element.padding, size, lengthContext(env));
}

export function measureCallout(
  element: CalloutElement,
  env: DrawEnv,
  maxWidth: number,
): { width: number; height: number } {
  const pad = padding(element, env);
  const textWidth = Math.max(0, Math.min(maxWidth - 2 * pad, MAX_TEXT_WIDTH * env.scale));
  const text = measureText(calloutText(element), env, textWidth);
  return { width: text.width + 2 * pad, height: text.height + 2 * pad };
}

/** The target in the callout's drawing coordinates: a point, a box, or nothing (unknown id). */
export function calloutTarget(
  element: CalloutElement,
  scene: SceneLookup | undefined,
  env: DrawEnv,
): Point | Box | undefined {
  const target = element.target;
  if (typeof target === 'string') return scene?.boxOf(target);
  const container = scene?.container ?? { x: 0, y: 0, ...env.size };
  const context = lengthContext(env);
  return {
    x: resolvePosition(target.x, container.x, container.width, context),
    y: resolvePosition(target.y, container.y, container.height, context),
  };
}

function drawPointer(
  ctx: Ctx2D,
  pointer: { from: Point; to: Point },
  drawn: number,
  dot: number,
  accent: string,
  env: DrawEnv,
): void {
  const { from, to } = pointer;
  if (drawn > 0) {
    ctx.beginPath();
    ctx.moveTo(to.x, to.y);
    ctx.lineTo(to.x + (from.x - to.x) * drawn, to.y + (from.y - to.y) * drawn);
    ctx.strokeStyle = accent;
    ctx.lineWidth = POINTER_WIDTH * env.scale;
    ctx.lineCap = 'round';
    ctx.stroke();
  }
  if (dot > 0) {
    ctx.save();
    ctx.globalAlpha *= 0.28;
    ctx.beginPath();
    ctx.arc(to.x, to.y, HALO_RADIUS * env.scale * dot, 0, Math.PI * 2);
    ctx.fillStyle = accent;
    ctx.fill();
    ctx.restore();
    ctx.beginPath();
    ctx.arc(to.x, to.y, DOT_RADIUS * env.scale * dot, 0, Math.PI * 2);
    ctx.fillStyle = accent;
    ctx.fill();
    ctx.lineWidth = 3 * env.scale;
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
  }
}

export function drawCallout(args: ElementDrawArgs<CalloutElement>): void {
  const { ctx, element, box, env, time } = args;
  const phase = buildPhase(element, time, env.fps, {
    enter: CALLOUT_ENTER_SECONDS,
    exit: CALLOUT_EXIT_SECONDS,
  });
  const target = calloutTarget(element, args.scene, env);
  const pointer = target && calloutPointer(box, target);
  const accent = canvasColor(element.accent ?? '#f59e0b');
  if (pointer) {
    const drawn = beat(phase.enter, 0.15, 0.6) * (1 - beat(phase.exit, 0.3, 0.9, EASE_IN));
    const dot = beat(phase.enter, 0, 0.3, EASE_POP) * (1 - beat(phase.exit, 0.6, 1, EASE_IN));
    drawPointer(ctx, pointer, drawn, dot, accent, env);
  }

  const arrive = pointer ? beat(phase.enter, 0.45, 1, EASE_OUT) : beat(phase.enter, 0, 1, EASE_OUT);
  const leave = beat(phase.exit, 0, 0.6, EASE_IN);
  const visible = arrive * (1 - leave);
  if (visible <= 0) return;
  const lift = (RISE * (1 - arrive) - RISE * 0.7 * leave) * env.scale;
  ctx.save();
  ctx.globalAlpha *= visible;
  ctx.translate(0, lift);
  const radius = resolveLength(
    element.radius ?? DEFAULT_RADIUS,
    Math.min(box.width, box.height),
    lengthContext(env),
  );
  ctx.save();
  if (!element.shadow) {
    ctx.shadowColor = 'rgba(2, 6, 23, 0.35)';
    ctx.shadowBlur = 28 * env.scale;
    ctx.shadowOffsetY = 10 * env.scale;
  }
  ctx.beginPath();
  roundedRectPath(ctx, box, radius);
  const fill = element.background ?? '#ffffff';
  ctx.fillStyle = canvasColor(fill);
  ctx.fill();
  ctx.restore();
  const pad = padding(element, env);
  const textBox = {
    x: box.x + pad,
    y: box.y + pad,
    width: box.width - 2 * pad,
    height: box.height - 2 * pad,
  };
  const text = calloutText(element);
  // Review hides the whole callout to read what its text sits on, so the box goes with the text as
  // its backing (padding 0: the box is already around textBox, and the layout must not move).
  args.observeText?.({ ...text, background: { color: fill, paddingX: 0, paddingY: 0 } }, textBox);
  drawTextBlock(ctx, env, text, textBox);
  ctx.restore();
}
