// How every element type of the spec draws, by type. The spec's list (shared/spec/elements.ts) says
// which types exist; the Drawers type makes a missing drawer a type error.
import type { SpecElement } from '../spec/elements.ts';
import type { ElementDrawer } from './definition.ts';
import { drawMedia, mediaInkArea, mediaIntrinsicSize } from './media-draw.ts';
import { drawEllipse, drawLine, drawPath, drawRect, lineInkArea, shapeInkArea } from './shapes-draw.ts';
import { drawText, textInk } from './text/text-draw.ts';
import { measureText } from './text/text-measure.ts';
import { drawCounter, measureCounter } from './text/counter-draw.ts';
import { drawCaptions } from './captions/captions-draw.ts';
import { drawCode, measureCode } from './code/code-draw.ts';
import { drawMarkdown, measureMarkdown } from './markdown/markdown-draw.ts';
import { chartIntrinsicSize, drawChart } from './chart/chart-draw.ts';
import { ANNOTATION_DRAWERS } from './annotation/annotation-drawers.ts';
import { drawTerminal } from './terminal/terminal-draw.ts';
import { measureTerminal } from './terminal/terminal-layout.ts';

type Drawers = { [K in SpecElement['type']]: ElementDrawer<Extract<SpecElement, { type: K }>> };

const fillBox = (_element: unknown, _env: unknown, maxWidth: number, maxHeight: number) => ({
  width: maxWidth,
  height: maxHeight,
});
const square = (_element: unknown, env: { scale: number }) => ({
  width: 200 * env.scale,
  height: 200 * env.scale,
});

const DRAWERS: Drawers = {
  text: {
    intrinsicSize: (element, env, maxWidth) => measureText(element, env, maxWidth),
    ink: textInk,
    draw: drawText,
  },
  counter: {
    intrinsicSize: (element, env, maxWidth) => measureCounter(element, env, maxWidth),
    draw: drawCounter,
  },
  // Captions fill their box (the safe area unless placed otherwise) and sit at its bottom by default.
  captions: { intrinsicSize: fillBox, draw: drawCaptions },
  chart: {
    intrinsicSize: (element, _env, maxWidth, maxHeight) => chartIntrinsicSize(element, maxWidth, maxHeight),
    draw: drawChart,
  },
  image: {
    intrinsicSize: (element, env, maxWidth, maxHeight) =>
      mediaIntrinsicSize(env.media.image(element.src), maxWidth, maxHeight),
    ink: mediaInkArea,
    draw: (args) => drawMedia(args, args.env.media.image(args.element.src)),
  },
  clip: {
    intrinsicSize: fillBox,
    ink: mediaInkArea,
    draw: (args) => drawMedia(args, args.env.media.videoFrame(args.key)),
  },
  rect: { intrinsicSize: square, ink: shapeInkArea, draw: drawRect },
  ellipse: { intrinsicSize: square, ink: shapeInkArea, draw: drawEllipse },
  line: { ink: lineInkArea, draw: drawLine },
  // No ink: a path's points may lie anywhere, past its viewBox too.
  path: { intrinsicSize: square, draw: drawPath },
  code: {
    intrinsicSize: (element, env, maxWidth) => measureCode(element, env, maxWidth),
    heightFollowsWidth: true,
    draw: drawCode,
  },
  markdown: {
    intrinsicSize: (element, env, maxWidth) => measureMarkdown(element, env, maxWidth),
    heightFollowsWidth: true,
    draw: drawMarkdown,
  },
  ...ANNOTATION_DRAWERS,
  terminal: { intrinsicSize: measureTerminal, heightFollowsWidth: true, draw: drawTerminal },
  // Its ink is its children's, which may lie outside its box; frame.ts bounds a clipped group by its box.
  group: {
    intrinsicSize: fillBox,
    draw: ({ element, box, drawChildren }) => drawChildren(element.children, box),
  },
};

export function elementDrawer(type: string): ElementDrawer<SpecElement> | undefined {
  return (DRAWERS as Record<string, ElementDrawer<SpecElement>>)[type];
}
