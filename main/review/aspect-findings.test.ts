// A review in several aspects as one list of findings.
import { describe, expect, it } from 'vitest';
import type { ReviewFinding } from '../../shared/protocol/finding.ts';
import { mergeAspectFindings } from './aspect-findings.ts';

function finding(code: ReviewFinding['code'], startFrame: number, message: string, frameIndex = startFrame) {
  return {
    code,
    severity: 'warning',
    interval: {
      startFrame,
      endFrame: startFrame + 30,
      startSeconds: startFrame / 30,
      endSeconds: startFrame / 30 + 1,
    },
    element: 's0/e1',
    message,
    remedy: 'change it',
    allowed: false,
    inspect: { operation: 'inspect', frameIndex, sourceRevision: 'rnd_1' },
  } satisfies ReviewFinding;
}

describe('mergeAspectFindings', () => {
  it('lists a finding every aspect has once, without an aspect, and the others with theirs', () => {
    const brief = finding('text_too_brief', 0, 'on screen for 0.5 s');
    const merged = mergeAspectFindings([
      { aspect: 'reels', findings: [brief, finding('unsafe_area', 10, 'under the buttons')] },
      // The same finding, looked at on another frame, is still the same one.
      { aspect: 'square', findings: [{ ...brief, inspect: { ...brief.inspect, frameIndex: 7 } }] },
    ]);
    expect(merged.map((one) => [one.code, one.aspect])).toEqual([
      ['text_too_brief', undefined],
      ['unsafe_area', 'reels'],
    ]);
    expect(merged[0]).toEqual(brief);
  });

  it('keeps a finding whose words differ by aspect once per aspect, along the timeline', () => {
    const merged = mergeAspectFindings([
      {
        aspect: 'landscape',
        findings: [finding('text_overflow', 20, 'past the right edge of the 1920×1080 frame')],
      },
      {
        aspect: 'reels',
        findings: [finding('text_overflow', 20, 'past the right edge of the 1080×1920 frame')],
      },
      { aspect: 'portrait45', findings: [finding('low_contrast', 5, 'grey on grey')] },
    ]);
    expect(merged.map((one) => `${one.code} ${one.aspect}`)).toEqual([
      'low_contrast portrait45',
      'text_overflow landscape',
      'text_overflow reels',
    ]);
  });

  it('gives a single review’s findings as they are', () => {
    const one = [finding('audio_peak', 0, 'clips'), finding('text_too_small', 3, 'small')];
    expect(mergeAspectFindings([{ aspect: 'square', findings: one }])).toEqual(one);
  });
});
