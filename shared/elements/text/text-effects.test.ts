import { describe, expect, it } from 'vitest';
import { markerRects, spanRanges, sweptRects, typedWords } from './text-effects.ts';
import type { WordPlacement } from './text-effects.ts';

// Every character 10 px wide: positions are easy to read.
const measure = (text: string) => Array.from(text).length * 10;

function placements(lines: string[][]): WordPlacement[] {
  let index = 0;
  return lines.flatMap((words, line) => {
    let x = 0;
    return words.map((text) => {
      const placed = {
        word: { text, index: index++, x, width: measure(text) },
        x,
        baseline: 100 + line * 50,
        progress: 1,
      };
      x += measure(`${text} `);
      return placed;
    });
  });
}

describe('typedWords', () => {
  const words = placements([['Hello', 'big'], ['world']]);

  it('keeps whole words, then the typed part of the next, in place, with the cursor after it', () => {
    const typed = typedWords(
      words,
      { fraction: 7 / 13, by: 'character', cursor: { color: undefined, visible: true } },
      measure,
    );
    expect(typed.words.map((w) => [w.word.text, w.x, w.baseline])).toEqual([
      ['Hello', 0, 100],
      ['bi', 60, 100],
    ]);
    expect(typed.cursor).toEqual({ x: 80, baseline: 100, color: undefined });
  });

  it('types by word, and puts the cursor before the first word when none is typed', () => {
    expect(
      typedWords(words, { fraction: 0.7, by: 'word', cursor: undefined }, measure).words.map(
        (w) => w.word.text,
      ),
    ).toEqual(['Hello', 'big']);
    const none = typedWords(
      words,
      { fraction: 0, by: 'character', cursor: { color: '#f00', visible: true } },
      measure,
    );
    expect(none.words).toEqual([]);
    expect(none.cursor).toEqual({ x: 0, baseline: 100, color: '#f00' });
  });

  it('hides a blinking cursor in its off phase', () => {
    expect(
      typedWords(
        words,
        { fraction: 1, by: 'character', cursor: { color: undefined, visible: false } },
        measure,
      ).cursor,
    ).toBe(undefined);
  });
});

describe('markers', () => {
  const text = 'Everything 40% off until Sunday';
  const words = placements([
    ['Everything', '40%', 'off'],
    ['until', 'Sunday'],
  ]);
  const band = (baseline: number) => ({ top: baseline - 20, height: 25 });

  it('finds words by index and phrases by match, parts of words included', () => {
    expect(spanRanges(text, { words: [1, 2] })).toEqual([
      { index: 1, from: 0, to: 3 },
      { index: 2, from: 0, to: 3 },
    ]);
    expect(spanRanges(text, { match: 'thing 40' })).toEqual([
      { index: 0, from: 5, to: 10 },
      { index: 1, from: 0, to: 2 },
    ]);
    expect(spanRanges('a b a', { match: 'a' }).map((range) => range.index)).toEqual([0, 2]);
  });

  it('joins the words of a phrase on a line into one rectangle, one per line', () => {
    const rects = markerRects(words, spanRanges(text, { match: '40% off until' }), measure, band, 2);
    expect(rects).toEqual([
      { x: 108, y: 80, width: 74, height: 25, words: [1, 2] },
      { x: -2, y: 130, width: 54, height: 25, words: [3] },
    ]);
  });

  it('sweeps across the rectangles in reading order', () => {
    const rects = markerRects(words, spanRanges(text, { match: '40% off until' }), measure, band, 0);
    expect(sweptRects(rects, 0).length).toBe(0);
    expect(sweptRects(rects, 0.5).map((rect) => rect.width)).toEqual([60]);
    expect(sweptRects(rects, 1).map((rect) => rect.width)).toEqual([70, 50]);
  });
});
