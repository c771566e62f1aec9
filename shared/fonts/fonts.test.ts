import { describe, expect, it } from 'vitest';
import {
  BUNDLED_FAMILIES,
  cssFontFamilies,
  defaultFontWeight,
  FALLBACK_CHAIN,
  fontStringFamilies,
  isBundledFamily,
  resolveFontFamily,
} from './fonts.ts';

describe('font family names', () => {
  it('maps the four bundled names to their registered aliases', () => {
    expect(Object.keys(BUNDLED_FAMILIES).map(resolveFontFamily)).toEqual([
      'Kino Sans',
      'Kino Serif',
      'Kino Mono',
      'Kino Display',
    ]);
  });

  it('passes project families through unchanged, including names that look like object keys', () => {
    expect(resolveFontFamily('Brand Grotesk')).toBe('Brand Grotesk');
    expect(resolveFontFamily('toString')).toBe('toString');
    expect(isBundledFamily('toString')).toBe(false);
    expect(isBundledFamily('mono')).toBe(true);
  });

  it('defaults to bold, except for the single-weight display face', () => {
    expect(defaultFontWeight('sans')).toBe(700);
    expect(defaultFontWeight('Brand Grotesk')).toBe(700);
    expect(defaultFontWeight('display')).toBe(400);
  });

  it('ends every font stack in the fallback chain, emoji before symbols, each family once', () => {
    expect(FALLBACK_CHAIN).toEqual(['Kino Emoji', 'Kino Symbols']);
    expect(cssFontFamilies(['Kino Display'])).toBe('"Kino Display", "Kino Emoji", "Kino Symbols"');
    expect(cssFontFamilies(['Kino Mono', 'Kino Sans'])).toBe(
      '"Kino Mono", "Kino Sans", "Kino Emoji", "Kino Symbols"',
    );
    expect(cssFontFamilies(['Kino Symbols'])).toBe('"Kino Symbols", "Kino Emoji"');
    // A quote in a project family cannot end the CSS string early.
    expect(cssFontFamilies(['Bad "Name\\'])).toBe('"Bad Name", "Kino Emoji", "Kino Symbols"');
  });

  it('reads the families back from a font string', () => {
    expect(fontStringFamilies(`italic 700 72px ${cssFontFamilies(['Brand Grotesk'])}`)).toEqual([
      'Brand Grotesk',
      'Kino Emoji',
      'Kino Symbols',
    ]);
    expect(fontStringFamilies('12px \'Single\', "Double"')).toEqual(['Single', 'Double']);
  });
});
