import { describe, expect, it } from 'vitest';
import { captions, scene, video } from '../../../shared/builder/index.ts';
import { draftsWithCode, expectWellFormed, reviewFixture } from '../visual/review.fixture.ts';
import { runCaptionCheck, srt } from './caption.fixture.ts';
import { checkCaptionTooFast, readingCharacters } from './caption-too-fast.ts';

// 34 characters: 17 a second over 2 s.
const steady = srt([0, 2, 'Every morning the tide comes back.']);
const reel = (props: Parameters<typeof captions>[0], duration = '4s') =>
  video({ fps: 30, aspect: 'reels' }, [scene({ duration }, [captions(props)])]);
const perSecond = (drafts: ReturnType<typeof runCaptionCheck>) =>
  drafts.map((draft) => Number(/, ([\d.]+) a second, faster/.exec(draft.message)![1]));

describe('caption_too_fast', () => {
  it('counts characters as read: a line break or a run of spaces is one', () => {
    expect(readingCharacters('Every  morning\nthe tide ')).toBe(22);
    expect(readingCharacters('Café 🌊')).toBe(6);
  });

  it('flags the 49-character cue shown for one second', async () => {
    const result = await reviewFixture('caption_too_fast', 'trigger');
    const found = draftsWithCode(result, 'caption_too_fast');
    expect(found).toHaveLength(1);
    const draft = found[0]!;
    expectWellFormed(result, draft);
    expect(draft).toMatchObject({ element: 's0/e1', severity: 'warning', startFrame: 9, endFrame: 39 });
    expect(draft.message).toBe(
      'captions (id "subtitles", s0/e1): cue 1 (line 2) "Tap the link below to claim your free t…" shows ' +
        '49 characters for 1 s, 49 a second, faster than the 20 a second it can be read at (maxCharsPerSecond)',
    );
    expect(draft.remedy).toBe(
      'make cue 1 at least 2.5 s long (it is 1 s), shorten it to at most 20 characters, or split it into two cues',
    );
    expect(result.drafts.filter((d) => d.code !== 'caption_too_fast')).toEqual([]);
  });

  it('passes the fixed composition, the cue 2.6 s long', async () => {
    const result = await reviewFixture('caption_too_fast', 'clean');
    expect(result.drafts).toEqual([]);
  });

  it("holds a cue to the element's maxCharsPerSecond, 20 by default", () => {
    expect(runCaptionCheck(checkCaptionTooFast, reel({ srt: steady }))).toEqual([]);
    expect(
      perSecond(runCaptionCheck(checkCaptionTooFast, reel({ srt: steady, maxCharsPerSecond: 15 }))),
    ).toEqual([17]);
  });

  it('judges the time on screen: speed 2 shows the cue for half as long', () => {
    const drafts = runCaptionCheck(checkCaptionTooFast, reel({ srt: steady, speed: 2 }));
    expect(perSecond(drafts)).toEqual([34]);
    expect(drafts[0]!.message).toContain('for 1 s at speed 2');
    // 3.4 s in the file shows for 1.7 s: 20 a second.
    expect(drafts[0]!.remedy).toMatch(
      /^make cue 1 at least 3\.4 s long \(it is 2 s; at speed 2 it shows for 1 s\)/,
    );
  });

  it('judges each page of a cue split over several, and reports the cue once', () => {
    // One line at a time: the cue's words share its 3 s by length, so each page is read at the cue's pace.
    const long = srt([0, 3, 'Every morning the tide comes back and the whole beach starts over again']);
    const drafts = runCaptionCheck(checkCaptionTooFast, reel({ srt: long, maxLines: 1 }));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.message).toMatch(/^captions \(s0\/e0\): page \d of \d of cue 1 /);
    expect(perSecond(drafts)[0]).toBeGreaterThan(20);
    expect(
      runCaptionCheck(checkCaptionTooFast, reel({ srt: long, maxLines: 1, maxCharsPerSecond: 30 })),
    ).toEqual([]);
  });

  it('asks word-timed captions for fewer words, since their times are the speech', () => {
    const words = [
      { word: 'Absolutely', start: 0, end: 0.3 },
      { word: 'unbelievable', start: 0.3, end: 0.6 },
      { word: 'performance.', start: 0.6, end: 0.9 },
    ];
    const drafts = runCaptionCheck(checkCaptionTooFast, reel({ words }));
    expect(drafts).toHaveLength(1);
    expect(drafts[0]!.remedy).toMatch(
      /^shorten it to at most 18 characters \(captions need not be word for word/,
    );
    expect(drafts[0]!.remedy).not.toContain('split');
  });

  it('leaves a cue that never shows to caption_offscreen', () => {
    const late = srt(
      [0, 2, 'Every morning the tide comes back.'],
      [5, 5.5, 'Far too much text for half a second'],
    );
    expect(runCaptionCheck(checkCaptionTooFast, reel({ srt: late }))).toEqual([]);
  });
});
