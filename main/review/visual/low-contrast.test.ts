import { describe, expect, it } from 'vitest';
import { measureContrast } from './low-contrast.ts';
import { draftsWithCode, expectWellFormed, reviewFixture } from './review.fixture.ts';

const white = { r: 255, g: 255, b: 255, a: 1 };
const black = { r: 0, g: 0, b: 0, a: 1 };
/** Ten pixels: nine white, one black. */
const mostlyWhite = Uint8Array.from([...Array.from({ length: 27 }, () => 255), 0, 0, 0]);

describe('low_contrast', () => {
  it('measures white text on a white backdrop as 1:1, and on its own black box or wide outline as 21:1', () => {
    const plain = { fill: white, box: undefined, stroke: undefined, alpha: 1 };
    expect(measureContrast(plain, mostlyWhite)!.ratio).toBeCloseTo(1);
    expect(measureContrast({ ...plain, box: black }, mostlyWhite)!.ratio).toBeCloseTo(21);
    expect(measureContrast({ ...plain, stroke: black }, mostlyWhite)!.ratio).toBeCloseTo(21);
  });

  it('reads the 10th percentile: one dark pixel in ten does not rescue white text', () => {
    const dark = Uint8Array.from([
      ...Array.from({ length: 3 }, () => 0),
      ...Array.from({ length: 27 }, () => 255),
    ]);
    expect(
      measureContrast({ fill: white, box: undefined, stroke: undefined, alpha: 1 }, dark)!.ratio,
    ).toBeCloseTo(1);
  });

  it('flags the light grey hint on the off-white background, not the boxed or outlined white text', async () => {
    const result = await reviewFixture('low_contrast', 'trigger');
    const found = draftsWithCode(result, 'low_contrast');
    expect(found.map((draft) => draft.element)).toEqual(['s0/e2']);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    expect(draft).toMatchObject({ severity: 'warning', startFrame: 0, endFrame: 75 });
    // #a1a1aa on #f3f4f6 is 2.3:1; 56 px bold is large text.
    expect(draft.message).toContain('text "Swipe up to shop" (id "hint", s0/e2) has a contrast of 2.3:1');
    expect(draft.message).toContain('below the 3.0:1 needed for large text');
    expect(draft.remedy).toMatch(
      /^set color to #000000 \(\d+\.\d:1 here\), or give it a backing box: background: \{ color: 'rgba\(0, 0, 0, 0\.\d\)' \}/,
    );
    // The hint fades in: at rest from 0.6 s, so the worst sample is after that.
    expect(draft.focusFrame).toBeGreaterThanOrEqual(18);
    expect(result.drafts.filter((d) => d.code !== 'low_contrast')).toEqual([]);
  });

  it('passes the fixed composition, with the hint dark grey', async () => {
    const result = await reviewFixture('low_contrast', 'clean');
    expect(result.drafts).toEqual([]);
  });
});
