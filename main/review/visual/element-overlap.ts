// element_overlap: the text of one element drawn over the text of another (subtitles over a lower
// third's name, a label over a title), so a viewer reads neither. Judged on the sampled frames from
// where each text's glyph strokes landed. What is not an overlap: text over a shape or an image (only
// texts are compared), the texts of one element (a lower third's name and title, a chart's labels:
// label_overlap's part), two captions elements (caption_overlap's part), a faint text used as a
// texture, and a text drawn on its own opaque box, which hides what lies under it on purpose.
import { parseColor } from '../../../shared/spec/color.ts';
import type { ModelElement } from '../../../shared/spec/model.ts';
import type { SampledText } from '../capture.ts';
import type { FrameSpan } from '../captions/caption-tracks.ts';
import { lifetimeFrames } from '../element-timing.ts';
import type { FindingDraft } from '../finding.ts';
import type { FrameRect } from '../../../shared/canvas/device-rect.ts';
import { unionRect } from '../text-geometry.ts';
import { describeElement, excerpt, formatSeconds, toDesign } from './check.ts';
import type { VisualCheck, VisualCheckInput } from './check.ts';

/** Anti-aliased strokes of neighbouring lines may touch; only more than this is an overlap. */
const TOUCH_PX = 2;
/** Below this opacity (its own and its colour's) a text reads as a texture behind, not as words. */
const FAINT_ALPHA = 0.35;
/** A box at least this opaque hides the glyphs under it: its text reads on the box alone. */
const COVERING_ALPHA = 0.95;
/** Room left between the two once moved apart, in design pixels. */
const CLEARANCE_DESIGN_PX = 16;

/** One element's readable texts on a sample (a lower third has two, a caption page one). */
interface ElementTexts {
  key: string;
  texts: SampledText[];
}

interface Crossing {
  frame: number;
  seconds: number;
  under: ElementTexts;
  over: ElementTexts;
  /** Output pixels where the glyph bands of the two meet. */
  area: number;
  /** The two texts that meet the most, to quote. */
  example: { under: SampledText; over: SampledText };
  /** The frames both keep showing what they show here. */
  span: FrameSpan;
}

/** The text's opacity as drawn: the element's, its animation's and its groups', times its colour's. */
function inkAlpha(text: SampledText): number {
  const { element, state, alpha } = text.drawn;
  const colour = typeof state.props.color === 'string' ? state.props.color : element.color;
  return alpha * (colour === undefined ? 1 : (parseColor(colour)?.a ?? 1));
}

/** Drawn on its own box opaque enough to hide whatever text lies under it. */
function onOwnOpaqueBox(text: SampledText): boolean {
  const box = text.drawn.element.background;
  if (!box) return false;
  return (parseColor(box.color)?.a ?? 0) * text.drawn.alpha >= COVERING_ALPHA;
}

/** Output pixels where the glyph bands of two texts cross, line by line. */
function crossingArea(a: SampledText, b: SampledText): number {
  let area = 0;
  for (const lineA of a.geometry.glyphBands) {
    for (const lineB of b.geometry.glyphBands) {
      const x = Math.min(lineA.x1, lineB.x1) - Math.max(lineA.x0, lineB.x0);
      const y = Math.min(lineA.y1, lineB.y1) - Math.max(lineA.y0, lineB.y0);
      if (x > TOUCH_PX && y > TOUCH_PX) area += x * y;
    }
  }
  return area;
}

/** Frames an element keeps showing what it shows at `frame`: a captions element's page, else its life. */
function showingFrames(input: VisualCheckInput, key: string, frame: number): FrameSpan {
  const track = input.captions.find((candidate) => candidate.timing.key === key);
  const page = track?.pages.find(({ shown }) => shown.startFrame <= frame && frame < shown.endFrame);
  if (page) return page.shown;
  const timing = input.index.get(key);
  return timing ? lifetimeFrames(timing, input.video.fps) : { startFrame: frame, endFrame: frame + 1 };
}

function ownerOf(input: VisualCheckInput, element: ElementTexts): ModelElement {
  return input.index.get(element.key)?.resolved.element ?? element.texts[0]!.drawn.element;
}

/** The texts a viewer reads on a sample (at rest, not faint, with lines drawn), by element in drawing order. */
function readableByElement(sample: VisualCheckInput['samples'][number]): ElementTexts[] {
  const byKey = new Map<string, SampledText[]>();
  for (const text of sample.texts) {
    if (!text.drawn.atRest || inkAlpha(text) < FAINT_ALPHA || text.geometry.glyphBands.length === 0) continue;
    byKey.set(text.drawn.key, [...(byKey.get(text.drawn.key) ?? []), text]);
  }
  return [...byKey].map(([key, texts]) => ({ key, texts }));
}

/** Where the texts of `over` cross those of `under`, unless an upper text hides them on its own box. */
function crossing(
  input: VisualCheckInput,
  sample: VisualCheckInput['samples'][number],
  under: ElementTexts,
  over: ElementTexts,
): Crossing | undefined {
  let area = 0;
  let example: Crossing['example'] | undefined;
  let most = 0;
  for (const upper of over.texts) {
    if (onOwnOpaqueBox(upper)) continue;
    for (const lower of under.texts) {
      const meet = crossingArea(lower, upper);
      area += meet;
      if (meet > most) [most, example] = [meet, { under: lower, over: upper }];
    }
  }
  if (!example) return undefined;
  const a = showingFrames(input, under.key, sample.frame);
  const b = showingFrames(input, over.key, sample.frame);
  const span = {
    startFrame: Math.max(a.startFrame, b.startFrame),
    endFrame: Math.min(a.endFrame, b.endFrame),
  };
  return { frame: sample.frame, seconds: sample.seconds, under, over, area, example, span };
}

function crossings(input: VisualCheckInput): Crossing[] {
  const found: Crossing[] = [];
  for (const sample of input.samples) {
    // Elements draw one after another: a later one is drawn over an earlier one.
    const elements = readableByElement(sample);
    for (let i = 0; i < elements.length; i++) {
      for (let j = i + 1; j < elements.length; j++) {
        const [under, over] = [elements[i]!, elements[j]!];
        const bothCaptions = [under, over].every(
          ({ key }) => input.index.get(key)?.resolved.element.type === 'captions',
        );
        const met = bothCaptions ? undefined : crossing(input, sample, under, over);
        if (met) found.push(met);
      }
    }
  }
  return found;
}

/** Design pixels the upper text must move down, or up, for the two texts' lines to part. */
function clearance(input: VisualCheckInput, crossing: Crossing): { down: number; up: number } {
  const lines = (element: ElementTexts) =>
    unionRect(element.texts.flatMap((text) => text.geometry.inkLines)) as FrameRect;
  const [under, over] = [lines(crossing.under), lines(crossing.over)];
  const design = (pixels: number) => Math.ceil(toDesign(input.video, pixels) + CLEARANCE_DESIGN_PX);
  return { down: design(under.y1 - over.y0), up: design(over.y1 - under.y0) };
}

/** The property that moves an element up or down: a captions element's position, else its y. */
function moveHint(element: ModelElement): string {
  if (element.type !== 'captions') return 'its y';
  return `position: ${element.position === 'top' ? "'bottom'" : "'top'"}`;
}

function remedy(input: VisualCheckInput, crossing: Crossing): string {
  const over = ownerOf(input, crossing.over);
  const under = ownerOf(input, crossing.under);
  const [overKey, underKey] = [crossing.over.key, crossing.under.key];
  const { down, up } = clearance(input, crossing);
  const move =
    `move one off the other: ${overKey} ${down} px down or ${up} px up (${moveHint(over)}), ` +
    `or ${underKey} as far the other way (${moveHint(under)})`;
  const turns = 'or let them take turns (start, duration) so they are not on screen together';
  // Text and captions draw each line on a box of their own; opaque, it hides what lies under it.
  const box =
    over.type === 'text' || over.type === 'captions'
      ? `; or give ${overKey} an opaque box (background: { color: '#0a0c10' })`
      : '';
  return `${move}; ${turns}${box}`;
}

function finding(input: VisualCheckInput, worst: Crossing, span: FrameSpan): FindingDraft {
  const { fps } = input.video;
  const over = ownerOf(input, worst.over);
  const under = ownerOf(input, worst.under);
  const quoted = (text: SampledText) => JSON.stringify(excerpt(text.drawn.element.text));
  return {
    code: 'element_overlap',
    severity: 'warning',
    startFrame: span.startFrame,
    endFrame: span.endFrame,
    focusFrame: worst.frame,
    element: worst.over.key,
    message:
      `${describeElement(worst.over.key, over)} is drawn over ${describeElement(worst.under.key, under)} ` +
      `from ${formatSeconds(span.startFrame / fps)} to ${formatSeconds(span.endFrame / fps)}: at ` +
      `${formatSeconds(worst.seconds)} its ${quoted(worst.example.over)} crosses ${quoted(worst.example.under)}, ` +
      'so neither reads',
    remedy: remedy(input, worst),
  };
}

export const checkElementOverlap: VisualCheck = (input) => {
  // One finding per pair of elements: the frame where most of their glyphs meet, over the hull of
  // the stretches in which the samples saw them meet.
  const pairs = new Map<string, { worst: Crossing; span: FrameSpan }>();
  for (const crossing of crossings(input)) {
    const key = [crossing.under.key, crossing.over.key].sort().join(' ');
    const seen = pairs.get(key);
    if (!seen) {
      pairs.set(key, { worst: crossing, span: { ...crossing.span } });
      continue;
    }
    if (crossing.area > seen.worst.area) seen.worst = crossing;
    seen.span.startFrame = Math.min(seen.span.startFrame, crossing.span.startFrame);
    seen.span.endFrame = Math.max(seen.span.endFrame, crossing.span.endFrame);
  }
  return [...pairs.values()].map(({ worst, span }) => finding(input, worst, span));
};
