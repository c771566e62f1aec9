// unsafe_area: on a reel, text under the platform's own interface (header, caption and buttons, the
// action rail), where viewers cannot read it. Only for 9:16 output: other shapes are not shown with
// that interface over them.
import { reelsUnsafeZones } from '../../../shared/spec/sizes.ts';
import type { FrameSize } from '../../../shared/spec/sizes.ts';
import { READABLE_ALPHA } from '../capture.ts';
import type { SampledText } from '../capture.ts';
import type { FindingDraft } from '../finding.ts';
import type { FrameRect } from '../../../shared/canvas/device-rect.ts';
import { describeElement, elementInterval, formatSeconds, toDesign, worstPerKey } from './check.ts';
import type { VisualCheck, VisualCheckInput } from './check.ts';

/** Overlaps of a pixel or two are anti-aliasing; a glyph has to reach this far in to be covered. */
const OVERLAP_TOLERANCE_PX = 2;

export function isReelsShape(size: FrameSize): boolean {
  return Math.abs(size.height / size.width - 16 / 9) < 0.01;
}

interface Zone {
  name: string;
  rect: FrameRect;
  /** How far a line reaches into the zone, along the way out of it. */
  depth(line: FrameRect): number;
  /** Which way to move, and the limit to keep to, for the remedy. */
  move: string;
  limit(video: VisualCheckInput['video']): string;
}

function zones(size: FrameSize): Zone[] {
  const [top, bottom, rail] = reelsUnsafeZones(size).map((z) => ({
    x0: z.x,
    y0: z.y,
    x1: z.x + z.width,
    y1: z.y + z.height,
  }));
  const px = (video: VisualCheckInput['video'], value: number) => `${Math.round(toDesign(video, value))} px`;
  return [
    {
      name: "the top band (the app's header)",
      rect: top!,
      depth: (line) => top!.y1 - line.y0,
      move: 'down (raise y)',
      limit: (video) => `so it starts below ${px(video, top!.y1)} from the top`,
    },
    {
      name: 'the bottom band (caption, sound and buttons)',
      rect: bottom!,
      depth: (line) => line.y1 - bottom!.y0,
      move: 'up (lower y)',
      limit: (video) => `so it ends above ${px(video, bottom!.y0)} from the top`,
    },
    {
      name: 'the action rail on the right (like, comment, share)',
      rect: rail!,
      depth: (line) => line.x1 - rail!.x0,
      move: 'left (lower x) or narrow its width',
      limit: (video) => `so it ends left of ${px(video, rail!.x0)} from the left edge at this height`,
    },
  ];
}

function intersects(a: FrameRect, b: FrameRect): boolean {
  const width = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const height = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
  return width > OVERLAP_TOLERANCE_PX && height > OVERLAP_TOLERANCE_PX;
}

interface Covered {
  text: SampledText;
  frame: number;
  seconds: number;
  zone: Zone;
  depth: number;
}

function coverage(text: SampledText, all: readonly Zone[]): { zone: Zone; depth: number } | undefined {
  let worst: { zone: Zone; depth: number } | undefined;
  for (const zone of all) {
    for (const line of text.geometry.inkLines) {
      if (!intersects(line, zone.rect)) continue;
      const depth = zone.depth(line);
      if (!worst || depth > worst.depth) worst = { zone, depth };
    }
  }
  return worst;
}

export const checkUnsafeArea: VisualCheck = (input) => {
  if (!isReelsShape(input.video.size)) return [];
  const all = zones(input.video.size);
  const covered: [string, Covered][] = [];
  for (const sample of input.samples) {
    for (const text of sample.texts) {
      if (!text.drawn.atRest || text.drawn.alpha < READABLE_ALPHA) continue;
      const hit = coverage(text, all);
      if (hit) covered.push([text.drawn.key, { text, frame: sample.frame, seconds: sample.seconds, ...hit }]);
    }
  }
  const drafts: FindingDraft[] = [];
  for (const [key, worst] of worstPerKey(covered, (a, b) => a.depth > b.depth)) {
    const depth = Math.ceil(toDesign(input.video, worst.depth));
    const frameBox =
      worst.text.drawn.element.box === 'frame' ? `, or lay it out in the safe area (box: 'safe')` : '';
    drafts.push({
      code: 'unsafe_area',
      severity: 'warning',
      ...elementInterval(input, key, worst.frame),
      message:
        `${describeElement(key, worst.text.drawn.element)} reaches ${depth} px into ${worst.zone.name} at ` +
        `${formatSeconds(worst.seconds)}, where the platform's interface covers it on a reel`,
      remedy: `move it ${depth} px or more ${worst.zone.move}, ${worst.zone.limit(input.video)}${frameBox}`,
    });
  }
  return drafts;
};
