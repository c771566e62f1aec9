import { describe, expect, it } from 'vitest';
import { draftsWithCode, expectWellFormed, reviewFixture } from './review.fixture.ts';

describe('text_overflow', () => {
  it('flags the headline cut to maxLines and the price running past the right edge', async () => {
    const result = await reviewFixture('text_overflow', 'trigger');
    const found = draftsWithCode(result, 'text_overflow');
    expect(found.map((draft) => draft.element).sort()).toEqual(['s0/e0', 's0/e1']);
    for (const draft of found) expectWellFormed(result, draft);

    const headline = found.find((draft) => draft.element === 's0/e0')!;
    expect(headline).toMatchObject({ severity: 'error', startFrame: 0, endFrame: 105 });
    expect(headline.message).toContain('id "headline"');
    expect(headline.message).toContain('"Summer sale: up to seventy percent off…"');
    expect(headline.message).toMatch(/cut to 2 lines \(maxLines\).*needs 5 lines/);
    expect(headline.remedy).toMatch(
      /^raise maxLines to 5, shorten the text, or lower size to about \d+ \(it is 110\)/,
    );

    const price = found.find((draft) => draft.element === 's0/e1')!;
    expect(price.message).toMatch(/"Now 49 €".* runs \d+ px past the right edge of the frame/);
    const past = Number(/runs (\d+) px/.exec(price.message)![1]);
    // 72 % of 1080 is 778 px; "Now 49 €" at 96 px is about 450 px wide.
    expect(past).toBeGreaterThan(100);
    expect(past).toBeLessThan(250);
    expect(price.remedy).toContain(`move it ${past} px or more left (lower x)`);
  });

  it('only reports this code for the trigger', async () => {
    const result = await reviewFixture('text_overflow', 'trigger');
    expect(result.drafts.filter((draft) => draft.code !== 'text_overflow')).toEqual([]);
  });

  it('passes the fixed composition: maxLines raised, the price anchored inside the frame', async () => {
    const result = await reviewFixture('text_overflow', 'clean');
    expect(result.drafts).toEqual([]);
  });

  it('leaves a text wholly off the frame to offscreen_element', async () => {
    const result = await reviewFixture('offscreen_element', 'trigger');
    expect(draftsWithCode(result, 'text_overflow')).toEqual([]);
  });
});
