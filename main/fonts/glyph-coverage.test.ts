import { describe, expect, it } from 'vitest';
import { cssFontFamilies, fontStringFamilies } from '../../shared/fonts/fonts.ts';
import { bundledFontFiles } from './bundled.ts';
import { fontCharacters, GlyphCoverage } from './glyph-coverage.ts';

const files = bundledFontFiles();
const mono = files.find((file) => file.family === 'mono' && file.weight === 400 && !file.italic)!;
const coverage = new GlyphCoverage([
  ...files.map((file) => ({ family: file.alias, path: file.path })),
  // A project font: JetBrains Mono's file under a declared family name.
  { family: 'Brand Mono', path: mono.path },
]);
const stack = (family: string) => fontStringFamilies(cssFontFamilies([family]));

describe('fontCharacters', () => {
  it('reads the character map of TrueType and WOFF2 files', () => {
    const emoji = fontCharacters(files.find((file) => file.format === 'woff2')!.path);
    expect(emoji.has(0x1f389)).toBe(true); // 🎉
    expect(emoji.has(0x2605)).toBe(false); // ★
    const display = fontCharacters(files.find((file) => file.family === 'display')!.path);
    expect(display.has(0x41)).toBe(true);
    expect(display.has(0x2605)).toBe(false);
  });
});

describe('GlyphCoverage', () => {
  it('finds ★ ✓ → and emoji in the chain behind the display face', () => {
    expect(coverage.missing('4.8★ ✓ → 🎉 ❤️ 👩‍💻 👍🏽 🇫🇷 1️⃣', stack('Kino Display'))).toEqual([]);
    expect(coverage.missing('4.8★ ✓ →', ['Kino Display'])).toEqual(['★', '✓', '→']);
  });

  it('names each character no family has, once, in order, ignoring spaces and joiners', () => {
    expect(coverage.missing('中文 ⏻ 中\u200d\ufe0f\n', stack('Kino Display'))).toEqual(['中', '文', '⏻']);
  });

  it("counts a declared project font's characters, and none for a family without files", () => {
    expect(coverage.missing('⏻ ₿', stack('Brand Mono'))).toEqual([]);
    expect(coverage.knows('Brand Mono')).toBe(true);
    expect(coverage.knows('Undeclared')).toBe(false);
    expect(coverage.missing('A★', ['Undeclared'])).toEqual(['A', '★']);
  });
});
