import { transform } from 'esbuild';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { describeThrown, inlineSourceMap, mapStack, parseSourceMap } from './stack-map.ts';

const SOURCE = `// a composition
type Info = { time: number };

export function draw(info: Info): void {
  if (info.time > 1) {
    throw new Error('boom');
  }
}
`;

async function bundled(): Promise<string> {
  const result = await transform(SOURCE, {
    loader: 'ts',
    format: 'esm',
    sourcemap: 'inline',
    sourcefile: 'comp.ts',
    sourceRoot: '/home/me/project/',
  });
  return result.code;
}

/** 1-based line and column of `needle` in `text`. */
function placeOf(text: string, needle: string): { line: number; column: number } {
  const index = text.indexOf(needle);
  const before = text.slice(0, index).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

afterEach(() => vi.unstubAllGlobals());

describe('source-mapped stacks', () => {
  it('maps a place in the bundle back to the source file, line and column', async () => {
    const code = await bundled();
    const mapping = parseSourceMap(inlineSourceMap(code)!);
    const generated = placeOf(code, 'new Error');
    expect(mapping.lookup(generated.line, generated.column)).toEqual({
      source: '/home/me/project/comp.ts',
      ...placeOf(SOURCE, 'new Error'),
    });
  });

  it('rewrites the composition frames of a stack and leaves the others alone', async () => {
    const code = await bundled();
    vi.stubGlobal('fetch', async () => new Response(code));
    const generated = placeOf(code, 'new Error');
    const stack = [
      'Error: boom',
      `    at draw (http://127.0.0.1:5000/composition.js?build=ab-2:${generated.line}:${generated.column})`,
      '    at drawCustom (http://127.0.0.1:5000/preview.js:100:5)',
    ].join('\n');
    const source = placeOf(SOURCE, 'new Error');
    expect(await mapStack(stack)).toBe(
      [
        'Error: boom',
        `    at draw (/home/me/project/comp.ts:${source.line}:${source.column})`,
        '    at drawCustom (http://127.0.0.1:5000/preview.js:100:5)',
      ].join('\n'),
    );
  });

  it('describes non-errors and errors whose stack lacks the message', async () => {
    expect(await describeThrown('plain')).toBe('plain');
    const error = new TypeError('bad');
    error.stack = '    at somewhere';
    expect(await describeThrown(error)).toBe('TypeError: bad\n    at somewhere');
  });
});
