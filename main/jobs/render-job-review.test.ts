// The aspects a render job's quality gate reviews: one per aspect its outputs draw in.
import { describe, expect, it } from 'vitest';
import { aspectLabel } from '../review/aspect-findings.ts';
import { reviewedAspects } from './render-job-review.ts';

describe('reviewedAspects', () => {
  it('is each aspect the outputs draw in, once, in order; else the job’s, the spec’s or reels', () => {
    const outputs = [
      { format: 'mp4', quality: 'draft', aspect: 'reels' },
      { format: 'gif', quality: 'draft', aspect: 'reels' },
      { format: 'mp4', quality: 'draft' },
    ] as const;
    expect(reviewedAspects({ outputs: [...outputs] }, { aspect: 'landscape' })).toEqual([
      'reels',
      'landscape',
    ]);
    expect(reviewedAspects({ aspect: 'square' }, { aspect: 'landscape' })).toEqual(['square']);
    expect(reviewedAspects({}, {})).toEqual(['reels']);
    const custom = { width: 1280, height: 720 };
    expect(reviewedAspects({}, { aspect: custom })).toEqual([custom]);
    expect(aspectLabel(custom)).toBe('1280x720');
  });
});
