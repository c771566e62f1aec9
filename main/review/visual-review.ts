// The visual part of review in one call: sample frames, capture them, run every visual check, judge
// the captions from their timing and layout, confirm frozen stretches, and (given a way to mount the
// composition again) check that drawing repeats.
import type { VideoModel } from '../../shared/spec/model.ts';
import type { ResolvedVideo } from '../../shared/timeline/types.ts';
import type { UnavailableSource } from '../engine/drawing-session.ts';
import { captureSamples, sampleFrames } from './capture.ts';
import { MAX_REVIEW_FRAMES } from '../../shared/protocol/review-frames.ts';
import type { ReviewSample } from './capture.ts';
import { captionFindings } from './captions/caption-review.ts';
import { captionTracks } from './captions/caption-tracks.ts';
import { checkDeterminism } from './determinism.ts';
import type { FrameDeterminism } from '../../shared/protocol/workspace.ts';
import { indexElements } from './element-timing.ts';
import type { FindingDraft } from './finding.ts';
import { ReviewSession } from './review-session.ts';
import type { ReviewSessionOptions } from './review-session.ts';
import { checkBlankFrame } from './visual/blank-frame.ts';
import { checkCodeOverflow } from './visual/code-overflow.ts';
import { checkElementOverlap } from './visual/element-overlap.ts';
import type { VisualCheck, VisualCheckInput } from './visual/check.ts';
import { checkFrozenSegments } from './visual/frozen-segment.ts';
import { checkLabelOverlap } from './visual/label-overlap.ts';
import { checkLowContrast } from './visual/low-contrast.ts';
import { checkMissingGlyph } from './visual/missing-glyph.ts';
import { checkOffscreenElement } from './visual/offscreen-element.ts';
import { checkTextOverflow } from './visual/text-overflow.ts';
import { checkTextTooBrief } from './visual/text-too-brief.ts';
import { checkTextTooSmall } from './visual/text-too-small.ts';
import { checkUnsafeArea } from './visual/unsafe-area.ts';

export type { ReviewSample } from './capture.ts';

/** The checks that read only the samples (frozen_segment draws more frames, so it runs apart). */
export const SAMPLE_CHECKS: readonly VisualCheck[] = [
  checkTextOverflow,
  checkCodeOverflow,
  checkTextTooBrief,
  checkTextTooSmall,
  checkLowContrast,
  checkUnsafeArea,
  checkOffscreenElement,
  checkLabelOverlap,
  checkElementOverlap,
  checkBlankFrame,
  checkMissingGlyph,
];

export function runSampleChecks(input: VisualCheckInput): FindingDraft[] {
  return SAMPLE_CHECKS.flatMap((check) => check(input));
}

export interface VisualReviewOptions extends ReviewSessionOptions {
  /** How many frames to sample, at most 24 (the default). */
  samples?: number | undefined;
  /** Encode every sample as PNG (ReviewSample.png). */
  png?: boolean | undefined;
  /** Stills longer than this many seconds are frozen_segment; default 3. */
  frozenSeconds?: number | undefined;
  /** Each sample drawn: how many of how many (the determinism check's redraws are not counted). */
  onSample?: ((done: number, total: number) => void) | undefined;
  /** Mounts the composition afresh (loads it again) for the determinism check; without it, no check. */
  mount?: (() => Promise<VideoModel>) | undefined;
}

export interface VisualReviewTimings {
  captureMs: number;
  checksMs: number;
  frozenMs: number;
  determinismMs: number;
}

export interface VisualReviewResult {
  video: ResolvedVideo;
  samples: ReviewSample[];
  drafts: FindingDraft[];
  /** Per sample frame, when `mount` was given. */
  determinism: FrameDeterminism[] | undefined;
  /** Media and fonts the drawing went without (reported by other checks). */
  unavailable: readonly UnavailableSource[];
  timings: VisualReviewTimings;
}

/** Finding order: by time, then by code, so a report reads along the timeline. */
function byTime(a: FindingDraft, b: FindingDraft): number {
  return a.startFrame - b.startFrame || a.code.localeCompare(b.code);
}

export async function visualReview(options: VisualReviewOptions): Promise<VisualReviewResult> {
  const clock = () => performance.now();
  const timings: VisualReviewTimings = { captureMs: 0, checksMs: 0, frozenMs: 0, determinismMs: 0 };
  const session = await ReviewSession.open(options);
  const { video } = session;
  const index = indexElements(video);
  let samples: ReviewSample[];
  const drafts: FindingDraft[] = [];
  try {
    let started = clock();
    samples = await captureSamples(session, sampleFrames(video, options.samples ?? MAX_REVIEW_FRAMES), {
      png: options.png,
      signal: options.signal,
      onSample: options.onSample,
    });
    timings.captureMs = clock() - started;
    started = clock();
    const layout = { env: session.layoutEnv, ctx: session.measuring.ctx };
    const captions = captionTracks(video, index, layout);
    drafts.push(...runSampleChecks({ video, index, samples, captions, glyphs: session.glyphs() }));
    drafts.push(...captionFindings(video, index, layout, captions));
    timings.checksMs = clock() - started;
    started = clock();
    const known = new Map(samples.map((sample) => [sample.frame, sample.sha256]));
    drafts.push(
      ...(await checkFrozenSegments(video, index, (frame) => session.frameSha256(frame), {
        minSeconds: options.frozenSeconds,
        known,
      })),
    );
    timings.frozenMs = clock() - started;
  } finally {
    session.close();
  }
  let determinism: FrameDeterminism[] | undefined;
  if (options.mount) {
    const started = clock();
    const result = await checkDeterminism({ ...options, mount: options.mount, frames: samples });
    determinism = result.frames;
    drafts.push(...result.drafts);
    timings.determinismMs = clock() - started;
  }
  return {
    video,
    samples,
    drafts: drafts.sort(byTime),
    determinism,
    unavailable: session.unavailable,
    timings,
  };
}
