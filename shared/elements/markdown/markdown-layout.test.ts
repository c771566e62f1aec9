import { describe, expect, it } from 'vitest';
import { markdownBlocks } from './markdown-blocks.ts';
import { breakRuns, layoutMarkdown } from './markdown-layout.ts';
import type { MeasurePiece } from './markdown-layout.ts';

// Every character is half the font size wide, bold ones a little wider: a stand-in for a real font.
const measure: MeasurePiece = (text, font) => text.length * font.size * (font.weight >= 700 ? 0.55 : 0.5);
const metrics = { size: 20, lineHeight: 1.5, measure, codeHeight: () => 100 };
const body = { size: 20, weight: 400, italic: false, mono: false };

describe('markdownBlocks', () => {
  it('reads headings, paragraphs, nested lists, quotes, code and rules', () => {
    const blocks = markdownBlocks(
      '# Title\n\nSome **bold** text.\n\n- one\n  - two\n3. three\n\n> said\n\n```ts\nconst a = 1;\n```\n\n---',
    );
    expect(blocks.map((b) => b.kind)).toEqual([
      'heading',
      'paragraph',
      'item',
      'item',
      'item',
      'quote',
      'code',
      'rule',
    ]);
    expect(blocks.filter((b) => b.kind === 'item').map((b) => [b.depth, b.marker])).toEqual([
      [0, '•'],
      [1, '◦'],
      [0, '3.'],
    ]);
    expect(blocks[6]).toEqual({ kind: 'code', code: 'const a = 1;', language: 'ts' });
  });
});

describe('breakRuns', () => {
  it('breaks a paragraph into lines that fit a narrow box', () => {
    // Each word "aaaa" is 40 px, a space 10 px: three words (140 px) fit in 150, four do not.
    const plain = { bold: false, italic: false, code: false, link: false, strike: false };
    const runs = [{ text: 'aaaa aaaa aaaa aaaa aaaa aaaa aaaa', style: plain }];
    const lines = breakRuns(runs, 150, body, measure, 30);
    expect(lines.map((line) => line.pieces.length)).toEqual([3, 3, 1]);
    expect(lines.map((line) => line.y)).toEqual([0, 30, 60]);
    expect(lines[0]!.width).toBe(140);
  });

  it('keeps a bold run bold on both sides of a line break', () => {
    const [paragraph] = markdownBlocks('plain words then **a bold run that wraps** after');
    if (!paragraph || paragraph.kind !== 'paragraph') throw new Error('expected a paragraph');
    const lines = breakRuns(paragraph.runs, 200, body, measure, 30);
    const bold = lines.flatMap((line, index) =>
      line.pieces.filter((piece) => piece.style.bold).map((piece) => [index, piece.text, piece.font.weight]),
    );
    expect(new Set(bold.map(([index]) => index)).size).toBeGreaterThan(1);
    expect(bold.map(([, text]) => text)).toEqual(['a', 'bold', 'run', 'that', 'wraps']);
    expect(bold.every(([, , weight]) => weight === 700)).toBe(true);
  });

  it('keeps punctuation after a styled run on the same word', () => {
    const [paragraph] = markdownBlocks('say **this**, then');
    if (!paragraph || paragraph.kind !== 'paragraph') throw new Error('expected a paragraph');
    const [line] = breakRuns(paragraph.runs, 1000, body, measure, 30);
    const comma = line!.pieces.find((piece) => piece.text === ',')!;
    const bold = line!.pieces.find((piece) => piece.text === 'this')!;
    expect(comma.x).toBe(bold.x + bold.width);
  });
});

describe('layoutMarkdown', () => {
  it('spaces blocks: a heading sits closer to its paragraph than paragraphs to each other', () => {
    const layout = layoutMarkdown(markdownBlocks('# Head\n\nOne.\n\nTwo.'), 400, metrics);
    const [head, one, two] = layout.blocks;
    // The heading is 2× the body size with a 1.18 line height: 47.2 px, then 0.7 em (14 px) of space.
    expect(head!.height).toBeCloseTo(47.2);
    expect(one!.y).toBeCloseTo(47.2 + 14);
    expect(two!.y - (one!.y + one!.height)).toBeCloseTo(14);
    expect(layout.height).toBeCloseTo(two!.y + 30);
  });

  it('indents list items by level and quotes by their bar', () => {
    const layout = layoutMarkdown(markdownBlocks('- a\n  - b\n\n> q'), 400, metrics);
    expect(layout.blocks.map((b) => b.indent)).toEqual([30, 60, 22]);
  });

  it('gives a code block the height its drawing needs', () => {
    const layout = layoutMarkdown(markdownBlocks('Text\n\n```js\nx\n```'), 400, metrics);
    expect(layout.blocks[1]).toMatchObject({ height: 100, y: 30 + 18 });
  });
});
