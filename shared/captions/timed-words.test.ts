import { describe, expect, it } from 'vitest';
import { groupWords, timeCueWords } from './timed-words.ts';

describe('timeCueWords', () => {
  it('spreads the cue over its words by length, first word at the start and last ending at the end', () => {
    const cue = timeCueWords({ number: 1, line: 2, start: 1, end: 3, text: 'a bbb\ncc' });
    // weights 2, 4, 3 of 9: 2 s × 2/9, × 4/9, × 3/9
    expect(cue.words.map((word) => word.text)).toEqual(['a', 'bbb', 'cc']);
    expect(cue.words[0]!.start).toBe(1);
    expect(cue.words[0]!.end).toBeCloseTo(1 + 4 / 9, 9);
    expect(cue.words[1]!.end).toBeCloseTo(1 + 12 / 9, 9);
    expect(cue.words[2]!.end).toBe(3);
  });
});

describe('groupWords', () => {
  const word = (text: string, start: number, end: number) => ({ text, start, end });

  it('closes a cue at a sentence end and at a pause', () => {
    const cues = groupWords([
      word('Hello', 0, 0.4),
      word('there.', 0.4, 0.8),
      word('How', 0.9, 1.1),
      word('are', 1.1, 1.3),
      word('you', 2.5, 2.8),
    ]);
    expect(cues.map((cue) => [cue.number, cue.text, cue.start, cue.end])).toEqual([
      [1, 'Hello there.', 0, 0.8],
      [2, 'How are', 0.9, 1.3],
      [3, 'you', 2.5, 2.8],
    ]);
  });

  it('keeps a cue to a readable length', () => {
    const words = Array.from({ length: 30 }, (_, i) => word(`w${i}`, i * 0.2, i * 0.2 + 0.2));
    expect(groupWords(words).map((cue) => cue.words.length)).toEqual([14, 14, 2]);
  });
});
