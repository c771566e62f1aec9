// The spotlight: darkens the frame except for a soft-edged hole, the spotlight's own box or a target
// element's. It dims what was drawn before it, so elements listed after it stay bright.
import type { Box, Ctx2D, DrawEnv } from '../../canvas/types.ts';
import { resolveLength } from '../../layout/length.ts';
import type { SpotlightElement } from '../../spec/annotation-elements.ts';
import { canvasColor } from '../../spec/color.ts';
import { boxCenter, padBox, scaleBox } from './annotation-geometry.ts';
import { EASE_IN, EASE_OUT, beat, buildPhase } from '../build-phase.ts';
import type { ElementDrawArgs, SceneLookup } from '../definition.ts';

export const SPOTLIGHT_ENTER_SECONDS = 0.8;
export const SPOTLIGHT_EXIT_SECONDS = 0.5;
export const SPOTLIGHT_SIZE = 420;
const DEFAULT_DIM = 0.7;
const DEFAULT_FEATHER = 32;
const DEFAULT_RADIUS = 24;
const DEFAULT_PADDING = 24;
/** The hole starts this much wider and closes in; it opens this much wider on the way out. */
const ENTER_WIDENING = 1.2;
const EXIT_WIDENING = 0.6;

function lengthContext(env: DrawEnv) {
  return { frame: env.size, scale: env.scale };
}

/** The lit hole at rest, in the spotlight's drawing coordinates; undefined for an unknown target. */
export function spotlightHole(
  element: SpotlightElement,
  box: Box,
  scene: SceneLookup | undefined,
  env: DrawEnv,
): Box | undefined {
  if (element.target === undefined) return box;
  const target = scene?.boxOf(element.target);
  if (!target) return undefined;
  return padBox(target, resolveLength(element.padding ?? DEFAULT_PADDING, 0, lengthContext(env)));
}

/** The hole and how dark the rest is at a moment of the entrance or exit. */
export function spotlightAt(
  element: SpotlightElement,
  hole: Box,
  args: Pick<ElementDrawArgs<SpotlightElement>, 'time'>,
  fps: number,
): { hole: Box; dim: number } {
  const phase = buildPhase(element, args.time, fps, {
    enter: SPOTLIGHT_ENTER_SECONDS,
    exit: SPOTLIGHT_EXIT_SECONDS,
  });
  const closing = beat(phase.enter, 0, 1, EASE_OUT);
  const opening = beat(phase.exit, 0, 1, EASE_IN);
  const widening = ENTER_WIDENING * (1 - closing) + EXIT_WIDENING * opening;
  return {
    hole: scaleBox(hole, 1 + widening),
    dim: (element.dim ?? DEFAULT_DIM) * beat(phase.enter, 0, 0.7, EASE_OUT) * (1 - opening),
  };
}

function holePath(ctx: Ctx2D, element: SpotlightElement, hole: Box, env: DrawEnv): void {
  if ((element.shape ?? 'circle') === 'circle') {
    const center = boxCenter(hole);
    ctx.moveTo(center.x + Math.abs(hole.width) / 2, center.y);
    ctx.ellipse(center.x, center.y, Math.abs(hole.width) / 2, Math.abs(hole.height) / 2, 0, 0, Math.PI * 2);
    return;
  }
  const radius = resolveLength(element.radius ?? DEFAULT_RADIUS, 0, lengthContext(env));
  ctx.roundRect(hole.x, hole.y, hole.width, hole.height, Math.min(radius, hole.width / 2, hole.height / 2));
}

export function drawSpotlight(args: ElementDrawArgs<SpotlightElement>): void {
  const { ctx, element, box, env, scene } = args;
  const rest = spotlightHole(element, box, scene, env);
  if (!rest) return;
  const { hole, dim } = spotlightAt(element, rest, args, env.fps);
  if (dim <= 0) return;
  const feather = resolveLength(element.feather ?? DEFAULT_FEATHER, 0, lengthContext(env));
  // The dark layer reaches past the frame by the blur's reach, so its outer edge never softens in.
  const frame = padBox(scene?.frame() ?? { x: 0, y: 0, ...env.size }, feather * 2);
  ctx.save();
  ctx.globalAlpha *= dim;
  ctx.fillStyle = canvasColor(element.color ?? '#020617');
  if (feather > 0.5) ctx.filter = `blur(${(feather / 2).toFixed(2)}px)`;
  ctx.beginPath();
  ctx.rect(frame.x, frame.y, frame.width, frame.height);
  holePath(ctx, element, hole, env);
  ctx.fill('evenodd');
  ctx.restore();
}
