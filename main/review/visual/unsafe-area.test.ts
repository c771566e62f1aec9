import { describe, expect, it } from 'vitest';
import { isReelsShape } from './unsafe-area.ts';
import { draftsWithCode, expectWellFormed, loadFixture, reviewFixture } from './review.fixture.ts';
import { visualReview } from '../visual-review.ts';

describe('unsafe_area', () => {
  it('applies to 9:16 output only', () => {
    expect(isReelsShape({ width: 1080, height: 1920 })).toBe(true);
    expect(isReelsShape({ width: 720, height: 1280 })).toBe(true);
    expect(isReelsShape({ width: 1080, height: 1350 })).toBe(false);
  });

  it('flags the call to action laid out in the bottom band of a reel', async () => {
    const result = await reviewFixture('unsafe_area', 'trigger');
    const found = draftsWithCode(result, 'unsafe_area');
    expect(found.map((draft) => draft.element)).toEqual(['s0/e1']);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    expect(draft).toMatchObject({ severity: 'warning', startFrame: 0, endFrame: 75 });
    expect(draft.message).toMatch(
      /^text "Follow for daily tips" \(id "cta", s0\/e1\) reaches \d+ px into the bottom band/,
    );
    const depth = Number(/reaches (\d+) px/.exec(draft.message)![1]);
    // The text's middle is at 90 % (1728 px), the band starts at 82 % (1574 px); ink reaches ~28 px higher.
    expect(depth).toBeGreaterThan(150);
    expect(depth).toBeLessThan(215);
    expect(draft.remedy).toBe(
      `move it ${depth} px or more up (lower y), so it ends above 1574 px from the top, or lay it out in the safe area (box: 'safe')`,
    );
    expect(result.drafts.filter((d) => d.code !== 'unsafe_area')).toEqual([]);
  });

  it('passes the fixed composition, with the call to action at 78 %', async () => {
    const result = await reviewFixture('unsafe_area', 'clean');
    expect(result.drafts).toEqual([]);
  });

  it('says nothing for the same composition rendered square', async () => {
    const { model, project } = await loadFixture('unsafe_area', 'trigger');
    const result = await visualReview({ model, project, aspect: 'square', samples: 4 });
    expect(draftsWithCode(result, 'unsafe_area')).toEqual([]);
  });
});
