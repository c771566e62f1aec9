import { describe, expect, it } from 'vitest';
import type { CodeElement } from '../../spec/code-element.ts';
import { codeFrameAt, codeVersions, lineSet, matchLines, morphFrame, stepStarts } from './code-steps.ts';

const BEFORE = [
  'function total(items) {',
  '  let sum = 0;',
  '  for (const i of items) sum += i;',
  '  return sum;',
  '}',
];
const AFTER = ['function total(items) {', '  return items.reduce((a, b) => a + b, 0);', '}'];

function element(fields: Partial<CodeElement> = {}): CodeElement {
  return {
    type: 'code',
    code: BEFORE.join('\n'),
    steps: [{ code: AFTER.join('\n'), highlight: [2] }],
    ...fields,
  } as CodeElement;
}

describe('lineSet', () => {
  it('reads numbers and ranges from 1 as indices from 0', () => {
    expect([...lineSet([3, '5-7'])].sort()).toEqual([2, 4, 5, 6]);
  });
});

describe('matchLines', () => {
  it('keeps the lines both versions share, in order', () => {
    expect(matchLines(BEFORE, AFTER)).toEqual([
      [0, 0],
      [4, 2],
    ]);
  });

  it('ignores trailing spaces and indentation when matching', () => {
    expect(matchLines(['a  ', 'b'], ['x', 'a', 'b'])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(matchLines(['a', '  b'], ['  a', '    b'])).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });
});

describe('morphFrame', () => {
  const versions = codeVersions(element());
  const find = (progress: number, version: number, line: number) =>
    morphFrame(versions, 0, progress).lines.find((l) => l.version === version && l.line === line);

  it('shows the first version at progress 0 and the second at 1', () => {
    expect(morphFrame(versions, 0, 0).lines.map((l) => [l.line, l.row])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
    const end = morphFrame(versions, 0, 1);
    expect(end.lines.map((l) => [l.version, l.line, l.row, l.alpha])).toEqual([
      [1, 0, 0, 1],
      [1, 1, 1, 1],
      [1, 2, 2, 1],
    ]);
    expect(end.lines[1]!.highlight).toBe(1);
    expect(end.rows).toBe(3);
  });

  it('slides kept lines, and fades removed lines out in place while added lines fade in where they land', () => {
    // The closing brace moves from row 4 to row 2: halfway through, it is at row 3.
    expect(find(0.5, 1, 2)).toMatchObject({ row: 3, alpha: 1 });
    // The first line stays on row 0 all along.
    expect(find(0.5, 1, 0)).toMatchObject({ row: 0, alpha: 1 });
    // What leaves and what arrives overlap: half of each halfway through, never a gap between them.
    expect(find(0.5, 0, 1)).toMatchObject({ row: 1, alpha: 0.5 });
    expect(find(0.5, 1, 1)).toMatchObject({ row: 1, alpha: 0.5 });
    for (const progress of [0.1, 0.3, 0.45, 0.6, 0.8, 0.95]) {
      const leaving = find(progress, 0, 2)?.alpha ?? 0;
      const arriving = find(progress, 1, 1)?.alpha ?? 0;
      expect(leaving + arriving).toBeCloseTo(1, 9);
    }
    expect(find(0.2, 0, 2)!.alpha).toBeLessThan(1);
    expect(find(0.2, 0, 2)!.row).toBe(2);
    expect(morphFrame(versions, 0, 0.5).rows).toBe(4);
    expect(morphFrame(versions, 0, 0.5).morph).toEqual({ from: 0, move: 0.5, fade: 0.5 });
    expect(morphFrame(versions, 0, 1).morph).toBeUndefined();
  });

  it('slides a re-indented line instead of fading it out and in', () => {
    const wrapped = codeVersions(
      element({ code: 'run();\nstop();', steps: [{ code: 'try {\n  run();\n} finally {\n  stop();\n}' }] }),
    );
    const frame = morphFrame(wrapped, 0, 0.5);
    expect(frame.lines.filter((l) => l.alpha === 1).map((l) => [l.line, l.row])).toEqual([
      [1, 0.5],
      [3, 2],
    ]);
  });
});

describe('codeFrameAt', () => {
  it('spreads steps evenly over the element and holds each version after its morph', () => {
    const code = element();
    expect(stepStarts(code, 6, 30)).toEqual([3]);
    const versions = codeVersions(code);
    expect(codeFrameAt(code, versions, 2.9, 6, 30).version).toBe(0);
    expect(codeFrameAt(code, versions, 3.2, 6, 30).lines.some((l) => l.version === 0)).toBe(true);
    const settled = codeFrameAt(code, versions, 3.8, 6, 30);
    expect(settled.version).toBe(1);
    expect(settled.lines.every((l) => l.alpha === 1 && l.version === 1)).toBe(true);
  });

  it('dims every line but the focused ones', () => {
    const code = element({ focus: [2], steps: undefined });
    const frame = codeFrameAt(code, codeVersions(code), 0, 4, 30);
    expect(frame.lines.map((l) => l.dim)).toEqual([1, 0, 1, 1, 1]);
  });
});
