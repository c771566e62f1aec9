import { describe, expect, it } from 'vitest';
import { draftsWithCode, expectWellFormed, reviewFixture } from './review.fixture.ts';

describe('missing_glyph', () => {
  it('names the element, the characters no font of its stack has, and a bundled face that has them', async () => {
    const result = await reviewFixture('missing_glyph', 'trigger');
    const found = draftsWithCode(result, 'missing_glyph');
    expect(found.map((draft) => draft.element).sort()).toEqual(['s0/e0', 's0/e1']);
    for (const draft of found) expectWellFormed(result, draft);
    const [text, counter] = ['s0/e0', 's0/e1'].map((key) => found.find((draft) => draft.element === key)!);
    expect(text).toMatchObject({ severity: 'error', startFrame: 0, endFrame: 90 });
    // ★ is not named: the fallback chain draws it.
    expect(text!.message).toBe(
      'text "⏻ Power off ★" (id "power", s0/e0) has "⏻" (U+23FB), which no font of its stack ' +
        '("Kino Display", "Kino Emoji", "Kino Symbols") can draw: the video shows a missing-glyph box instead',
    );
    expect(text!.remedy).toMatch(/^set this element's font to "mono"/);
    // The counter is no text element: its suffix is found in the text its drawing reported.
    expect(counter!.message).toContain('counter (id "coins", s0/e1) has "₿" (U+20BF),');
    expect(counter!.message).toContain('("Kino Serif", "Kino Emoji", "Kino Symbols")');
    expect(counter!.remedy).toMatch(/^set this element's font to "sans"/);
    expect(result.drafts.filter((draft) => draft.code !== 'missing_glyph')).toEqual([]);
  });

  it('records the text each element drew, with the font stack it was drawn in', async () => {
    const result = await reviewFixture('missing_glyph', 'trigger');
    const runs = result.samples.at(-1)!.textRuns;
    const drawn = (key: string) => runs.filter((run) => run.key === key);
    // Text draws word by word, a counter digit by digit (tabular figures).
    expect(drawn('s0/e0').map((run) => run.text)).toEqual(['⏻', 'Power', 'off', '★']);
    expect(new Set(drawn('s0/e0').map((run) => run.font))).toEqual(
      new Set(['400 120px "Kino Display", "Kino Emoji", "Kino Symbols"']),
    );
    expect(drawn('s0/e1').map((run) => run.text)).toEqual(['2', '1', '₿']);
  });

  it('passes the fixed composition, set in faces that have the characters', async () => {
    const result = await reviewFixture('missing_glyph', 'clean');
    expect(result.drafts).toEqual([]);
  });
});
