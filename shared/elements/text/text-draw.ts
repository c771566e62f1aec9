// Text measuring and drawing against the standard Canvas 2D API.
//
// Choices that shape the look:
// - Lines sit in line boxes of `lineHeight` × size, glyphs centred in them the CSS way (half the
//   leading above, half below), and the block is centred vertically in the element box.
// - A stroke is an outline under the fill: it is drawn twice as wide as asked, so the visible
//   outline outside the glyph is exactly `stroke.width`, with round joins.
// - A background is drawn per line (caption-highlight style): each line gets its own box (or pill)
//   hugging its width plus padding, and all boxes are filled as one path, so where the boxes of
//   neighbouring lines overlap the color is not doubled. At its natural size, a single line's
//   background is exactly the element box.
// - Keyframed size and letter spacing change the drawing but not the line breaks, which stay those
//   of the element's own values: text that grows or tracks out spreads from its alignment edge
//   instead of re-wrapping mid-animation.
// - The shadow is cast by outline and fill as one shape, and lies under all the glyphs.
//
// The parts: text-measure.ts (style, measuring and layout), text-paint.ts (backgrounds, words,
// outline, shadow, cursor), text-markers.ts (highlighter markers); text-effects.ts and
// text-layout.ts hold the pure geometry they share.
import type { TypingState } from '../../animation/state.ts';
import type { Box, Ctx2D, DrawEnv } from '../../canvas/types.ts';
import { resolveLength } from '../../layout/length.ts';
import type { TextElement } from '../../spec/text-element.ts';
import type { ElementDrawArgs, Ink, InkArgs } from '../definition.ts';
import { typedWords } from './text-effects.ts';
import type { CursorPlacement, WordLook } from './text-effects.ts';
import { drawMarkers, markersAt } from './text-markers.ts';
import type { MarkerSpan } from './text-markers.ts';
import {
  backgroundPadding,
  displayText,
  layoutTextElement,
  lengthContext,
  runPainter,
} from './text-measure.ts';
import type { StyleOverrides } from './text-measure.ts';
import {
  blockInk,
  deviceShadow,
  drawCursor,
  drawLineBackgrounds,
  drawShadow,
  drawWords,
  makeRoomForScaledWords,
  placeWords,
} from './text-paint.ts';
import type { GlyphPaint } from './text-paint.ts';

/** Everything that changes how a text block draws besides its own fields. */
export interface TextEffects {
  /** Keyframed size and letter spacing, and tabular digits. */
  overrides?: StyleOverrides;
  /** wordByWord: each word's reveal, 0..1. */
  wordProgress?: ((index: number) => number) | undefined;
  typing?: TypingState | undefined;
  markers?: readonly MarkerSpan[] | undefined;
  /** A word's own colour, scale or sweep (captions). */
  wordLook?: ((index: number) => WordLook | undefined) | undefined;
}

/**
 * Draws a text element's lines in `box` with the given effects: the one drawing of text that text,
 * counters and captions share, so they look alike and review reads all of them the same way.
 */
export function drawTextBlock(
  ctx: Ctx2D,
  env: DrawEnv,
  element: TextElement,
  box: Box,
  effects: TextEffects = {},
): void {
  ctx.save();
  const layout = layoutTextElement(ctx, element, env, box, effects.overrides);
  drawLineBackgrounds(ctx, element, env, layout);
  const stroke = element.stroke;
  const paint: GlyphPaint = {
    style: layout.style,
    color: element.color ?? '#ffffff',
    stroke: stroke && {
      color: stroke.color,
      width: resolveLength(stroke.width, layout.style.size, lengthContext(env)),
      dash: (stroke.dash ?? []).map((d) => d * env.scale),
    },
  };
  const painter = runPainter(ctx, layout.style);
  const placed = placeWords(ctx, layout, effects.wordProgress, effects.wordLook);
  let words = effects.wordLook ? makeRoomForScaledWords(placed) : placed;
  let cursor: CursorPlacement | undefined;
  if (effects.typing) ({ words, cursor } = typedWords(words, effects.typing, painter.measure));
  if (effects.markers?.length) {
    // Markers lie under the whole text as laid out, so they cover words still to be typed as well.
    const colors = drawMarkers(ctx, displayText(element), placed, effects.markers, painter, layout.style);
    if (colors.size > 0) {
      words = words.map((word) =>
        colors.has(word.word.index) && word.look?.color === undefined
          ? { ...word, look: { ...word.look, color: colors.get(word.word.index) } }
          : word,
      );
    }
  }
  words = words.filter((word) => word.progress > 0);
  const shadow = deviceShadow(ctx, element, env, layout.style.size);
  if (shadow) drawShadow(ctx, env, layout, words, paint, shadow);
  drawWords(ctx, env, words, paint);
  if (cursor) drawCursor(ctx, cursor, paint);
  ctx.restore();
}

/**
 * Where a text element draws: the box, and its block as laid out this frame (keyframed size and
 * letter spacing included, which may spread it past the box) with room for everything drawn around
 * the glyphs; its text shadow spreads past that, as drawShadow sizes its layer.
 */
export function textInk({ ctx, element, box, env, state }: InkArgs<TextElement>): Ink {
  ctx.save();
  const layout = layoutTextElement(ctx, element, env, box, textOverrides(state));
  ctx.restore();
  const size = layout.style.size;
  const stroke = element.stroke
    ? Math.max(0, resolveLength(element.stroke.width, size, lengthContext(env)))
    : 0;
  const padding = backgroundPadding(element, env, size);
  const block = blockInk(layout, stroke, Math.max(0, padding.x, padding.y));
  const x = Math.min(box.x, block.x);
  const y = Math.min(box.y, block.y);
  const ink = {
    x,
    y,
    width: Math.max(box.x + box.width, block.x + block.width) - x,
    height: Math.max(box.y + box.height, block.y + block.height) - y,
  };
  const shadow = deviceShadow(ctx, element, env, size);
  return {
    box: ink,
    spread: shadow ? Math.hypot(shadow.x, shadow.y) + 2 * Math.abs(shadow.blur) : 0,
    shiftable: !shadow && drawsGlyphsAlone(ctx, element, state, size),
  };
}

/**
 * Skia draws glyphs above 256 device pixels as paths, not masks; the bound keeps well under it.
 * The norm of the transform is at least its largest stretch in any direction.
 */
const MASK_GLYPH_MAX_PX = 200;

/** Whether the element draws nothing but glyph masks: no outline, background, marker or cursor. */
function drawsGlyphsAlone(
  ctx: Ctx2D,
  element: TextElement,
  state: InkArgs<TextElement>['state'],
  size: number,
): boolean {
  if (element.stroke || element.background || element.highlight?.length || state.typing) return false;
  const m = ctx.getTransform();
  return size * Math.hypot(m.a, m.b, m.c, m.d) < MASK_GLYPH_MAX_PX;
}

function textOverrides(state: ElementDrawArgs<TextElement>['state']) {
  return { size: state.props.size, letterSpacing: state.props.letterSpacing };
}

export function drawText({ ctx, element, box, env, state, time }: ElementDrawArgs<TextElement>): void {
  const color = typeof state.props.color === 'string' ? state.props.color : element.color;
  drawTextBlock(ctx, env, color === element.color ? element : { ...element, color }, box, {
    overrides: textOverrides(state),
    wordProgress: state.wordProgress,
    typing: state.typing,
    markers: markersAt(element, time.elementSeconds, env.fps),
  });
}
