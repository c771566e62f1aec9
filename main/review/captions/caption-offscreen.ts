// caption_offscreen: captions that cannot be read where they are drawn: page lines laid out past the
// frame's edge (cut off) or outside the aspect's safe area (under a platform's interface, or a TV's
// overscan), judged on every page at rest. Cues timed outside the element's life are the other half
// of the code (caption-cues-outside.ts).
import { safeBox } from '../../../shared/elements/place.ts';
import type { FindingDraft } from '../finding.ts';
import type { FrameRect } from '../../../shared/canvas/device-rect.ts';
import { formatSeconds, toDesign } from '../visual/check.ts';
import { pageLines } from './caption-lines.ts';
import type { CaptionTrack, ShownPage } from './caption-tracks.ts';
import { spanFrames } from './caption-tracks.ts';
import { checkCuesOutside } from './caption-cues-outside.ts';
import type { CaptionCheck, CaptionCheckInput } from './check.ts';
import { describeCue, describeTrack, spanInterval } from './check.ts';

/** Anti-aliasing and rounding reach a pixel or two past exact bounds; only more is outside. */
const EDGE_TOLERANCE_PX = 2;

type Edge = 'left' | 'right' | 'top' | 'bottom';

interface Reach {
  edge: Edge;
  /** How far the lines reach past that edge, in output pixels. */
  pixels: number;
}

/** The edge of `bounds` the lines reach furthest past, when it is more than the tolerance. */
function reachPast(lines: readonly FrameRect[], bounds: FrameRect): Reach | undefined {
  let worst: Reach | undefined;
  for (const line of lines) {
    const past: Reach[] = [
      { edge: 'left', pixels: bounds.x0 - line.x0 },
      { edge: 'right', pixels: line.x1 - bounds.x1 },
      { edge: 'top', pixels: bounds.y0 - line.y0 },
      { edge: 'bottom', pixels: line.y1 - bounds.y1 },
    ];
    for (const reach of past) if (!worst || reach.pixels > worst.pixels) worst = reach;
  }
  return worst && worst.pixels > EDGE_TOLERANCE_PX ? worst : undefined;
}

interface Outside {
  shown: ShownPage;
  frame: number;
  /** Past the frame's edge: cut off. Otherwise past the safe area's. */
  cut: boolean;
  reach: Reach;
}

function pageOutside(input: CaptionCheckInput, track: CaptionTrack, shown: ShownPage): Outside | undefined {
  const placed = pageLines(input, track, shown);
  if (!placed) return undefined;
  const { width, height } = input.video.size;
  const frameReach = reachPast(placed.lines, { x0: 0, y0: 0, x1: width, y1: height });
  if (frameReach) return { shown, frame: placed.frame, cut: true, reach: frameReach };
  const safe = safeBox(input.layout.env);
  const safeReach = reachPast(placed.lines, {
    x0: safe.x,
    y0: safe.y,
    x1: safe.x + safe.width,
    y1: safe.y + safe.height,
  });
  return safeReach && { shown, frame: placed.frame, cut: false, reach: safeReach };
}

const worse = (a: Outside, b: Outside) => (a.cut !== b.cut ? a.cut : a.reach.pixels > b.reach.pixels);

const MOVE: Record<Edge, string> = {
  left: 'right (raise x)',
  right: 'left (lower x)',
  top: 'down (raise y)',
  bottom: 'up (lower y)',
};

function remedy(input: CaptionCheckInput, track: CaptionTrack, outside: Outside): string {
  const pixels = Math.ceil(toDesign(input.video, outside.reach.pixels));
  const sideways = outside.reach.edge === 'left' || outside.reach.edge === 'right';
  const grouped = track.timing.parentKey === undefined ? 'it' : 'it (or its group)';
  const move = `move ${grouped} ${pixels} px or more ${MOVE[outside.reach.edge]}`;
  const narrow = sideways ? ', or narrow it (width, maxWidth)' : ', or lower size or maxLines';
  if (track.element.box === 'frame' && track.timing.parentKey === undefined)
    return `lay it out in the safe area: leave out box: 'frame' (captions sit in the safe area by default), or ${move}`;
  return `${move}${narrow}`;
}

function linesOutside(input: CaptionCheckInput): FindingDraft[] {
  const drafts: FindingDraft[] = [];
  for (const track of input.tracks) {
    let worst: Outside | undefined;
    for (const shown of track.pages) {
      if (spanFrames(shown.shown) === 0) continue;
      const outside = pageOutside(input, track, shown);
      if (outside && (!worst || worse(outside, worst))) worst = outside;
    }
    if (!worst) continue;
    const cue = track.cues.find((shown) => shown.cue.number === worst.shown.page.cue)!.cue;
    const pixels = Math.ceil(toDesign(input.video, worst.reach.pixels));
    const at = formatSeconds(worst.frame / input.video.fps);
    const where = worst.cut
      ? `runs ${pixels} px past the ${worst.reach.edge} edge of the frame at ${at}, so part of it is cut off`
      : `reaches ${pixels} px past the ${worst.reach.edge} of the safe area at ${at}, where a platform's ` +
        `interface or a screen's edge can cover it`;
    drafts.push({
      code: 'caption_offscreen',
      severity: worst.cut ? 'error' : 'warning',
      ...spanInterval(input.video, worst.shown.shown, worst.frame),
      element: track.timing.key,
      message: `${describeTrack(track)}: ${describeCue(cue)} ${where}`,
      remedy: remedy(input, track, worst),
    });
  }
  return drafts;
}

export const checkCaptionOffscreen: CaptionCheck = (input) => [
  ...linesOutside(input),
  ...checkCuesOutside(input),
];
