import { describe, expect, it } from 'vitest';
import { draftsWithCode, expectWellFormed, reviewFixture } from './review.fixture.ts';

describe('blank_frame', () => {
  it('flags the flat opening before the title fades in at 1.2 s, as one finding', async () => {
    const result = await reviewFixture('blank_frame', 'trigger');
    const found = draftsWithCode(result, 'blank_frame');
    expect(found).toHaveLength(1);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    expect(draft).toMatchObject({ severity: 'warning', startFrame: 0, endFrame: 36, focusFrame: 0 });
    expect(draft.element).toBeUndefined();
    expect(draft.message).toMatch(
      /^\d+ sampled frames from 0 to \d+ .* show nothing but one flat colour \(#0f172a\), until 1\.2 s$/,
    );
    expect(draft.remedy).toBe(
      'the first frame is the thumbnail on most platforms: the next thing to show in scene "scene-1" is ' +
        'text "Chapter one" (id "title", s0/e0) at 1.2 s into the scene: start it (or its entrance) earlier, or cut the empty time',
    );
    expect(result.drafts.filter((d) => d.code !== 'blank_frame')).toEqual([]);
  });

  it('passes the fixed composition, where the empty first frames are the start of a fade-in', async () => {
    const result = await reviewFixture('blank_frame', 'clean');
    expect(result.samples[0]!.flatness.flatShare).toBe(1);
    expect(result.drafts).toEqual([]);
  });
});
