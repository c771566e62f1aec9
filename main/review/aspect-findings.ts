// The findings of a review in several aspects as one list: a finding seen the same in every aspect
// (a silent soundtrack, a missing file, text on screen too briefly) is listed once, as it always was;
// one seen in some aspects only (text cut at a reel's edge) names its aspect, once per aspect.
import type { ReviewFinding } from '../../shared/protocol/finding.ts';
import type { Aspect } from '../../shared/spec/sizes.ts';

/** How findings name an aspect: its name, or WIDTHxHEIGHT for a custom size. */
export function aspectLabel(aspect: Aspect): string {
  return typeof aspect === 'string' ? aspect : `${aspect.width}x${aspect.height}`;
}

export interface AspectFindings {
  aspect: string;
  findings: readonly ReviewFinding[];
}

/** What makes two findings the same one: all they say, less where the reader is sent to look. */
function identity(finding: ReviewFinding): string {
  const { inspect: _inspect, aspect: _aspect, ...said } = finding;
  return JSON.stringify(said);
}

/**
 * One list, along the timeline: a finding every aspect has, once and without `aspect`; the others
 * each with the aspect it was found in. A review of one aspect gives its findings as they are.
 */
export function mergeAspectFindings(reviews: readonly AspectFindings[]): ReviewFinding[] {
  const seenIn = new Map<string, Set<string>>();
  for (const { aspect, findings } of reviews) {
    for (const finding of findings) {
      const key = identity(finding);
      seenIn.set(key, (seenIn.get(key) ?? new Set()).add(aspect));
    }
  }
  const merged: ReviewFinding[] = [];
  const listed = new Set<string>();
  for (const { aspect, findings } of reviews) {
    for (const finding of findings) {
      const key = identity(finding);
      if (seenIn.get(key)!.size < reviews.length) merged.push({ ...finding, aspect });
      else if (!listed.has(key)) {
        listed.add(key);
        merged.push(finding);
      }
    }
  }
  return merged.sort(
    (a, b) =>
      a.interval.startFrame - b.interval.startFrame ||
      a.code.localeCompare(b.code) ||
      (a.aspect ?? '').localeCompare(b.aspect ?? ''),
  );
}
