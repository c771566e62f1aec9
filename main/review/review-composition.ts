// A whole review of one composition, as the workspace runs it and the examples' test checks it:
// sampled frames through the visual checks, the resources (fonts, media), and the mixed soundtrack.
import { inspectComposition } from '../inspect/inspect.ts';
import type { InspectResult } from '../../shared/protocol/inspect.ts';
import { analyzeSoundtrack, audioFindings } from './audio-checks.ts';
import type { FindingDraft } from './finding.ts';
import { resourceFindings } from './resource-checks.ts';
import { visualReview } from './visual-review.ts';
import { resolveTimeline } from '../../shared/timeline/resolve.ts';
import type { VisualReviewOptions, VisualReviewResult } from './visual-review.ts';

export interface CompositionReview {
  visual: VisualReviewResult;
  facts: InspectResult;
  /** Every finding, along the timeline. */
  drafts: FindingDraft[];
  /** audioMs runs alongside visualMs (ffmpeg mixes the soundtrack while the frames are drawn). */
  timings: { visualMs: number; factsMs: number; audioMs: number };
}

function byTime(a: FindingDraft, b: FindingDraft): number {
  return a.startFrame - b.startFrame || a.code.localeCompare(b.code);
}

export async function reviewComposition(options: VisualReviewOptions): Promise<CompositionReview> {
  const started = performance.now();
  // The soundtrack is mixed and measured by ffmpeg, in its own process: it runs while the frames
  // are drawn, not after them. Its timeline is the one the review's drawing session resolves.
  let audioMs = 0;
  const soundtrack = analyzeSoundtrack(
    resolveTimeline(options.model, { aspect: options.aspect }),
    options.project,
    options.signal,
  ).finally(() => (audioMs = performance.now() - started));
  // Awaited below; a review that fails first leaves it to end on its own (or on the signal).
  soundtrack.catch(() => undefined);
  const visual = await visualReview(options);
  const { video } = visual;
  const factsStarted = performance.now();
  const facts = await inspectComposition({
    model: options.model,
    project: options.project,
    video,
    signal: options.signal,
  });
  const factsMs = performance.now() - factsStarted;
  const drafts = [
    ...visual.drafts,
    ...resourceFindings(facts.resources, video),
    ...audioFindings(await soundtrack, video.fps),
  ].sort(byTime);
  return {
    visual,
    facts,
    drafts,
    timings: { visualMs: factsStarted - started, factsMs, audioMs },
  };
}
