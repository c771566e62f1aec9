// The progress bar: a track filled by how far the video, the scene or the element has played, or by
// a value (keyframe "progress" to animate it), with an optional label and percentage above it.
import type { Box, Ctx2D, DrawEnv } from '../canvas/types.ts';
import { roundedRectPath } from '../canvas/paint.ts';
import { resolveLength } from '../layout/length.ts';
import { canvasColor } from '../spec/color.ts';
import type { TextElement } from '../spec/text-element.ts';
import type { ProgressBarElement } from '../spec/title-elements.ts';
import { EASE_IN, EASE_OUT, beat, buildPhase } from './build-phase.ts';
import type { ElementDrawArgs, ElementTime } from './definition.ts';
import { drawTextBlock } from './text/text-draw.ts';
import { measureText } from './text/text-measure.ts';

export const PROGRESS_ENTER_SECONDS = 0.6;
export const PROGRESS_EXIT_SECONDS = 0.4;
const DEFAULT_THICKNESS = 10;
const LABEL_SIZE = 26;
/** Space between the label line and the bar, per label size. */
const LABEL_GAP = 0.45;

function lengthContext(env: DrawEnv) {
  return { frame: env.size, scale: env.scale };
}

function thicknessOf(element: ProgressBarElement, env: DrawEnv, reference: number): number {
  return resolveLength(element.thickness ?? DEFAULT_THICKNESS, reference, lengthContext(env));
}

function labelText(element: ProgressBarElement, text: string, align: 'left' | 'right'): TextElement {
  return {
    type: 'text',
    text,
    font: element.font ?? 'sans',
    weight: 600,
    size: LABEL_SIZE,
    letterSpacing: 0.04,
    color: element.color ?? '#ffffff',
    align,
    maxLines: 1,
  };
}

function hasLabelLine(element: ProgressBarElement): boolean {
  return element.label !== undefined || element.showPercent === true;
}

export function measureProgressBar(
  element: ProgressBarElement,
  env: DrawEnv,
  maxWidth: number,
): { width: number; height: number } {
  const thickness = thicknessOf(element, env, 0);
  if (!hasLabelLine(element)) return { width: maxWidth, height: thickness };
  const line = measureText(labelText(element, element.label ?? '100%', 'left'), env, maxWidth);
  return { width: maxWidth, height: line.height + LABEL_GAP * LABEL_SIZE * env.scale + thickness };
}

/** Share of time played from `seconds` of `duration`: full on the last frame, not one frame after. */
function played(seconds: number | undefined, duration: number | undefined, fps: number): number | undefined {
  if (seconds === undefined || duration === undefined) return undefined;
  const span = duration - 1 / fps;
  return span <= 0 ? 1 : seconds / span;
}

/** How full the bar is, 0..1. */
export function progressFill(
  element: ProgressBarElement,
  keyed: number | string | undefined,
  time: ElementTime,
  fps: number,
): number {
  let fill: number | undefined;
  if (typeof keyed === 'number') fill = keyed;
  else if (element.value !== undefined) fill = element.value;
  else {
    const of = element.of ?? 'video';
    fill =
      of === 'video'
        ? played(time.videoSeconds, time.videoDuration, fps)
        : of === 'scene'
          ? played(time.sceneSeconds, time.sceneDuration, fps)
          : undefined;
    fill ??= played(time.elementSeconds, time.elementDuration, fps);
  }
  return Math.min(1, Math.max(0, fill ?? 0));
}

function bar(ctx: Ctx2D, box: Box, radius: number, color: string): void {
  if (box.width <= 0 || box.height <= 0) return;
  ctx.beginPath();
  roundedRectPath(ctx, box, radius);
  ctx.fillStyle = canvasColor(color);
  ctx.fill();
}

export function drawProgressBar(args: ElementDrawArgs<ProgressBarElement>): void {
  const { ctx, element, box, env, time, state } = args;
  const phase = buildPhase(element, time, env.fps, {
    enter: PROGRESS_ENTER_SECONDS,
    exit: PROGRESS_EXIT_SECONDS,
  });
  const grown = beat(phase.enter, 0, 1, EASE_OUT);
  const leaving = beat(phase.exit, 0, 1, EASE_IN);
  if (grown <= 0 || leaving >= 1) return;
  const fill = progressFill(element, state.props.progress, time, env.fps);
  const fullThickness = Math.min(box.height, thicknessOf(element, env, box.height));
  // Leaving, the bar slims towards its bottom edge as it fades.
  const thickness = fullThickness * (1 - 0.7 * leaving);
  const track = {
    x: box.x,
    y: box.y + box.height - fullThickness + (fullThickness - thickness),
    width: box.width * grown,
    height: thickness,
  };
  const radius = element.rounded === false ? 0 : thickness / 2;
  ctx.save();
  ctx.globalAlpha *= 1 - leaving;
  bar(ctx, track, radius, element.track ?? 'rgba(255, 255, 255, 0.18)');
  ctx.save();
  ctx.beginPath();
  roundedRectPath(ctx, track, radius);
  ctx.clip();
  bar(ctx, { ...track, width: box.width * fill }, radius, element.fill ?? '#f59e0b');
  ctx.restore();

  if (hasLabelLine(element)) {
    const labelBox = {
      x: box.x,
      y: box.y,
      width: box.width,
      height: box.height - fullThickness - LABEL_GAP * LABEL_SIZE * env.scale,
    };
    ctx.globalAlpha *= beat(phase.enter, 0.3, 1, EASE_OUT);
    if (element.label !== undefined) {
      const label = labelText(element, element.label, 'left');
      args.observeText?.(label, labelBox);
      drawTextBlock(ctx, env, label, labelBox);
    }
    if (element.showPercent) {
      const percent = labelText(element, `${Math.round(fill * 100)}%`, 'right');
      args.observeText?.(percent, labelBox);
      drawTextBlock(ctx, env, percent, labelBox, { overrides: { tabularDigits: true } });
    }
  }
  ctx.restore();
}
