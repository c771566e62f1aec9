import { describe, expect, it } from 'vitest';
import type { VideoModel } from '../spec/model.ts';
import { codeNeeds, loadCodeHighlighter } from './highlighter.ts';

describe('codeNeeds', () => {
  it('finds the languages and themes of code elements and markdown fences, in groups too', () => {
    const model = {
      kinoSpec: 1,
      scenes: [
        {
          elements: [
            { type: 'code', code: 'x', language: 'ts' },
            {
              type: 'group',
              children: [
                { type: 'markdown', markdown: '```py\nx = 1\n```\n\n```\nplain\n```', theme: 'nord' },
              ],
            },
          ],
        },
      ],
    } as unknown as VideoModel;
    expect(codeNeeds(model)).toEqual([
      { language: 'typescript', theme: 'github-dark' },
      { language: 'python', theme: 'nord' },
      { language: 'text', theme: 'nord' },
    ]);
  });
});

describe('loadCodeHighlighter', () => {
  it('loads nothing for a video without code', async () => {
    expect(await loadCodeHighlighter([])).toBeUndefined();
  });

  it('colours a TypeScript keyword and an identifier as the theme says, and leaves unloaded pairs alone', async () => {
    const highlighter = (await loadCodeHighlighter([{ language: 'typescript', theme: 'github-dark' }]))!;
    const code = highlighter.highlight('const answer = 42;\n\tnext', 'ts', 'github-dark')!;
    const color = (text: string) =>
      code.lines[0]!.find((token) => token.text.trim() === text)?.color?.toLowerCase();
    // github-dark: storage keywords #f97583, constants and numbers #79b8ff.
    expect(color('const')).toBe('#f97583');
    expect(color('answer')).toBe('#79b8ff');
    expect(color('const')).not.toBe(color('answer'));
    expect(code.background.toLowerCase()).toBe('#24292e');
    expect(code.dark).toBe(true);
    // Tabs take two columns.
    expect(code.lines[1]!.map((token) => token.text).join('')).toBe('  next');
    expect(highlighter.highlight('x', 'python', 'github-dark')).toBeUndefined();
    expect(highlighter.highlight('x', 'typescript', 'nord')).toBeUndefined();
    expect(highlighter.highlight('plain words', 'text', 'github-dark')!.lines[0]![0]!.text).toBe(
      'plain words',
    );
  }, 20_000);
});
