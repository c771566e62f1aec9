import { describe, expect, it } from 'vitest';
import { captions, scene, video } from '../../../shared/builder/index.ts';
import { draftsWithCode, expectWellFormed, reviewFixture } from '../visual/review.fixture.ts';
import { runCaptionCheck, srt } from './caption.fixture.ts';
import { checkCaptionOverlap } from './caption-overlap.ts';

const first = srt([0, 1, 'One'], [2, 3, 'Three']);
const second = srt([1, 2, 'Two']);
const frames = (drafts: ReturnType<typeof runCaptionCheck>) =>
  drafts.map((draft) => [draft.element, draft.startFrame, draft.endFrame]);

describe('caption_overlap', () => {
  it('flags the Spanish cue coming in while the first English one is up, over the frames they share', async () => {
    const result = await reviewFixture('caption_overlap', 'trigger');
    const found = draftsWithCode(result, 'caption_overlap');
    expect(found).toHaveLength(1);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    expect(draft).toMatchObject({
      element: 's0/e2',
      severity: 'warning',
      startFrame: 30,
      endFrame: 42,
      focusFrame: 30,
    });
    expect(draft.message).toBe(
      'cue 1 (line 2) "We ship every week." of captions (id "english", s0/e1) and cue 1 (line 2) "Cada semana." of ' +
        'captions (id "spanish", s0/e2) are on screen together for 0.4 s, from 1 s to 1.4 s',
    );
    expect(draft.remedy).toMatch(
      /^let them take turns: end cue 1 of the first 0\.4 s earlier, or start cue 1 of the second 0\.4 s later \(offset: "0\.4s"/,
    );
    expect(result.drafts.filter((d) => d.code !== 'caption_overlap')).toEqual([]);
  });

  it('passes the fixed composition, the Spanish captions 0.4 s later', async () => {
    const result = await reviewFixture('caption_overlap', 'clean');
    expect(result.drafts).toEqual([]);
  });

  it('says nothing for captions that take turns, or for one element alone', () => {
    const model = video({ fps: 30 }, [
      scene({ duration: '4s' }, [captions({ srt: first }), captions({ srt: second, position: 'top' })]),
    ]);
    expect(runCaptionCheck(checkCaptionOverlap, model)).toEqual([]);
    const alone = video({ fps: 30 }, [scene({ duration: '4s' }, [captions({ srt: first })])]);
    expect(runCaptionCheck(checkCaptionOverlap, alone)).toEqual([]);
  });

  it("applies each element's start, offset and speed before comparing", () => {
    const shifted = (props: Parameters<typeof captions>[0]) =>
      runCaptionCheck(
        checkCaptionOverlap,
        video({ fps: 30 }, [scene({ duration: '4s' }, [captions({ srt: first }), captions(props)])]),
      );
    // 0.5 s later: "Two" runs 1.5–2.5 s, so "Three" comes in on it.
    expect(frames(shifted({ srt: second, offset: '0.5s' }))).toEqual([['s0/e0', 60, 75]]);
    // Started 0.5 s early by a negative offset: into "One".
    expect(frames(shifted({ srt: second, offset: '-0.5s' }))).toEqual([['s0/e1', 15, 30]]);
    // Twice as fast: "Two" runs 0.5–1 s, inside "One".
    expect(frames(shifted({ srt: second, speed: 2 }))).toEqual([['s0/e1', 15, 30]]);
    // Twice as fast but starting 1.1 s in: 1.6–2.1 s, under "Three".
    expect(frames(shifted({ srt: second, speed: 2, start: '1.1s' }))).toEqual([['s0/e0', 60, 63]]);
    // Cut by its own end before "Three" comes.
    expect(frames(shifted({ srt: second, offset: '0.5s', duration: '2s' }))).toEqual([]);
  });

  it('reports each stretch of frames apart, naming the one that came in second', () => {
    const model = video({ fps: 30 }, [
      scene({ duration: '4s' }, [
        captions({ id: 'a', srt: first }),
        captions({ id: 'b', srt: srt([0.5, 1.5, 'Two'], [2.5, 3.5, 'Four']) }),
      ]),
    ]);
    const drafts = runCaptionCheck(checkCaptionOverlap, model);
    expect(frames(drafts)).toEqual([
      ['s0/e1', 15, 30],
      ['s0/e1', 75, 90],
    ]);
    expect(drafts[1]!.message).toMatch(
      /^cue 2 .*"Three" of captions \(id "a", s0\/e0\) and cue 2 .*"Four" of captions \(id "b"/,
    );
  });

  it('counts captions in two scenes that share frames in a transition', () => {
    const model = video({ fps: 30 }, [
      scene({ duration: '2s' }, [captions({ srt: srt([1, 2, 'Goodbye']) })]),
      scene({ duration: '2s', transition: { type: 'crossFade', duration: '0.5s' } }, [
        captions({ srt: srt([0, 1, 'Hello']) }),
      ]),
    ]);
    expect(frames(runCaptionCheck(checkCaptionOverlap, model))).toEqual([['s1/e0', 45, 60]]);
  });
});
