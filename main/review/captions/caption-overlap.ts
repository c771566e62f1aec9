// caption_overlap: two captions elements on screen at once, so two lines of speech compete for the
// viewer's eye. From the frames each element shows a page in (its start and end, each cue's time with
// its offset and speed applied), one finding per pair and stretch of frames they share.
import type { FindingDraft } from '../finding.ts';
import { formatSeconds } from '../visual/check.ts';
import type { CaptionTrack, FrameSpan, ShownPage } from './caption-tracks.ts';
import { spanFrames } from './caption-tracks.ts';
import type { CaptionCheck, CaptionCheckInput } from './check.ts';
import { describeCue, describeTrack, offsetSeconds, spanInterval, specSeconds, upToTenth } from './check.ts';

/** A stretch of frames in which the element shows a page without a break, and the pages shown. */
interface Run extends FrameSpan {
  pages: ShownPage[];
}

function runs(track: CaptionTrack): Run[] {
  const all: Run[] = [];
  for (const shown of track.pages) {
    if (spanFrames(shown.shown) === 0) continue;
    const last = all[all.length - 1];
    if (last && shown.shown.startFrame <= last.endFrame) {
      last.endFrame = Math.max(last.endFrame, shown.shown.endFrame);
      last.pages.push(shown);
    } else {
      all.push({ ...shown.shown, pages: [shown] });
    }
  }
  return all;
}

interface Overlap extends FrameSpan {
  first: { track: CaptionTrack; run: Run };
  second: { track: CaptionTrack; run: Run };
}

/** Where runs of `a` and `b` share frames; `second` is the one whose run began later (it cut in). */
function overlaps(a: CaptionTrack, ofA: Run[], b: CaptionTrack, ofB: Run[]): Overlap[] {
  const found: Overlap[] = [];
  let i = 0;
  let j = 0;
  while (i < ofA.length && j < ofB.length) {
    const runA = ofA[i]!;
    const runB = ofB[j]!;
    const startFrame = Math.max(runA.startFrame, runB.startFrame);
    const endFrame = Math.min(runA.endFrame, runB.endFrame);
    if (endFrame > startFrame) {
      const aFirst = runA.startFrame <= runB.startFrame;
      const first = aFirst ? { track: a, run: runA } : { track: b, run: runB };
      const second = aFirst ? { track: b, run: runB } : { track: a, run: runA };
      found.push({ startFrame, endFrame, first, second });
    }
    if (runA.endFrame <= runB.endFrame) i++;
    else j++;
  }
  return found;
}

/** The page of the run on screen at `frame`. */
function shownAt(run: Run, frame: number): ShownPage {
  return (
    run.pages.find((shown) => shown.shown.startFrame <= frame && frame < shown.shown.endFrame) ??
    run.pages[0]!
  );
}

/** The cues shown during the overlap, named: `cue 2 (line 5) "…"` or `cues 2–4`. */
function cuesDuring(track: CaptionTrack, run: Run, span: FrameSpan): string {
  const numbers = [
    ...new Set(
      run.pages
        .filter((shown) => shown.shown.startFrame < span.endFrame && span.startFrame < shown.shown.endFrame)
        .map((shown) => shown.page.cue),
    ),
  ];
  if (numbers.length === 1)
    return describeCue(track.cues.find((shown) => shown.cue.number === numbers[0])!.cue);
  return `cues ${numbers[0]}–${numbers[numbers.length - 1]}`;
}

function finding(input: CaptionCheckInput, overlap: Overlap): FindingDraft {
  const { fps } = input.video;
  const { first, second } = overlap;
  const seconds = (frames: number) => frames / fps;
  // Taking turns: the first element's page up when the second cut in must be gone before it comes.
  const clash = shownAt(first.run, overlap.startFrame);
  const clashCue = first.track.cues.find((shown) => shown.cue.number === clash.page.cue)!;
  const shift = upToTenth(seconds(clash.shown.endFrame - overlap.startFrame));
  const secondCue = shownAt(second.run, overlap.startFrame).page.cue;
  const offset = specSeconds(offsetSeconds(second.track, fps) + shift);
  return {
    code: 'caption_overlap',
    severity: 'warning',
    ...spanInterval(input.video, overlap, overlap.startFrame),
    element: second.track.timing.key,
    message:
      `${cuesDuring(first.track, first.run, overlap)} of ${describeTrack(first.track)} and ` +
      `${cuesDuring(second.track, second.run, overlap)} of ${describeTrack(second.track)} are on screen together ` +
      `for ${formatSeconds(seconds(spanFrames(overlap)))}, from ${formatSeconds(seconds(overlap.startFrame))} to ` +
      `${formatSeconds(seconds(overlap.endFrame))}`,
    remedy:
      `let them take turns: end cue ${clashCue.cue.number} of the first ${formatSeconds(shift)} earlier, or start ` +
      `cue ${secondCue} of the second ${formatSeconds(shift)} later (offset: ${offset} moves all its cues); ` +
      `lines meant to be read together belong in one captions element`,
  };
}

export const checkCaptionOverlap: CaptionCheck = (input) => {
  const drafts: FindingDraft[] = [];
  // Each track's runs once, in order of their first frame: a pair is compared only when their
  // spans meet, so thousands of short captions elements cost a sweep, not every pair.
  const shown = input.tracks
    .map((track) => ({ track, runs: runs(track) }))
    .filter((entry) => entry.runs.length > 0)
    .sort((x, y) => x.runs[0]!.startFrame - y.runs[0]!.startFrame);
  for (let i = 0; i < shown.length; i++) {
    const a = shown[i]!;
    const aEnd = a.runs[a.runs.length - 1]!.endFrame;
    for (let j = i + 1; j < shown.length && shown[j]!.runs[0]!.startFrame < aEnd; j++) {
      const b = shown[j]!;
      for (const overlap of overlaps(a.track, a.runs, b.track, b.runs)) drafts.push(finding(input, overlap));
    }
  }
  return drafts;
};
