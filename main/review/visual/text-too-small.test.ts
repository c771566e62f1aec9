import { describe, expect, it } from 'vitest';
import { minimumFontPx } from './text-too-small.ts';
import { draftsWithCode, expectWellFormed, reviewFixture } from './review.fixture.ts';

describe('text_too_small', () => {
  it('sets the minimum at 3 % of the shorter side', () => {
    expect(minimumFontPx({ width: 1080, height: 1920 })).toBeCloseTo(32.4);
    expect(minimumFontPx({ width: 1920, height: 1080 })).toBeCloseTo(32.4);
    expect(minimumFontPx({ width: 720, height: 1280 })).toBeCloseTo(21.6);
  });

  it('flags the 24 px disclaimer but not the title scaling in from 20 %', async () => {
    const result = await reviewFixture('text_too_small', 'trigger');
    const found = draftsWithCode(result, 'text_too_small');
    expect(found.map((draft) => draft.element)).toEqual(['s0/e1']);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    expect(draft).toMatchObject({ severity: 'warning', startFrame: 0, endFrame: 75 });
    expect(draft.message).toContain('text "Terms and conditions apply" (id "disclaimer", s0/e1)');
    expect(draft.message).toContain('renders at 24 px at most, below the 32.4 px minimum');
    expect(draft.remedy).toMatch(/^raise size to at least 33 \(it is 24\)/);
    expect(result.drafts.filter((d) => d.code !== 'text_too_small')).toEqual([]);
  });

  it('samples the title mid scale-in, yet judges it by its full size', async () => {
    const result = await reviewFixture('text_too_small', 'trigger');
    const titleSizes = result.samples.flatMap((sample) =>
      sample.texts.filter((text) => text.drawn.key === 's0/e0').map((text) => text.geometry.fontPx),
    );
    expect(Math.min(...titleSizes)).toBeLessThan(32.4);
    expect(Math.max(...titleSizes)).toBeCloseTo(96);
  });

  it('passes the fixed composition, with the disclaimer at size 34', async () => {
    const result = await reviewFixture('text_too_small', 'clean');
    expect(result.drafts).toEqual([]);
  });
});
