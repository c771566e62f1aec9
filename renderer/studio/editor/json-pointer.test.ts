import { describe, expect, it } from 'vitest';
import { pointerSteps, sourceRangeOfPointer } from './json-pointer.ts';

const SPEC = `{
  "kinoSpec": 1,
  "title": "Quote",
  "scenes": [
    {
      "duration": "6s",
      "elements": [
        { "type": "text", "text": "a" },
        { "type": "text", "text": "b\\"/c" },
        {
          "type": "rect",
          "size": -5,
          "a/b": true
        }
      ]
    }
  ]
}`;

/** The text a range covers (one line). */
function covered(text: string, pointer: string): string | undefined {
  const range = sourceRangeOfPointer(text, pointer);
  if (!range) return undefined;
  const line = text.split('\n')[range.startLineNumber - 1]!;
  return `${range.startLineNumber}:${line.slice(range.startColumn - 1, range.endLineNumber === range.startLineNumber ? range.endColumn - 1 : undefined)}`;
}

describe('sourceRangeOfPointer', () => {
  it('finds a scalar value at its line', () => {
    expect(covered(SPEC, '/scenes/0/elements/2/size')).toBe('12:-5');
    expect(covered(SPEC, '/title')).toBe('3:"Quote"');
    expect(covered(SPEC, '/scenes/0/elements/1/text')).toBe('9:"b\\"/c"');
  });

  it('marks an object or array at its key, or at its bracket in an array', () => {
    expect(covered(SPEC, '/scenes/0/elements')).toBe('7:"elements"');
    expect(covered(SPEC, '/scenes/0/elements/2')).toBe('10:{');
    expect(covered(SPEC, '/scenes/0/elements/0')).toBe('8:{');
  });

  it('unescapes ~1 and ~0 in the steps', () => {
    expect(pointerSteps('/a~1b/~0x')).toEqual(['a/b', '~x']);
    expect(covered(SPEC, '/scenes/0/elements/2/a~1b')).toBe('13:true');
  });

  it('lands on the nearest written ancestor for what is not written', () => {
    expect(covered(SPEC, '/scenes/0/elements/2/width')).toBe('10:{');
    expect(covered(SPEC, '/scenes/0/background')).toBe('5:{');
    expect(covered(SPEC, '/scenes/4')).toBe('4:"scenes"');
    expect(covered(SPEC, '')).toBe('1:{');
  });

  it('does not follow a sibling with the same name elsewhere', () => {
    const text = '{"a": {"x": 1}, "b": {"x": 2}}';
    expect(sourceRangeOfPointer(text, '/b/x')).toEqual({
      startLineNumber: 1,
      startColumn: 28,
      endLineNumber: 1,
      endColumn: 29,
    });
  });

  it('keeps going over broken text and gives nothing for an empty one', () => {
    expect(covered('{\n  "a": 1,\n  oops\n  "b": 2\n}', '/b')).toBe('4:2');
    expect(sourceRangeOfPointer('   ', '/a')).toBeUndefined();
  });
});

describe('sourceRangeOfPointer, exact', () => {
  it('finds only the thing itself: no parent stands in for a missing one', () => {
    const text = '{\n  "scenes": [\n    { "duration": 2 }\n  ]\n}\n';
    expect(sourceRangeOfPointer(text, '/scenes/0', { exact: true })?.startLineNumber).toBe(3);
    expect(sourceRangeOfPointer(text, '/scenes/4', { exact: true })).toBeUndefined();
    expect(sourceRangeOfPointer(text, '/scenes/4')?.startLineNumber).toBe(2);
  });
});
