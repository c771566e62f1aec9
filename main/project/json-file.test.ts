import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KinoInputError } from './input-error.ts';
import { jsonSyntaxErrorOffset, parseJsonText, readJsonFile } from './json-file.ts';

function errorOf(run: () => unknown): KinoInputError {
  try {
    run();
  } catch (error) {
    if (error instanceof KinoInputError) return error;
    throw error;
  }
  throw new Error('expected a KinoInputError');
}

describe('jsonSyntaxErrorOffset', () => {
  it('agrees with JSON.parse on what is valid', () => {
    const valid = ['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"]} ', '"s"', '0'];
    for (const text of valid) {
      expect(() => JSON.parse(text)).not.toThrow();
      expect(jsonSyntaxErrorOffset(text)).toBe(-1);
    }
  });

  it.each([
    ['[1,2,]', 5],
    ['{"a": 1,}', 8],
    ['{"a" 1}', 5],
    ["{'a': 1}", 1],
    ['{"a": tru}', 9],
    ['{"a": 01}', 7],
    ['{"a": 1} x', 9],
    ['{"a": "b', 8],
    ['', 0],
  ])('%j fails at %i', (text, offset) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonSyntaxErrorOffset(text)).toBe(offset);
  });
});

describe('parseJsonText', () => {
  it('names the file, line and column of a syntax error', () => {
    const text = '{\n  "kinoSpec": 1,\n  "scenes": [\n    { "duration": 2, }\n  ]\n}\n';
    const error = errorOf(() => parseJsonText(text, '/p/spec.json'));
    expect(error.message).toMatch(/^\/p\/spec\.json:4:22: invalid JSON: /);
    expect(error.message).not.toContain('\n');
    // The whole document is not echoed back.
    expect(error.message).not.toContain('kinoSpec');
  });

  it('reports a truncated file at its end', () => {
    const error = errorOf(() => parseJsonText('{\n  "a": [1,\n', 'cut.json'));
    expect(error.message).toMatch(/^cut\.json:3:1: invalid JSON: Unexpected end of JSON input$/);
  });

  it('accepts a byte-order mark', () => {
    expect(parseJsonText('\ufeff{"a": 1}', 'bom.json')).toEqual({ a: 1 });
  });
});

describe('readJsonFile', () => {
  it('says when the file is missing or a folder', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'kino-json-'));
    await expect(readJsonFile(path.join(dir, 'nope.json'), 'spec')).rejects.toThrow(
      `spec ${path.join(dir, 'nope.json')}: not found`,
    );
    await expect(readJsonFile(dir, 'spec')).rejects.toThrow('is a folder, not a file');
    await writeFile(path.join(dir, 'ok.json'), '{"b": [2]}');
    expect(await readJsonFile(path.join(dir, 'ok.json'), 'spec')).toEqual({ b: [2] });
    await rm(dir, { recursive: true, force: true });
  });
});
