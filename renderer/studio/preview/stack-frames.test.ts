import { describe, expect, it } from 'vitest';
import type { StackFrame } from '../../player/stack-map.ts';
import { stackEntries } from './stack-frames.ts';

const frame = (file: string, line: number, name?: string): StackFrame => ({ name, file, line, column: 3 });

describe('the stack a person reads', () => {
  it('keeps the author files, links the open one, and folds each run of Kino frames into one line', () => {
    const entries = stackEntries(
      [
        frame('/home/me/video/compositions/intro.ts', 4, 'headline'),
        frame('/home/me/video/lib/words.ts', 9),
        frame('/home/me/kino/shared/builder/template.ts', 20, 'videoFromExport'),
        frame('http://127.0.0.1:4000/studio/assets/index-DsBIsLMC.js', 1382, 'Gxt'),
        frame('/home/me/video/compositions/intro.ts', 12, 'intro_default'),
        frame('/home/me/video/node_modules/lodash/lodash.js', 5, 'map'),
      ],
      '/home/me/video/compositions/intro.ts',
      '/home/me/video/',
    );
    expect(entries).toEqual([
      {
        kind: 'source',
        frame: frame('/home/me/video/compositions/intro.ts', 4, 'headline'),
        label: 'headline (compositions/intro.ts:4:3)',
        open: true,
      },
      {
        kind: 'source',
        frame: frame('/home/me/video/lib/words.ts', 9),
        label: 'lib/words.ts:9:3',
        open: false,
      },
      { kind: 'kino', count: 2 },
      {
        kind: 'source',
        frame: frame('/home/me/video/compositions/intro.ts', 12, 'intro_default'),
        label: 'intro_default (compositions/intro.ts:12:3)',
        open: true,
      },
      { kind: 'kino', count: 1 },
    ]);
  });

  it('does not take a sibling folder that shares the project name for the project', () => {
    const [entry] = stackEntries(
      [frame('/home/me/video-old/a.ts', 1)],
      '/home/me/video/a.ts',
      '/home/me/video',
    );
    expect(entry).toEqual({ kind: 'kino', count: 1 });
  });
});
