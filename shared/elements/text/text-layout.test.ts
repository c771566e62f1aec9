import { describe, expect, it } from 'vitest';
import { breakLines, ELLIPSIS, layoutText, placeLines } from './text-layout.ts';
import { countWords, graphemes } from '../../spec/text-units.ts';
import type { MeasureRun } from './text-layout.ts';

// A fixed-pitch font: every character advances 10px, plus the letter spacing after each one.
const pitch =
  (spacing = 0): MeasureRun =>
  (text) =>
    graphemes(text).length * (10 + spacing);

const base = { align: 'left' as const, lineHeight: 20, measure: pitch() };

function lineTexts(text: string, maxWidth: number, extra: Partial<Parameters<typeof layoutText>[0]> = {}) {
  return layoutText({ ...base, text, maxWidth, ...extra }).lines.map((line) => line.text);
}

describe('layoutText line breaking', () => {
  it('wraps at spaces so that each line fits the width', () => {
    // "aaa bbb" is 70px; "aaa bbb ccc" would be 110px.
    expect(lineTexts('aaa bbb ccc dd', 70)).toEqual(['aaa bbb', 'ccc dd']);
    const layout = layoutText({ ...base, text: 'aaa bbb ccc dd', maxWidth: 70 });
    expect(layout.width).toBe(70);
    expect(layout.height).toBe(40);
    expect(layout.overflow).toBe(false);
  });

  it('keeps everything on one line when it fits exactly', () => {
    expect(lineTexts('aaa bbb', 70)).toEqual(['aaa bbb']);
  });

  it('honours explicit line breaks, including blank lines, and collapses runs of spaces', () => {
    expect(lineTexts('one  two\n\nthree\r\nfour', 1000)).toEqual(['one two', '', 'three', 'four']);
  });

  it('breaks a word longer than the line between characters and says so', () => {
    const layout = layoutText({ ...base, text: 'go abcdefghijkl', maxWidth: 50 });
    expect(layout.lines.map((line) => line.text)).toEqual(['go', 'abcde', 'fghij', 'kl']);
    expect(layout.brokenWords).toBe(true);
    // The pieces of one word keep that word's index.
    expect(layout.lines.slice(1).map((line) => line.words[0]!.index)).toEqual([1, 1, 1]);
  });

  it('never splits an emoji or accented character when breaking by characters', () => {
    const family = '👨‍👩‍👧';
    const layout = layoutText({ ...base, text: `${family}${family}${family}e\u0301`, maxWidth: 20 });
    expect(layout.lines.map((line) => line.text)).toEqual([`${family}${family}`, `${family}e\u0301`]);
  });

  it('cuts to maxLines and ends the last line with an ellipsis that fits', () => {
    const layout = layoutText({ ...base, text: 'aaa bbb ccc ddd eee fff', maxWidth: 70, maxLines: 2 });
    expect(layout.lines.map((line) => line.text)).toEqual(['aaa bbb', `ccc dd${ELLIPSIS}`]);
    expect(layout.lines[1]!.width).toBeLessThanOrEqual(70);
    expect(layout.truncated).toBe(true);
    expect(layout.overflow).toBe(true);
  });

  it('does not truncate when the text has exactly maxLines lines', () => {
    const layout = layoutText({ ...base, text: 'aaa bbb ccc', maxWidth: 70, maxLines: 2 });
    expect(layout.truncated).toBe(false);
    expect(layout.lines.at(-1)!.text).toBe('ccc');
  });

  it('reports overflow when the lines are taller than the box', () => {
    expect(layoutText({ ...base, text: 'a\nb\nc', maxWidth: 100, maxHeight: 60 }).overflow).toBe(false);
    expect(layoutText({ ...base, text: 'a\nb\nc', maxWidth: 100, maxHeight: 59 }).overflow).toBe(true);
  });
});

describe('layoutText placement', () => {
  it('aligns lines left, centre and right within the box', () => {
    const place = (align: 'left' | 'center' | 'right') =>
      layoutText({ ...base, align, text: 'aaaa\nbb', maxWidth: 100 }).lines.map((line) => line.x);
    expect(place('left')).toEqual([0, 0]);
    expect(place('center')).toEqual([30, 40]);
    expect(place('right')).toEqual([60, 80]);
  });

  it('places words at the advance of the text before them, numbered across lines', () => {
    const layout = layoutText({ ...base, text: 'ab cde\nf', maxWidth: 100 });
    expect(layout.lines[0]!.words).toEqual([
      { text: 'ab', index: 0, x: 0, width: 20 },
      { text: 'cde', index: 1, x: 30, width: 30 },
    ]);
    expect(layout.lines[1]!.words).toEqual([{ text: 'f', index: 2, x: 0, width: 10 }]);
    expect(layout.lines[1]!.y).toBe(20);
  });

  it('trims the letter spacing after the last character so alignment is optical', () => {
    const layout = layoutText({
      ...base,
      measure: pitch(4),
      letterSpacing: 4,
      align: 'right',
      text: 'abc',
      maxWidth: 100,
    });
    // Three 14px advances, less the spacing after "c".
    expect(layout.lines[0]!.width).toBe(38);
    expect(layout.lines[0]!.x).toBe(62);
  });

  it('keeps line breaks when the text is placed with a larger measure (keyframed size)', () => {
    const breaks = breakLines({ text: 'aaa bbb ccc', maxWidth: 70, measure: pitch() });
    const grown = placeLines(breaks, {
      ...base,
      measure: (text) => 2 * text.length * 10,
      width: 70,
      align: 'center',
    });
    expect(grown.lines.map((line) => line.text)).toEqual(['aaa bbb', 'ccc']);
    // Grown lines spread out from the centre of the box.
    expect(grown.lines[0]!.x).toBe(-35);
    expect(grown.overflow).toBe(true);
  });
});

describe('countWords', () => {
  it('counts words as the layout numbers them', () => {
    expect(countWords('  Hello   big\nworld\t!  ')).toBe(4);
    const layout = layoutText({ ...base, text: '  Hello   big\nworld\t!  ', maxWidth: 1000 });
    expect(layout.lines.flatMap((line) => line.words.map((word) => word.index))).toEqual([0, 1, 2, 3]);
  });
});
