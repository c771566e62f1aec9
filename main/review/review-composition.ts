// A whole review of one composition, as the workspace runs it and the examples' test checks it:
// sampled frames through the visual checks, the resources (fonts, media), and the mixed soundtrack.
import { inspectComposition } from '../inspect/inspect.ts';
import type { InspectResult } from '../../shared/protocol/inspect.ts';
import { analyzeSoundtrack, audioFindings } from './audio-checks.ts';
import type { FindingDraft } from './finding.ts';
import { resourceFindings } from './resource-checks.ts';
import { visualReview } from './visual-review.ts';
import type { VisualReviewOptions, VisualReviewResult } from './visual-review.ts';

export interface CompositionReview {
  visual: VisualReviewResult;
  facts: InspectResult;
  /** Every finding, along the timeline. */
  drafts: FindingDraft[];
  timings: { visualMs: number; factsMs: number; audioMs: number };
}

function byTime(a: FindingDraft, b: FindingDraft): number {
  return a.startFrame - b.startFrame || a.code.localeCompare(b.code);
}

export async function reviewComposition(options: VisualReviewOptions): Promise<CompositionReview> {
  const started = performance.now();
  const visual = await visualReview(options);
  const { video } = visual;
  const factsStarted = performance.now();
  const facts = await inspectComposition({
    model: options.model,
    project: options.project,
    video,
    signal: options.signal,
  });
  const audioStarted = performance.now();
  const soundtrack = await analyzeSoundtrack(video, options.project, options.signal);
  const drafts = [
    ...visual.drafts,
    ...resourceFindings(facts.resources, video),
    ...audioFindings(soundtrack, video.fps),
  ].sort(byTime);
  return {
    visual,
    facts,
    drafts,
    timings: {
      visualMs: factsStarted - started,
      factsMs: audioStarted - factsStarted,
      audioMs: performance.now() - audioStarted,
    },
  };
}
