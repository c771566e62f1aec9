// Where a caption page's lines land on the frame: the captions element placed as the drawing places
// it, the page laid out in its box by the same code (pageBox, then text-geometry's line bands).
import { captionTextStyle, pageBox } from '../../../shared/elements/captions/captions-draw.ts';
import { placementAt } from '../element-placement.ts';
import { textGeometry } from '../text-geometry.ts';
import type { FrameRect } from '../../../shared/canvas/device-rect.ts';
import type { CaptionTrack, ShownPage } from './caption-tracks.ts';
import { restingFrame } from './caption-tracks.ts';
import type { CaptionCheckInput } from './check.ts';

export interface PageLines {
  /** The frame the page is judged on: its first with the element at rest. */
  frame: number;
  /** Per line: ascender-to-descender bounds on the frame, in output pixels. */
  lines: FrameRect[];
}

/** Undefined when the page is never on screen with the element at rest. */
export function pageLines(
  input: CaptionCheckInput,
  track: CaptionTrack,
  shown: ShownPage,
): PageLines | undefined {
  const { key } = track.timing;
  const frame = restingFrame(input.video, input.index, key, shown.shown);
  if (frame === undefined) return undefined;
  const { env, ctx } = input.layout;
  const placement = placementAt(ctx, env, input.index, track.timing, frame);
  const text = captionTextStyle(track.element, shown.page.text);
  const geometry = textGeometry(ctx, env, {
    key,
    element: text,
    box: pageBox(track.element, env, placement.box, text),
    transform: placement.transform,
    alpha: 1,
    state: placement.state,
    inTransition: false,
  });
  return { frame, lines: geometry.inkLines };
}
