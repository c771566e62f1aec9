import { transform } from 'esbuild';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  describeThrown,
  describeThrownFrames,
  inlineSourceMap,
  mapStack,
  parseSourceMap,
  parseStack,
} from './stack-map.ts';

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

describe('stack frames', () => {
  it('splits a Chromium stack into its message and frames: named, async, anonymous', () => {
    const stack = [
      'Error: boom',
      'with a second line',
      '    at headline (/home/me/project/comp.ts:6:11)',
      '    at async #apply (http://127.0.0.1:5000/studio/assets/index-DsBIsLMC.js:1382:16644)',
      '    at http://127.0.0.1:5000/studio/assets/index-DsBIsLMC.js:2:30',
      '    at new Promise (<anonymous>)',
    ].join('\n');
    expect(parseStack(stack)).toEqual({
      message: 'Error: boom\nwith a second line',
      frames: [
        { name: 'headline', file: '/home/me/project/comp.ts', line: 6, column: 11 },
        {
          name: '#apply',
          file: 'http://127.0.0.1:5000/studio/assets/index-DsBIsLMC.js',
          line: 1382,
          column: 16644,
        },
        {
          name: undefined,
          file: 'http://127.0.0.1:5000/studio/assets/index-DsBIsLMC.js',
          line: 2,
          column: 30,
        },
      ],
    });
  });

  it('maps the frames of a thrown error before splitting it (the composition frame names its file)', async () => {
    const code = await bundled();
    vi.stubGlobal('fetch', async () => new Response(code));
    const generated = placeOf(code, 'new Error');
    const error = new Error('boom');
    error.stack = [
      'Error: boom',
      `    at draw (http://127.0.0.1:5000/studio/preview/k/composition.js?build=ab-3:${generated.line}:${generated.column})`,
      '    at Gxt (http://127.0.0.1:5000/studio/assets/index-DsBIsLMC.js:1382:10444)',
    ].join('\n');
    const thrown = await describeThrownFrames(error);
    expect(thrown.message).toBe('Error: boom');
    expect(thrown.frames[0]).toEqual({
      name: 'draw',
      file: '/home/me/project/comp.ts',
      ...placeOf(SOURCE, 'new Error'),
    });
    expect(thrown.frames[1]!.file).toMatch(/index-DsBIsLMC\.js$/);
  });
});
