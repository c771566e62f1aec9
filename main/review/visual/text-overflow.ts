// text_overflow: text that is cut off, by its own box (the layout had to truncate it to maxLines, or
// its lines do not fit the box) or by the edge of the frame (its glyphs are drawn past it).
import type { FindingDraft } from '../finding.ts';
import { READABLE_ALPHA } from '../capture.ts';
import type { SampledText } from '../capture.ts';
import { describeElement, elementInterval, formatSeconds, toDesign, worstPerKey } from './check.ts';
import type { VisualCheck, VisualCheckInput } from './check.ts';

/** Anti-aliasing and rounding reach a pixel or two past exact bounds; only more is a cut. */
const EDGE_TOLERANCE_PX = 2;

type Edge = 'left' | 'right' | 'top' | 'bottom';

interface Seen {
  text: SampledText;
  frame: number;
  seconds: number;
}

interface EdgeCut extends Seen {
  edge: Edge;
  pixels: number;
}

const round = (value: number) => Math.round(value);

function boxMessage(input: VisualCheckInput, seen: Seen): Pick<FindingDraft, 'message' | 'remedy'> {
  const { drawn, geometry } = seen.text;
  const { fit } = geometry;
  const name = describeElement(drawn.key, drawn.element);
  const design = (pixels: number) => round(toDesign(input.video, pixels));
  const size = design(geometry.size);
  if (fit.truncated) {
    const smaller = Math.floor(size * Math.sqrt(fit.lines / fit.linesNeeded));
    return {
      message: `${name} is cut to ${fit.lines} line${fit.lines === 1 ? '' : 's'} (maxLines) with an ellipsis: the whole text needs ${fit.linesNeeded} lines at this width`,
      remedy: `raise maxLines to ${fit.linesNeeded}, shorten the text, or lower size to about ${smaller} (it is ${size}) so it fits in ${fit.lines} line${fit.lines === 1 ? '' : 's'}`,
    };
  }
  if (fit.tooTall) {
    const smaller = Math.floor((size * fit.boxHeight) / fit.neededHeight);
    return {
      message: `${name} does not fit its box: its ${fit.lines} lines need ${design(fit.neededHeight)} px of height but the box is ${design(fit.boxHeight)} px tall, so they spill out of it`,
      remedy: `raise height to at least ${Math.ceil(toDesign(input.video, fit.neededHeight))} (or leave height out so the box fits the text), shorten the text, or lower size to about ${smaller} (it is ${size})`,
    };
  }
  const smaller = Math.floor((size * fit.areaWidth) / fit.widestLine);
  return {
    message: `${name} does not fit its box: its widest line is ${design(fit.widestLine)} px but the box leaves ${design(fit.areaWidth)} px for it`,
    remedy: `raise width by at least ${Math.ceil(toDesign(input.video, fit.widestLine - fit.areaWidth))} px, shorten the longest word, or lower size to about ${smaller} (it is ${size})`,
  };
}

function edgeCut(input: VisualCheckInput, text: SampledText): { edge: Edge; pixels: number } | undefined {
  const { width, height } = input.video.size;
  const past: Record<Edge, number> = { left: 0, right: 0, top: 0, bottom: 0 };
  for (const line of text.geometry.inkLines) {
    past.left = Math.max(past.left, -line.x0);
    past.right = Math.max(past.right, line.x1 - width);
    past.top = Math.max(past.top, -line.y0);
    past.bottom = Math.max(past.bottom, line.y1 - height);
  }
  const ink = text.geometry.ink;
  // Wholly off the frame is not a cut but a misplaced element: offscreen_element reports it.
  if (!ink || ink.x1 <= 0 || ink.x0 >= width || ink.y1 <= 0 || ink.y0 >= height) return undefined;
  const [edge, pixels] = (Object.entries(past) as [Edge, number][]).reduce((a, b) => (b[1] > a[1] ? b : a));
  return pixels > EDGE_TOLERANCE_PX ? { edge, pixels } : undefined;
}

const MOVE: Record<Edge, string> = {
  left: 'right (raise x)',
  right: 'left (lower x)',
  top: 'down (raise y)',
  bottom: 'up (lower y)',
};

function edgeMessage(input: VisualCheckInput, cut: EdgeCut): Pick<FindingDraft, 'message' | 'remedy'> {
  const { drawn } = cut.text;
  const name = describeElement(drawn.key, drawn.element);
  const pixels = Math.ceil(toDesign(input.video, cut.pixels));
  const sideways = cut.edge === 'left' || cut.edge === 'right';
  const wrap =
    sideways && drawn.element.width === undefined
      ? `give it a width inside the frame (e.g. width: '84%') so it wraps, `
      : sideways
        ? 'narrow its width, '
        : 'shorten the text, ';
  return {
    message: `${name} runs ${pixels} px past the ${cut.edge} edge of the frame at ${formatSeconds(cut.seconds)} (while at rest), so part of it is cut off`,
    remedy: `move it ${pixels} px or more ${MOVE[cut.edge]}, ${wrap}or lower size`,
  };
}

export const checkTextOverflow: VisualCheck = (input) => {
  const boxIssues: [string, Seen][] = [];
  const edgeIssues: [string, EdgeCut][] = [];
  for (const sample of input.samples) {
    for (const text of sample.texts) {
      const seen = { text, frame: sample.frame, seconds: sample.seconds };
      const { fit } = text.geometry;
      // Keyframed sizes do not re-wrap the lines, so a text may outgrow its box while it animates.
      if (fit.truncated || ((fit.tooTall || fit.tooWide) && text.drawn.atRest))
        boxIssues.push([text.drawn.key, seen]);
      if (!text.drawn.atRest || text.drawn.alpha < READABLE_ALPHA) continue;
      const cut = edgeCut(input, text);
      if (cut) edgeIssues.push([text.drawn.key, { ...seen, ...cut }]);
    }
  }
  const drafts: FindingDraft[] = [];
  // At rest first: that is the layout the viewer reads.
  for (const [key, seen] of worstPerKey(boxIssues, (a, b) => a.text.drawn.atRest && !b.text.drawn.atRest)) {
    drafts.push({
      code: 'text_overflow',
      severity: 'error',
      ...elementInterval(input, key, seen.frame),
      ...boxMessage(input, seen),
    });
  }
  for (const [key, cut] of worstPerKey(edgeIssues, (a, b) => a.pixels > b.pixels)) {
    drafts.push({
      code: 'text_overflow',
      severity: 'error',
      ...elementInterval(input, key, cut.frame),
      ...edgeMessage(input, cut),
    });
  }
  return drafts;
};
