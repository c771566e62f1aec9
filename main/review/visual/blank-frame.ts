// blank_frame: a sampled frame that shows one flat colour and nothing else. Consecutive blank
// samples make one finding.
import { presetKind } from '../../../shared/animation/presets.ts';
import { frameComposition } from '../../../shared/timeline/resolve.ts';
import type { ReviewSample } from '../capture.ts';
import { layerSecondsAt, visibleSpan } from '../element-timing.ts';
import type { ElementTiming } from '../element-timing.ts';
import type { FindingDraft } from '../finding.ts';
import { describeElement, formatSeconds } from './check.ts';
import type { VisualCheck, VisualCheckInput } from './check.ts';

/**
 * Blank when 99.9 % of the frame's 16-pixel blocks are within 10/255 of its dominant colour: what
 * is left is at most a spot about 45 px across on a 1080×1920 frame, too little to be content.
 */
export const BLANK_SHARE = 0.999;

function hex(colour: readonly number[]): string {
  const [r, g, b, a] = colour.map((c) => Math.round(c));
  const rgb = [r, g, b].map((c) => c!.toString(16).padStart(2, '0')).join('');
  return a === 255 ? `#${rgb}` : `#${rgb}${a!.toString(16).padStart(2, '0')}`;
}

/** A frame this close to something entering or leaving is part of a fade, not an empty stretch. */
export const FADE_GRACE_SECONDS = 0.25;

interface NextUp {
  key: string;
  /** Seconds into its scene when it starts to show (into the video for an overlay), and the video frame. */
  start: number;
  frame: number;
}

/** The elements that can show on `frame`: its current scene's, and the overlays. */
function showingOn(input: VisualCheckInput, frame: number): ElementTiming[] {
  const { scene } = frameComposition(input.video, frame).current;
  return [...input.index.values()].filter(
    (timing) => timing.layer === scene || timing.layer.kind === 'overlays',
  );
}

/** The next element to show up in the scene (or the overlays) after `frame`. */
function nextToAppear(input: VisualCheckInput, frame: number): NextUp | undefined {
  let next: NextUp | undefined;
  for (const timing of showingOn(input, frame)) {
    const { start } = visibleSpan(input.index, timing);
    const videoFrame = timing.layer.startFrame + Math.round(start * input.video.fps);
    if (videoFrame > frame && (!next || videoFrame < next.frame))
      next = { key: timing.key, start, frame: videoFrame };
  }
  return next;
}

/**
 * Blank only for a moment: a transition, something fading in or out, or about to appear or just
 * gone (a fade-in from the first frame leaves frame 0 empty, which nobody sees as a blank).
 */
function isPassing(input: VisualCheckInput, frame: number): boolean {
  const composition = frameComposition(input.video, frame);
  if (composition.outgoing) return true;
  for (const timing of showingOn(input, frame)) {
    const now = layerSecondsAt(timing.layer, frame, input.video.fps);
    const { start, end } = visibleSpan(input.index, timing);
    if ((start > now && start <= now + FADE_GRACE_SECONDS) || (end <= now && end >= now - FADE_GRACE_SECONDS))
      return true;
    for (const animation of timing.resolved.animations) {
      const kind = presetKind(animation.animation.preset);
      const running = animation.startSeconds <= now && now < animation.endSeconds;
      if (running && (kind === 'entrance' || kind === 'exit')) return true;
    }
  }
  return false;
}

function remedy(input: VisualCheckInput, frame: number, next: NextUp | undefined): string {
  const thumbnail = frame === 0 ? 'the first frame is the thumbnail on most platforms: ' : '';
  const { scene } = frameComposition(input.video, frame).current;
  if (!next)
    return `${thumbnail}add an element or a picture to scene "${scene.id}" for this time, or shorten the scene`;
  const { resolved, layer } = input.index.get(next.key)!;
  const where = layer.kind === 'overlays' ? 'the video' : 'the scene';
  return (
    `${thumbnail}the next thing to show in scene "${scene.id}" is ${describeElement(next.key, resolved.element)} at ` +
    `${formatSeconds(next.start)} into ${where}: start it (or its entrance) earlier, or cut the empty time`
  );
}

export const checkBlankFrame: VisualCheck = (input) => {
  const runs: ReviewSample[][] = [];
  let previousBlank = false;
  for (const sample of input.samples) {
    const blank = sample.flatness.flatShare >= BLANK_SHARE && !isPassing(input, sample.frame);
    if (blank && previousBlank) runs.at(-1)!.push(sample);
    else if (blank) runs.push([sample]);
    previousBlank = blank;
  }
  return runs.map((run): FindingDraft => {
    const first = run[0]!;
    const last = run.at(-1)!;
    const next = nextToAppear(input, last.frame);
    const colour = hex(first.flatness.dominant);
    const where =
      run.length === 1
        ? `frame ${first.frame} (${formatSeconds(first.seconds)}) shows`
        : `${run.length} sampled frames from ${first.frame} to ${last.frame} (${formatSeconds(first.seconds)} to ${formatSeconds(last.seconds)}) show`;
    const until = next ? `, until ${formatSeconds(next.frame / input.video.fps)}` : '';
    return {
      code: 'blank_frame',
      severity: 'warning',
      startFrame: first.frame,
      endFrame: Math.max(last.frame + 1, next?.frame ?? 0),
      focusFrame: first.frame,
      message: `${where} nothing but one flat colour (${colour})${until}`,
      remedy: remedy(input, first.frame, next),
    };
  });
};
