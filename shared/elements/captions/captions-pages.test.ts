import { describe, expect, it } from 'vitest';
import type { CaptionsElement } from '../../spec/captions-element.ts';
import { CaptionsElementSchema } from '../../spec/captions-element.ts';
import { captionClock, captionCues, captionPages, pageAt } from './captions-pages.ts';

// Every character 10 px wide, no letter spacing, no case change.
const paging = (maxWidth: number, maxLines: number) => ({
  maxWidth,
  maxLines,
  measure: (text: string) => Array.from(text).length * 10,
  letterSpacing: 0,
  display: (text: string) => text,
});
const noFiles = () => undefined;

const srt = `1
00:00:01,000 --> 00:00:05,000
one two three four five six seven eight

2
00:00:06,000 --> 00:00:07,000
nine ten
`;

describe('captionPages', () => {
  it('splits a cue longer than its lines into pages timed by their words', () => {
    const element: CaptionsElement = { type: 'captions', srt, maxLines: 1 };
    // 150 px: "one two three" (130) fits, "four" does not.
    const pages = captionPages(element, captionCues(element, noFiles), paging(150, 1));
    expect(pages.map((page) => page.text)).toEqual([
      'one two three',
      'four five six',
      'seven eight',
      'nine ten',
    ]);
    expect(pages[0]!.start).toBe(1);
    expect(pages[0]!.end).toBe(pages[1]!.start);
    expect(pages[2]!.end).toBe(5);
    expect(pages[3]).toMatchObject({ cue: 2, line: 6, start: 6, end: 7 });
  });

  it('keeps the cue whole when its lines fit, line breaks as laid out', () => {
    const element: CaptionsElement = { type: 'captions', srt };
    const pages = captionPages(element, captionCues(element, noFiles), paging(200, 2));
    expect(pages[0]!.text).toBe('one two three four\nfive six seven eight');
  });

  it('pop: a few words a page, closed at sentence ends and pauses, held a moment after', () => {
    const element: CaptionsElement = {
      type: 'captions',
      style: 'pop',
      maxWords: 2,
      words: [
        { text: 'We', start: 0, end: 0.2 },
        { text: 'shipped', start: 0.2, end: 0.6 },
        { text: 'it.', start: 0.6, end: 0.9 },
        { word: 'Done', start: 3, end: 3.4 },
      ],
    };
    const pages = captionPages(element, captionCues(element, noFiles), paging(1000, 1));
    expect(pages.map((page) => [page.text, page.start, page.end])).toEqual([
      ['We shipped', 0, 0.6],
      ['it.', 0.6, 1.3],
      ['Done', 3, 3.8],
    ]);
  });
});

describe('timing', () => {
  const element: CaptionsElement = { type: 'captions', srt, maxLines: 1 };
  const pages = captionPages(element, captionCues(element, noFiles), paging(150, 1));

  it('shows the page whose words are being spoken, frame by frame, and nothing between cues', () => {
    const at = (frame: number) => pageAt(pages, captionClock(element, frame / 30, 30))?.text;
    expect(at(0)).toBeUndefined();
    expect(at(30)).toBe('one two three');
    expect(at(179)).toBeUndefined();
    expect(at(180)).toBe('nine ten');
    expect(at(210)).toBeUndefined();
  });

  it('shifts by offset and runs faster with speed', () => {
    const shifted: CaptionsElement = { ...element, offset: '-1s', speed: 2 };
    // Element second 0.5: (0.5 + 1) × 2 = 3 s on the captions' clock.
    expect(captionClock(shifted, 0.5, 30)).toBe(3);
    expect(pageAt(pages, captionClock(shifted, 0.5, 30))?.cue).toBe(1);
  });
});

describe('the captions schema', () => {
  it('reports an SRT fault at the srt field with its cue and line', () => {
    const result = CaptionsElementSchema.safeParse({
      type: 'captions',
      srt: '1\n00:00:05,000 --> 00:00:02,000\nX\n',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
      [['srt'], 'SRT cue 1 (line 2): end timestamp is not greater than start timestamp'],
    ]);
  });

  it('wants exactly one source, and words in time order', () => {
    expect(CaptionsElementSchema.safeParse({ type: 'captions' }).error?.issues[0]?.message).toBe(
      'give the captions as "srt", "vtt" or "words"',
    );
    const both = CaptionsElementSchema.safeParse({ type: 'captions', srt: 'a.srt', vtt: 'b.vtt' });
    expect(both.error?.issues[0]?.path).toEqual(['vtt']);
    const order = CaptionsElementSchema.safeParse({
      type: 'captions',
      words: [
        { text: 'b', start: 1, end: 2 },
        { text: 'a', start: 0.5, end: 0.8 },
      ],
    });
    expect(order.error?.issues[0]?.path).toEqual(['words', 1, 'start']);
  });

  it('takes a file path, and a transcript with the fields a transcriber adds', () => {
    expect(CaptionsElementSchema.safeParse({ type: 'captions', vtt: 'asset:talk.vtt' }).success).toBe(true);
    expect(
      CaptionsElementSchema.safeParse({
        type: 'captions',
        words: [{ word: ' Hi', start: 0, end: 0.3, probability: 0.9, speaker: 'A' }],
      }).success,
    ).toBe(true);
  });
});
