import { describe, expect, it } from 'vitest';
import { fadeIn, fadeOut, group, scene, text, video } from '../../../shared/builder/index.ts';
import { resolveTimeline } from '../../../shared/timeline/resolve.ts';
import { indexElements } from '../element-timing.ts';
import { checkTextTooBrief, readingSeconds } from './text-too-brief.ts';
import { draftsWithCode, expectWellFormed, reviewFixture } from './review.fixture.ts';

describe('text_too_brief', () => {
  it('needs words / 3 s + 0.35 s', () => {
    expect(readingSeconds(9)).toBeCloseTo(3.35);
    expect(readingSeconds(1)).toBeCloseTo(0.683, 3);
  });

  it('flags the nine-word call to action shown for one second, over its own frames', async () => {
    const result = await reviewFixture('text_too_brief', 'trigger');
    const found = draftsWithCode(result, 'text_too_brief');
    expect(found).toHaveLength(1);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    expect(draft).toMatchObject({ element: 's0/e0', severity: 'warning', startFrame: 0, endFrame: 30 });
    expect(draft.message).toContain('id "cta"');
    expect(draft.message).toMatch(/on screen for 1 s, but its 9 words need at least 3\.35 s/);
    expect(draft.remedy).toMatch(/^raise its duration by at least 2\.4s/);
    expect(result.drafts.filter((d) => d.code !== 'text_too_brief')).toEqual([]);
  });

  it('passes the fixed composition, where the text stays 3.4 s', async () => {
    const result = await reviewFixture('text_too_brief', 'clean');
    expect(result.drafts).toEqual([]);
  });

  it('counts an entrance delay and a group exit as time off screen', () => {
    const model = video({ fps: 30 }, [
      scene({ duration: '3s' }, [
        text('Three words here', { id: 'late' }).animate(fadeIn({ delay: '1.8s' })),
        group({ id: 'box' }, [text('Also four words here', { id: 'inner' })]).animate(
          fadeOut({ trigger: { at: '1s' } }),
        ),
        text('Plenty of time', { id: 'fine' }),
      ]),
    ]);
    const resolved = resolveTimeline(model);
    const drafts = checkTextTooBrief({
      video: resolved,
      index: indexElements(resolved),
      samples: [],
      captions: [],
    });
    expect(
      drafts.map((draft) => [draft.element, /on screen for ([\d.]+) s/.exec(draft.message)![1]]),
    ).toEqual([
      ['s0/e0', '1.2'],
      ['s0/e1/e0', '1.6'],
    ]);
    expect(drafts[0]!.remedy).toContain('start its entrance earlier');
  });
});
