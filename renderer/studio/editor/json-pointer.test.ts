import { describe, expect, it } from 'vitest';
import { sourceRangeOfPointer } from './json-pointer.ts';

const SPEC = `{
  "title": "A/B \\"quoted\\"",
  "scenes": [
    { "id": "one", "elements": [] },
    {
      "id": "two",
      "elements": [
        { "type": "text", "text": "Hi" },
        { "type": "rect", "a/b": 1.5e2 }
      ]
    }
  ]
}`;

describe('sourceRangeOfPointer', () => {
  it('finds the value a pointer names, by keys and indexes', () => {
    expect(sourceRangeOfPointer(SPEC, '/scenes/1/elements/0')).toEqual({
      startLineNumber: 8,
      startColumn: 9,
      endLineNumber: 8,
      endColumn: 41,
    });
    expect(sourceRangeOfPointer(SPEC, '/scenes/0/id')).toEqual({
      startLineNumber: 4,
      startColumn: 13,
      endLineNumber: 4,
      endColumn: 18,
    });
    expect(sourceRangeOfPointer(SPEC, '/title')?.startLineNumber).toBe(2);
  });

  it('spans a value over several lines, and unescapes ~1 and ~0', () => {
    const scene = sourceRangeOfPointer(SPEC, '/scenes/1');
    expect(scene).toMatchObject({ startLineNumber: 5, startColumn: 5, endLineNumber: 11, endColumn: 6 });
    expect(sourceRangeOfPointer(SPEC, '/scenes/1/elements/1/a~1b')).toMatchObject({
      startLineNumber: 9,
      endLineNumber: 9,
    });
  });

  it('answers undefined for what is not there or not JSON', () => {
    expect(sourceRangeOfPointer(SPEC, '/scenes/7')).toBeUndefined();
    expect(sourceRangeOfPointer(SPEC, '/nope')).toBeUndefined();
    expect(sourceRangeOfPointer(SPEC, 'scenes')).toBeUndefined();
    expect(sourceRangeOfPointer('{ "a": [1, }', '/a/0')).toBeUndefined();
    expect(sourceRangeOfPointer(SPEC, '')?.startLineNumber).toBe(1);
  });
});
