import { describe, expect, it } from 'vitest';
import { draftsWithCode, expectWellFormed, reviewFixture } from './review.fixture.ts';

describe('code_overflow', () => {
  it('names the widest line, how wide it is, and what to change', async () => {
    const result = await reviewFixture('code_overflow', 'trigger');
    const found = draftsWithCode(result, 'code_overflow');
    expect(found).toHaveLength(1);
    const [draft] = found;
    expectWellFormed(result, draft!);
    expect(draft).toMatchObject({ severity: 'error', element: 's0/e0', startFrame: 0, endFrame: 60 });
    expect(draft!.message).toContain('id "snippet"');
    expect(draft!.message).toMatch(/line 2 \("const summary = `\$\{order\.customer\.name}/);
    // 95 columns of 18 px is 1710 px; half the 1920 px frame less padding leaves under 900.
    const [wide, room] = /is (\d+) px wide but the box leaves (\d+) px/
      .exec(draft!.message)!
      .slice(1)
      .map(Number);
    expect(wide).toBe(95 * 18);
    expect(room).toBeLessThan(900);
    expect(draft!.remedy).toMatch(/^lower size to about 1\d \(it is 30\), widen the box by at least \d+ px/);
  }, 60_000);

  it('passes the wrapped code at its natural width', async () => {
    const result = await reviewFixture('code_overflow', 'clean');
    expect(result.drafts).toEqual([]);
  }, 60_000);
});
