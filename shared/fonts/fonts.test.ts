import { describe, expect, it } from 'vitest';
import { BUNDLED_FAMILIES, defaultFontWeight, isBundledFamily, resolveFontFamily } from './fonts.ts';

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
});
