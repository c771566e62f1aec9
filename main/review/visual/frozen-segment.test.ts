import { describe, expect, it } from 'vitest';
import { resolveTimeline } from '../../../shared/timeline/resolve.ts';
import { indexElements } from '../element-timing.ts';
import { checkFrozenSegments, findStillStretches } from './frozen-segment.ts';
import { draftsWithCode, expectWellFormed, loadFixture, reviewFixture } from './review.fixture.ts';

describe('frozen_segment', () => {
  it('flags the 4.1 s still after the lines have faded in', async () => {
    const result = await reviewFixture('frozen_segment', 'trigger');
    const found = draftsWithCode(result, 'frozen_segment');
    expect(found).toHaveLength(1);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    // The second line's fade-in ends at 0.9 s (frame 27); the scene ends at frame 150.
    expect(draft).toMatchObject({ severity: 'warning', startFrame: 27, endFrame: 150, focusFrame: 27 });
    expect(draft.message).toBe(
      'scene "calm" shows the same picture for 4.1 s (frames 27 to 149, 0.9 s to 5 s): nothing moves, appears or leaves for longer than 3 s',
    );
    expect(draft.remedy).toContain('shorten scene "calm" by at least 1.1s, or mark the scene hold: true');
    expect(result.drafts.filter((d) => d.code !== 'frozen_segment')).toEqual([]);
  });

  it('passes the fixed composition, where the title floats', async () => {
    const result = await reviewFixture('frozen_segment', 'clean');
    expect(result.drafts).toEqual([]);
  });

  it('leaves scenes marked hold: true alone', async () => {
    const { model } = await loadFixture('frozen_segment', 'trigger');
    const held = { ...model, scenes: model.scenes.map((scene) => ({ ...scene, hold: true })) };
    const video = resolveTimeline(held);
    expect(findStillStretches(video, indexElements(video))).toEqual([]);
  });

  it('drafts nothing when the drawn frames differ after all', async () => {
    const { model } = await loadFixture('frozen_segment', 'trigger');
    const video = resolveTimeline(model);
    const index = indexElements(video);
    expect(findStillStretches(video, index)).toHaveLength(1);
    const drawn: number[] = [];
    const hashes = (frame: number) => {
      drawn.push(frame);
      return Promise.resolve(frame < 100 ? 'a' : 'b');
    };
    expect(await checkFrozenSegments(video, index, hashes)).toEqual([]);
    expect(drawn).toEqual([27, 88, 149]);
  });
});
