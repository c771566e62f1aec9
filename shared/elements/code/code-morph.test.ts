import { describe, expect, it } from 'vitest';
import type { CodeToken } from '../../canvas/types.ts';
import { morphLinePairs, morphTokens } from './code-morph.ts';
import { matchLines } from './code-steps.ts';
import type { MorphToken } from './code-morph.ts';

/** Lines tokenised roughly as a highlighter would: words, runs of spaces, single punctuation. */
function tokens(code: string): CodeToken[][] {
  return code.split('\n').map((line) =>
    (line.match(/\w+|\s+|[^\w\s]/g) ?? []).map((text) => ({
      text,
      color: /^(const|return|try|catch)$/.test(text) ? '#ff7b72' : undefined,
      bold: false,
      italic: false,
      underline: false,
    })),
  );
}

const where = (token: MorphToken) => ({
  text: token.text,
  before: token.before && [token.before.line, token.before.column],
  after: token.after && [token.after.line, token.after.column],
});

describe('morphTokens', () => {
  it('moves every token of a re-indented line, two columns deeper and a line down', () => {
    const before = 'const a = load();\nreturn a;';
    const after = 'try {\n  const a = load();\n  return a;\n} catch {}';
    const pieces = morphTokens(tokens(before), tokens(after)).map(where);
    expect(pieces.filter((piece) => piece.before && piece.after)).toEqual([
      { text: 'const', before: [0, 0], after: [1, 2] },
      { text: 'a', before: [0, 6], after: [1, 8] },
      { text: '=', before: [0, 8], after: [1, 10] },
      { text: 'load', before: [0, 10], after: [1, 12] },
      { text: '(', before: [0, 14], after: [1, 16] },
      { text: ')', before: [0, 15], after: [1, 17] },
      { text: ';', before: [0, 16], after: [1, 18] },
      { text: 'return', before: [1, 0], after: [2, 2] },
      { text: 'a', before: [1, 7], after: [2, 9] },
      { text: ';', before: [1, 8], after: [2, 10] },
    ]);
    // Only the new code arrives; nothing leaves.
    expect(pieces.filter((piece) => !piece.before).map((piece) => piece.text)).toEqual([
      'try',
      '{',
      '}',
      'catch',
      '{',
      '}',
    ]);
    expect(pieces.filter((piece) => !piece.after)).toEqual([]);
  });

  it('keeps the unchanged tokens of a lightly edited line and swaps the edited one', () => {
    const pieces = morphTokens(tokens('sum += cart[i].price;'), tokens('sum += item.price;')).map(where);
    const moved = pieces.filter((piece) => piece.before && piece.after).map((piece) => piece.text);
    expect(moved).toEqual(expect.arrayContaining(['sum', '+', '=', '.', 'price', ';']));
    expect(pieces.filter((piece) => !piece.after).map((piece) => piece.text)).toEqual(
      expect.arrayContaining(['cart', '[', 'i', ']']),
    );
    expect(pieces.filter((piece) => !piece.before).map((piece) => piece.text)).toEqual(['item']);
  });

  it('carries each version’s look: colour and text from the tokens themselves', () => {
    const [piece] = morphTokens(tokens('return 1;'), tokens('  return 1;'));
    expect(piece!.before!.token).toMatchObject({ text: 'return', color: '#ff7b72' });
    expect(piece!.after!.token).toMatchObject({ text: 'return', color: '#ff7b72' });
  });

  it('pairs long versions line by line, so the diff never runs against its clock', () => {
    const lines = Array.from({ length: 150 }, (_, k) => `total = total + value${k};`);
    const before = lines.join('\n');
    const edited = lines.map((line) => (line.endsWith('value7;') ? line.replace('+', '-') : line));
    const after = ['{', ...edited.map((line) => `  ${line}`), '}'].join('\n');
    expect(before.length + after.length).toBeGreaterThan(4000);
    const pieces = morphTokens(tokens(before), tokens(after));
    // Re-indented lines move; the edited line is not kept, so it fades whole (a short version's
    // token diff would move all of it but the "+").
    const edit = ['total', '=', 'total', '-', 'value7', ';'];
    expect(pieces.filter((piece) => !piece.before).map((piece) => piece.text)).toEqual(['{', ...edit, '}']);
    expect(pieces.filter((piece) => !piece.after).map((piece) => piece.text)).toEqual(
      edit.map((text) => (text === '-' ? '+' : text)),
    );
    expect(where(pieces.find((piece) => piece.text === 'value149')!)).toEqual({
      text: 'value149',
      before: [149, 16],
      after: [150, 18],
    });
  });

  it('pairs no token twice and leaves out whitespace', () => {
    const pieces = morphTokens(tokens('a a a\n  b'), tokens('a\n    b b'));
    expect(pieces.every((piece) => piece.text.trim() === piece.text && piece.text !== '')).toBe(true);
    const befores = pieces
      .filter((piece) => piece.before)
      .map((piece) => JSON.stringify(where(piece).before));
    expect(new Set(befores).size).toBe(befores.length);
    expect(befores).toHaveLength(4);
    expect(pieces.filter((piece) => piece.after)).toHaveLength(3);
  });
});

describe('morphLinePairs', () => {
  const pairs = (before: string, after: string) => morphLinePairs(morphTokens(tokens(before), tokens(after)));

  it('pairs re-indented and lightly edited lines with where their text lands', () => {
    expect(pairs('const a = load();\nreturn a;', 'try {\n  const a = load();\n  return a;\n}')).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(pairs('sum += cart[i].price;', 'sum += item.price;')).toEqual([[0, 0]]);
  });

  it('does not pair lines that share less than half their text', () => {
    expect(pairs('let sum = 0;', 'print(sum);')).toEqual([]);
  });

  it('pairs a closing brace with the one its tokens move to, not the first that reads the same', () => {
    const before = 'function load() {\n  return fetch();\n}';
    const after = 'function load() {\n  try {\n    return fetch();\n  } catch {\n    return;\n  }\n}';
    // By text alone the function's brace would pair with the try block's ("  }", line 5 from 0).
    expect(matchLines(before.split('\n'), after.split('\n'))).toContainEqual([2, 5]);
    expect(pairs(before, after)).toEqual([
      [0, 0],
      [1, 2],
      [2, 6],
    ]);
  });
});
