import { describe, expect, it } from 'vitest';
import { captions, group, scene, slideIn, video } from '../../../shared/builder/index.ts';
import type { FindingDraft } from '../finding.ts';
import { draftsWithCode, expectWellFormed, reviewFixture } from '../visual/review.fixture.ts';
import { runCaptionCheck, srt } from './caption.fixture.ts';
import { checkCaptionOffscreen } from './caption-offscreen.ts';

const tide = srt([0.5, 2, 'Every morning the tide comes back']);
const reel = (elements: Parameters<typeof scene>[1], duration = '3s') =>
  video({ fps: 30, aspect: 'reels' }, [scene({ duration }, elements)]);
const summary = (drafts: FindingDraft[]) =>
  drafts.map((draft) => [draft.severity, draft.startFrame, draft.endFrame, draft.focusFrame]);

describe('caption_offscreen', () => {
  it('flags the captions laid out on the full frame, and the cue timed after the scene', async () => {
    const result = await reviewFixture('caption_offscreen', 'trigger');
    const found = draftsWithCode(result, 'caption_offscreen');
    expect(found.map((draft) => [draft.element, draft.severity])).toEqual([
      ['s0/e1', 'error'],
      ['s0/e1', 'warning'],
    ]);
    for (const draft of found) expectWellFormed(result, draft);
    const [never, lines] = found as [FindingDraft, FindingDraft];
    expect(never).toMatchObject({ startFrame: 0, endFrame: 90, focusFrame: 89 });
    expect(never.message).toBe(
      'captions (id "subtitles", s0/e1) lasts from 0 s to 3 s, but one of its cues falls outside that and never ' +
        'shows: cue 2 (line 6) "and the beach starts over." starts at 3 s',
    );
    expect(never.remedy).toBe(
      'make its scene ("scene-1") at least 1.4s longer (the captions last until the scene ends), or remove cue 2',
    );
    expect(lines).toMatchObject({ startFrame: 9, endFrame: 60, focusFrame: 9 });
    expect(lines.message).toMatch(
      /^captions \(id "subtitles", s0\/e1\): cue 1 \(line 2\) "Every morning the tide comes back" reaches \d+ px past the bottom of the safe area at 0\.3 s/,
    );
    // The safe area of a 1920×1080 frame ends 10 % above its bottom (108 px); the box's padding is inside it.
    const pixels = Number(/reaches (\d+) px/.exec(lines.message)![1]);
    expect(pixels).toBeGreaterThan(60);
    expect(pixels).toBeLessThanOrEqual(108);
    expect(lines.remedy).toMatch(/^lay it out in the safe area: leave out box: 'frame'/);
    expect(result.drafts.filter((d) => d.code !== 'caption_offscreen')).toEqual([]);
  });

  it('passes the fixed composition: in the safe area, the scene long enough for both cues', async () => {
    const result = await reviewFixture('caption_offscreen', 'clean');
    expect(result.drafts).toEqual([]);
  });

  it('says nothing for captions in the safe area whose cues fall inside their life', () => {
    for (const position of ['bottom', 'center', 'top'] as const)
      expect(runCaptionCheck(checkCaptionOffscreen, reel([captions({ srt: tide, position })]))).toEqual([]);
  });

  it('flags lines pushed past the frame as an error, with the edge and how far', () => {
    const drafts = runCaptionCheck(checkCaptionOffscreen, reel([captions({ srt: tide, y: 0.9 })]));
    expect(summary(drafts)).toEqual([['error', 15, 60, 15]]);
    expect(drafts[0]!.message).toMatch(
      /runs \d+ px past the bottom edge of the frame at 0\.5 s, so part of it is cut off$/,
    );
    expect(drafts[0]!.remedy).toMatch(/^move it \d+ px or more up \(lower y\), or lower size or maxLines$/);
  });

  it('judges a grouped caption at rest, not while its group slides in from off the frame', () => {
    const sliding = group({ width: '100%', height: '100%' }, [
      captions({ srt: srt([0, 2, 'Hello there']) }),
    ]).animate(slideIn({ direction: 'right', distance: '100%', duration: '0.5s' }));
    expect(runCaptionCheck(checkCaptionOffscreen, reel([sliding]))).toEqual([]);
    const away = group({ x: 1.2, width: '100%', height: '100%' }, [
      captions({ srt: srt([0, 2, 'Hello there']) }),
    ]);
    const drafts = runCaptionCheck(checkCaptionOffscreen, reel([away]));
    expect(drafts.map((draft) => [draft.element, draft.severity])).toEqual([['s0/e0/e0', 'error']]);
    expect(drafts[0]!.remedy).toMatch(
      /^move it \(or its group\) \d+ px or more left \(lower x\), or narrow it/,
    );
  });

  it("names every cue outside the element's life and why it never shows", () => {
    const cues = srt([0, 1, 'Early'], [1, 1.01, 'Blink'], [2, 2.5, 'On time'], [4, 5, 'Late']);
    const drafts = runCaptionCheck(
      checkCaptionOffscreen,
      reel([captions({ srt: cues, start: '1.5s', offset: '0.5s' })]),
    );
    expect(drafts).toHaveLength(1);
    // The element lasts 1.5–3 s; with the offset its cues run 2–3 s, 3–3.01 s, 4–4.5 s and 6–7 s.
    expect(drafts[0]!.message).toBe(
      'captions (s0/e0) lasts from 1.5 s to 3 s, but 3 of its cues fall outside that and never show: ' +
        'cue 2 (line 6) "Blink" starts at 3 s; cue 3 (line 10) "On time" starts at 4 s; cue 4 (line 14) "Late" starts at 6 s',
    );
    expect(drafts[0]!.remedy).toBe(
      'make its scene ("scene-1") at least 4s longer (the captions last until the scene ends), ' +
        'or lower offset (it is "0.5s"), or remove cues 2, 3, 4',
    );
  });

  it('names a cue shorter than a frame, and one moved before the element starts', () => {
    // 0.51–0.52 s falls between frames 15 (0.5 s) and 16 (0.533 s).
    const cues = srt([0.51, 0.52, 'Blink'], [1.5, 2.5, 'Fine']);
    const brief = runCaptionCheck(checkCaptionOffscreen, reel([captions({ srt: cues })]));
    expect(brief[0]!.message).toMatch(/cue 1 \(line 2\) "Blink" lasts 10 ms, less than a frame$/);
    expect(brief[0]!.remedy).toBe('make cue 1 last at least one frame (0.03 s) or join it to its neighbour');
    const early = runCaptionCheck(checkCaptionOffscreen, reel([captions({ srt: cues, offset: '-1s' })]));
    expect(early[0]!.message).toMatch(/cue 1 \(line 2\) "Blink" ends at -0\.48 s$/);
    expect(early[0]!.remedy).toBe(
      'raise offset by at least 0.5s (to "-0.5s"), or start the captions earlier',
    );
  });

  it('flags a cue cut by the end by 0.1 s or more, with what is lost', () => {
    const cut = (end: number) =>
      runCaptionCheck(
        checkCaptionOffscreen,
        reel([captions({ srt: srt([1, 2, 'Fine'], [2.2, end, 'Cut short']) })]),
      );
    expect(cut(3.05)).toEqual([]);
    const drafts = cut(3.5);
    expect(summary(drafts)).toEqual([['warning', 66, 90, 89]]);
    expect(drafts[0]!.message).toBe(
      'captions (s0/e0): cue 2 (line 6) "Cut short" runs 0.5 s past the captions\' end at 3 s, so it is cut: ' +
        'it shows for 0.8 s of its 1.3 s',
    );
    expect(drafts[0]!.remedy).toBe(
      'make its scene ("scene-1") at least 0.5s longer (the captions last until the scene ends), or end cue 2 by 3 s',
    );
  });

  it("flags a cue cut by the element's start", () => {
    const drafts = runCaptionCheck(
      checkCaptionOffscreen,
      reel([captions({ srt: srt([0, 1.5, 'Opening line']), offset: '-0.5s' })]),
    );
    expect(summary(drafts)).toEqual([['warning', 0, 30, 0]]);
    expect(drafts[0]!.message).toMatch(/starts 0\.5 s before the captions do at 0 s, so its start is cut/);
    expect(drafts[0]!.remedy).toBe('raise offset by at least 0.5s (to "0s"), or start the captions earlier');
  });
});
