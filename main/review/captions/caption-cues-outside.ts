// The timing half of caption_offscreen: cues timed outside the element's life, offset and speed
// applied. A cue wholly outside it (or shorter than a frame) never shows; one that crosses its start
// or end is cut.
import { captionClock, elementSecondsAt } from '../../../shared/elements/captions/captions-pages.ts';
import type { FindingDraft } from '../finding.ts';
import { layerSecondsAt } from '../element-timing.ts';
import { formatSeconds } from '../visual/check.ts';
import type { CaptionTrack, ShownCue } from './caption-tracks.ts';
import { spanFrames } from './caption-tracks.ts';
import type { CaptionCheckInput } from './check.ts';
import { describeCue, describeTrack, offsetSeconds, spanInterval, specSeconds, upToTenth } from './check.ts';

/** A cue cut by less than this loses its rounding, not anything a reader notices. */
export const CUT_TOLERANCE_SECONDS = 0.1;
/** Never-shown cues a message names one by one; the rest are counted. */
const LISTED_CUES = 3;

type Missed = 'after' | 'before' | 'brief';

function missed(track: CaptionTrack, shown: ShownCue): Missed {
  if (shown.timed.startFrame >= track.live.endFrame) return 'after';
  if (shown.timed.endFrame <= track.live.startFrame) return 'before';
  return 'brief';
}

/** How to make the element last `seconds` longer, by what bounds it. */
function lengthen(track: CaptionTrack, seconds: number): string {
  if (track.element.duration !== undefined) return `raise its duration by at least ${seconds}s`;
  if (track.timing.parentKey !== undefined)
    return `make its group last at least ${seconds}s longer (the captions last until it ends)`;
  const { layer } = track.timing;
  if (layer.kind === 'overlays')
    return `make the video at least ${seconds}s longer (overlay captions last until it ends)`;
  return `make its scene ("${layer.id}") at least ${seconds}s longer (the captions last until the scene ends)`;
}

function laterBy(track: CaptionTrack, seconds: number, fps: number): string {
  return `raise offset by at least ${seconds}s (to ${specSeconds(offsetSeconds(track, fps) + seconds)})`;
}

/** When the captions' own clock reads `seconds`, in seconds of the video. */
function videoSeconds(track: CaptionTrack, seconds: number, fps: number): number {
  const { layer, resolved } = track.timing;
  return layer.startFrame / fps + resolved.startSeconds + elementSecondsAt(track.element, seconds, fps);
}

function neverShown(input: CaptionCheckInput, track: CaptionTrack): FindingDraft | undefined {
  const never = track.cues.filter((shown) => spanFrames(shown.shown) === 0);
  if (never.length === 0) return undefined;
  const { fps } = input.video;
  const { live } = track;
  const at = (frame: number) => formatSeconds(frame / fps);
  const when = (seconds: number) => formatSeconds(videoSeconds(track, seconds, fps));
  const why = never.map((shown) => ({ shown, reason: missed(track, shown) }));
  const listed = why.slice(0, LISTED_CUES).map(({ shown: { cue }, reason }) => {
    if (reason === 'after') return `${describeCue(cue)} starts at ${when(cue.start)}`;
    if (reason === 'before') return `${describeCue(cue)} ends at ${when(cue.end)}`;
    return `${describeCue(cue)} lasts ${Math.round((cue.end - cue.start) * 1000)} ms, less than a frame`;
  });
  const more = never.length > LISTED_CUES ? `; and ${never.length - LISTED_CUES} more` : '';
  const of = (kind: Missed) => why.filter((entry) => entry.reason === kind).map((entry) => entry.shown.cue);
  const remedies: string[] = [];
  const after = of('after');
  if (after.length > 0) {
    const latest = Math.max(...after.map((cue) => videoSeconds(track, cue.end, fps)));
    const offset =
      track.element.offset === undefined
        ? ''
        : `, or lower offset (it is ${JSON.stringify(track.element.offset)})`;
    const numbers = after.map((cue) => cue.number).join(', ');
    const cues = after.length === 1 ? 'cue' : 'cues';
    remedies.push(
      `${lengthen(track, upToTenth(latest - live.endFrame / fps))}${offset}, or remove ${cues} ${numbers}`,
    );
  }
  const before = of('before');
  if (before.length > 0) {
    const earliest = Math.min(...before.map((cue) => videoSeconds(track, cue.start, fps)));
    const later = laterBy(track, upToTenth(live.startFrame / fps - earliest), fps);
    remedies.push(`${later}, or start the captions earlier`);
  }
  for (const cue of of('brief')) {
    const frame = formatSeconds(1 / fps);
    remedies.push(`make cue ${cue.number} last at least one frame (${frame}) or join it to its neighbour`);
  }
  const first = why[0]!;
  const focus =
    first.reason === 'after'
      ? live.endFrame - 1
      : first.reason === 'before'
        ? live.startFrame
        : Math.min(Math.max(first.shown.timed.startFrame, live.startFrame), live.endFrame - 1);
  const count = never.length === 1 ? 'one of its cues falls' : `${never.length} of its cues fall`;
  return {
    code: 'caption_offscreen',
    severity: 'error',
    ...spanInterval(input.video, live, focus),
    element: track.timing.key,
    message:
      `${describeTrack(track)} lasts from ${at(live.startFrame)} to ${at(live.endFrame)}, but ${count} ` +
      `outside that and never show${never.length === 1 ? 's' : ''}: ${listed.join('; ')}${more}`,
    remedy: remedies.join('; '),
  };
}

/** The time on the captions' own clock (before offset and speed) at a frame of the element. */
function clockAt(track: CaptionTrack, frame: number, fps: number): number {
  const { layer, resolved } = track.timing;
  return captionClock(track.element, layerSecondsAt(layer, frame, fps) - resolved.startSeconds, fps);
}

function cutCue(input: CaptionCheckInput, track: CaptionTrack, shown: ShownCue): FindingDraft | undefined {
  if (spanFrames(shown.shown) === 0) return undefined;
  const { fps } = input.video;
  const { live } = track;
  const lostAtEnd = (shown.timed.endFrame - live.endFrame) / fps;
  const lostAtStart = (live.startFrame - shown.timed.startFrame) / fps;
  const atEnd = lostAtEnd >= lostAtStart;
  const lost = atEnd ? lostAtEnd : lostAtStart;
  if (lost < CUT_TOLERANCE_SECONDS - 1e-9) return undefined;
  const at = (frame: number) => formatSeconds(frame / fps);
  const kept = `it shows for ${formatSeconds(spanFrames(shown.shown) / fps)} of its ${formatSeconds(spanFrames(shown.timed) / fps)}`;
  const own =
    track.element.offset !== undefined || track.element.speed !== undefined
      ? ' (in its own time, before offset and speed)'
      : '';
  const endBy = track.element.words
    ? ''
    : `, or end cue ${shown.cue.number} by ${formatSeconds(clockAt(track, live.endFrame, fps))}${own}`;
  return {
    code: 'caption_offscreen',
    severity: 'warning',
    ...spanInterval(input.video, shown.shown, atEnd ? shown.shown.endFrame - 1 : shown.shown.startFrame),
    element: track.timing.key,
    message: atEnd
      ? `${describeTrack(track)}: ${describeCue(shown.cue)} runs ${formatSeconds(lost)} past the captions' end at ${at(live.endFrame)}, so it is cut: ${kept}`
      : `${describeTrack(track)}: ${describeCue(shown.cue)} starts ${formatSeconds(lost)} before the captions do at ${at(live.startFrame)}, so its start is cut: ${kept}`,
    remedy: atEnd
      ? `${lengthen(track, upToTenth(lost))}${endBy}`
      : `${laterBy(track, upToTenth(lost), fps)}, or start the captions earlier`,
  };
}

export function checkCuesOutside(input: CaptionCheckInput): FindingDraft[] {
  return input.tracks.flatMap((track) => {
    const never = neverShown(input, track);
    const cut = track.cues.flatMap((shown) => cutCue(input, track, shown) ?? []);
    return never ? [never, ...cut] : cut;
  });
}
