// Draws one frame of a resolved video: scene backgrounds, laid-out animated elements, transitions.
import { perHost } from '../canvas/host-cache.ts';
import { animatedState } from '../timeline/evaluate.ts';
import type { AnimatedState } from '../animation/state.ts';
import { elementDrawer } from '../elements/registry.ts';
import type { Ink } from '../elements/definition.ts';
import type { CustomElement, ModelElement } from '../spec/model.ts';
import { isTextualType } from '../spec/elements.ts';
import { drawnFrame, frameComposition } from '../timeline/resolve.ts';
import type { ResolvedElement, ResolvedLayer, ResolvedScene, ResolvedVideo } from '../timeline/types.ts';
import { frameBox, safeBox } from '../elements/place.ts';
import { placeResolved } from '../elements/reflow.ts';
import { resolveLength } from '../layout/length.ts';
import { backgroundIsOpaque, drawBackground } from './background.ts';
import { sceneBoxes, sceneLookup } from './scene-lookup.ts';
import { clipToInk, clipToWipe, elementFilter, filterReach, revealFromEdge } from './element-effects.ts';
import { compositeTransition } from './transition.ts';
import type { Box, Ctx2D, DrawEnv, OffscreenSurface } from '../canvas/types.ts';
import { canvasColor } from '../spec/color.ts';

interface FrameContext {
  env: DrawEnv;
  frame: number;
  sceneSeconds: number;
  inTransition: boolean;
  sceneDuration: number;
  videoDuration: number;
  /** The scene's id'd element boxes this frame, for annotations that point at them. */
  boxes: () => ReadonlyMap<string, { box: Box; matrix: DOMMatrix }>;
  /** The transform the scene is drawn under: frame pixels to the surface's. */
  base: DOMMatrix;
}

function numberProp(state: AnimatedState, name: string): number | undefined {
  const value = state.props[name];
  return typeof value === 'number' ? value : undefined;
}

/**
 * Moves, rotates and scales the element about its box's centre, as it is drawn: review derives where
 * an element lands from the same transform.
 */
export function transformElement(ctx: Ctx2D, element: ModelElement, box: Box, state: AnimatedState): void {
  const scale = (numberProp(state, 'scale') ?? element.scale ?? 1) * state.scale;
  const rotation = (numberProp(state, 'rotation') ?? element.rotation ?? 0) + state.rotation;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  ctx.translate(cx + state.dx, cy + state.dy);
  if (rotation) ctx.rotate((rotation * Math.PI) / 180);
  if (scale !== 1 || state.scaleX !== 1 || state.scaleY !== 1)
    ctx.scale(scale * state.scaleX, scale * state.scaleY);
  ctx.translate(-cx, -cy);
}

export function drawElement(
  ctx: Ctx2D,
  resolved: ResolvedElement,
  container: Box,
  frame: FrameContext,
): void {
  const { env, sceneSeconds } = frame;
  if (sceneSeconds < resolved.startSeconds || sceneSeconds >= resolved.endSeconds) return;
  const element = resolved.element;
  if (env.review?.hide?.(element)) return;
  const state = animatedState(resolved, sceneSeconds, { scale: env.scale, size: env.size, fps: env.fps });
  const opacity = (numberProp(state, 'opacity') ?? element.opacity ?? 1) * state.opacity;
  // Nothing would show: transparent, wiped away, or wholly behind the edge it is revealed from.
  if (
    opacity <= 0.002 ||
    (state.wipe && state.wipe.visible <= 0) ||
    (state.reveal && state.reveal.hidden >= 1)
  )
    return;
  // Drawn as placed: a reflowed text is drawn as the reflow narrowed it (shared/elements/reflow.ts).
  const { element: shown, box } = placeResolved(resolved, container, env, state);
  const blur = (numberProp(state, 'blur') ?? 0) * env.scale + state.blur;

  ctx.save();
  env.review?.enter?.(resolved.key);
  ctx.globalAlpha *= opacity;
  transformElement(ctx, shown, box, state);
  clipToWipe(ctx, box, state);
  revealFromEdge(ctx, box, state);
  const filter = elementFilter(blur, state);
  const context = { frame: env.size, scale: env.scale };
  const shadow = shown.shadow && {
    color: canvasColor(shown.shadow.color),
    blur: resolveLength(shown.shadow.blur ?? 24, 0, context),
    x: resolveLength(shown.shadow.x ?? 0, 0, context),
    y: resolveLength(shown.shadow.y ?? 8, 0, context),
  };
  if (filter || shadow) {
    const ink = elementInk(ctx, shown, box, state, env);
    // A canvas shadow is drawn with its own blur, not as glyph masks: the clip then keeps the corner.
    if (ink) clipToInk(ctx, ink.box, filterReach(blur, state, shadow) + ink.spread, ink.shiftable && !shadow);
  }
  if (filter) ctx.filter = filter;
  const observe = env.review?.observe;
  // Counters and captions are judged by the text they draw, which they report themselves.
  const observesItself = observe && shown.type !== 'text' && isTextualType(shown.type);
  const drawnAs = (what: ModelElement, whatBox: Box) => {
    const m = ctx.getTransform();
    observe?.({
      key: resolved.key,
      element: what,
      box: whatBox,
      transform: { a: m.a, b: m.b, c: m.c, d: m.d, e: m.e, f: m.f },
      alpha: ctx.globalAlpha,
      state,
      inTransition: frame.inTransition,
    });
  };
  if (observe && !observesItself) drawnAs(shown, box);
  if (shadow) {
    ctx.shadowColor = shadow.color;
    ctx.shadowBlur = shadow.blur;
    ctx.shadowOffsetX = shadow.x;
    ctx.shadowOffsetY = shadow.y;
  }
  const elementSeconds = sceneSeconds - resolved.startSeconds;
  const elementDuration = resolved.endSeconds - resolved.startSeconds;
  if (shown.type === 'custom') {
    drawCustom(ctx, shown, box, frame, elementSeconds, elementDuration);
  } else if (shown.type === 'group') {
    if (shown.clip) {
      ctx.beginPath();
      ctx.rect(box.x, box.y, box.width, box.height);
      ctx.clip();
    }
    for (const child of resolved.children) drawElement(ctx, child, box, frame);
  } else {
    const definition = elementDrawer(shown.type);
    definition?.draw({
      ctx,
      element: shown,
      box,
      state,
      env,
      key: resolved.key,
      time: {
        frame: frame.frame,
        sceneSeconds,
        elementSeconds,
        elementDuration,
        sceneDuration: frame.sceneDuration,
        videoSeconds: frame.frame / env.fps,
        videoDuration: frame.videoDuration,
      },
      scene: sceneLookup(ctx, frame.boxes, frame.base, env.size, container),
      observeText: observesItself ? drawnAs : undefined,
      drawChildren: () => {
        for (const child of resolved.children) drawElement(ctx, child, box, frame);
      },
    });
  }
  env.review?.leave?.(resolved.key);
  ctx.restore();
}

/**
 * Where the element draws, for bounding its filter or shadow (clipToInk); undefined where that is
 * not known: a custom drawing, an unclipped group (children may lie outside its box), and the types
 * whose drawer gives no ink (element definitions' `ink`).
 */
function elementInk(
  ctx: Ctx2D,
  element: ModelElement,
  box: Box,
  state: AnimatedState,
  env: DrawEnv,
): Ink | undefined {
  if (element.type === 'custom') return undefined;
  if (element.type === 'group') return element.clip ? { box, spread: 0 } : undefined;
  return elementDrawer(element.type)?.ink?.({ ctx, element, box, state, env });
}

function drawCustom(
  ctx: Ctx2D,
  element: CustomElement,
  box: Box,
  frame: FrameContext,
  time: number,
  duration: number,
): void {
  ctx.save();
  ctx.translate(box.x, box.y);
  element.draw(ctx, {
    width: box.width,
    height: box.height,
    frame: frame.frame,
    fps: frame.env.fps,
    time,
    duration,
    progress: duration > 0 ? Math.min(1, time / duration) : 1,
  });
  ctx.restore();
}

export function drawScene(
  ctx: Ctx2D,
  scene: ResolvedScene,
  seconds: number,
  env: DrawEnv,
  frame: number,
  inTransition = false,
  videoDuration = scene.startSeconds + scene.durationSeconds,
): void {
  drawBackground(
    ctx,
    scene.background,
    env,
    { frame, seconds, duration: scene.durationSeconds },
    `s${scene.index}/background`,
  );
  drawLayerElements(ctx, scene, seconds, env, frame, inTransition, videoDuration);
}

/** A layer's elements at `seconds` from its start (a scene's, or the overlays'), in list order. */
function drawLayerElements(
  ctx: Ctx2D,
  layer: ResolvedLayer,
  seconds: number,
  env: DrawEnv,
  frame: number,
  inTransition: boolean,
  videoDuration: number,
): void {
  const safe = safeBox(env);
  const full = frameBox(env);
  const containerOf = (element: ModelElement) => (element.box === 'frame' ? full : safe);
  const context: FrameContext = {
    env,
    frame,
    sceneSeconds: seconds,
    inTransition,
    sceneDuration: layer.durationSeconds,
    videoDuration,
    base: ctx.getTransform(),
    boxes: sceneBoxes({
      ctx,
      env,
      elements: layer.elements,
      sceneSeconds: seconds,
      containerOf,
      transform: transformElement,
    }),
  };
  for (const resolved of layer.elements) {
    drawElement(ctx, resolved, containerOf(resolved.element), context);
  }
}

const transitionSurfaces = perHost((env): [OffscreenSurface, OffscreenSurface] => [
  env.createSurface(env.size.width, env.size.height),
  env.createSurface(env.size.width, env.size.height),
]);

function resetSurface(surface: OffscreenSurface, env: DrawEnv): void {
  surface.ctx.setTransform(1, 0, 0, 1, 0, 0);
  surface.ctx.globalAlpha = 1;
  surface.ctx.clearRect(0, 0, env.size.width, env.size.height);
}

/** Draws frame `frame` of `video` onto `ctx` (a canvas of the video's size). */
export function drawFrame(ctx: Ctx2D, video: ResolvedVideo, frame: number, env: DrawEnv): void {
  const composition = frameComposition(video, frame);
  ctx.save();
  const { outgoing: before, current: after, transition } = composition;
  // An opaque background overwrites every pixel, so clearing first would only cost a full-frame pass.
  if ((before && transition) || !backgroundIsOpaque(after.scene.background)) {
    ctx.clearRect(0, 0, env.size.width, env.size.height);
  }
  if (!before || !transition) {
    const { scene, seconds } = composition.current;
    drawScene(ctx, scene, seconds, env, frame, false, video.durationSeconds);
  } else {
    const [outgoing, incoming] = transitionSurfaces(env);
    resetSurface(outgoing, env);
    resetSurface(incoming, env);
    drawScene(outgoing.ctx, before.scene, before.seconds, env, frame, true, video.durationSeconds);
    drawScene(incoming.ctx, after.scene, after.seconds, env, frame, true, video.durationSeconds);
    compositeTransition(
      ctx,
      outgoing.canvas,
      incoming.canvas,
      transition,
      composition.progress,
      env.size.width,
      env.size.height,
    );
  }
  // Overlays go on top of the composited frame, so a transition never moves or fades them.
  const overlays = video.overlays;
  if (overlays.elements.length > 0) {
    const seconds = (drawnFrame(video, frame) - overlays.startFrame) / video.fps;
    drawLayerElements(ctx, overlays, seconds, env, frame, false, video.durationSeconds);
  }
  ctx.restore();
}
