import { describe, expect, it } from 'vitest';
import { draftsWithCode, expectWellFormed, reviewFixture } from './review.fixture.ts';

describe('label_overlap', () => {
  it('flags the column chart whose value labels run into each other', async () => {
    const result = await reviewFixture('label_overlap', 'trigger');
    const found = draftsWithCode(result, 'label_overlap');
    expect(found.map((draft) => draft.element)).toEqual(['s0/e1']);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    expect(draft.severity).toBe('warning');
    expect(draft.message).toMatch(/^chart \(id "weekly", s0\/e1\) draws \d+ pairs of labels over each other/);
    // Twenty labels side by side: each neighbour pair meets, at least a dozen of them.
    expect(Number(/draws (\d+) pairs/.exec(draft.message)![1])).toBeGreaterThanOrEqual(12);
    expect(draft.remedy).toMatch(
      /valueLabels: 'none'.*lower size to about \d+ \(it is 34\).*horizontal: true/,
    );
    const smaller = Number(/about (\d+)/.exec(draft.remedy)![1]);
    expect(smaller).toBeLessThan(34);
  });

  it('reports nothing else on the trigger', async () => {
    const result = await reviewFixture('label_overlap', 'trigger');
    expect(result.drafts.filter((draft) => draft.code !== 'label_overlap')).toEqual([]);
  });

  it('passes the horizontal bars of the clean twin', async () => {
    const result = await reviewFixture('label_overlap', 'clean');
    expect(result.drafts).toEqual([]);
  });
});
