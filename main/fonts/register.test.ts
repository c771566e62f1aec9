import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundledFontFiles, registerBundledFonts, registerFontFile } from './register.ts';

function widthOf(font: string, text = 'Hamburgefonstiv 0123'): number {
  const ctx = createCanvas(10, 10).getContext('2d');
  ctx.font = font;
  return ctx.measureText(text).width;
}

function inkOf(font: string): number {
  const canvas = createCanvas(900, 160);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.font = font;
  ctx.fillText('Hamburgefonstiv', 10, 120);
  const data = ctx.getImageData(0, 0, 900, 160).data;
  let ink = 0;
  for (let i = 3; i < data.length; i += 4) ink += data[i]! / 255;
  return ink;
}

describe('bundledFontFiles', () => {
  const files = bundledFontFiles();

  it('lists every weight and italic of the four families, as existing .ttf files', () => {
    const styles = (family: string) =>
      files.filter((file) => file.family === family).map((file) => `${file.weight}${file.italic ? 'i' : ''}`);
    const both = (weights: number[]) => weights.flatMap((w) => [`${w}`, `${w}i`]);
    expect(styles('sans')).toEqual(both([100, 200, 300, 400, 500, 600, 700, 800, 900]));
    expect(styles('serif')).toEqual(both([400, 500, 600, 700, 800, 900]));
    expect(styles('mono')).toEqual(both([100, 200, 300, 400, 500, 600, 700, 800]));
    expect(styles('display')).toEqual(['400']);
    for (const file of files) {
      expect(file.path).toMatch(file.format === 'woff2' ? /\.woff2$/ : /\.ttf$/);
      expect(existsSync(file.path)).toBe(true);
    }
    expect(files.find((f) => f.family === 'sans' && f.weight === 700 && !f.italic)!.path).toMatch(
      /@expo-google-fonts\/inter\/700Bold\/Inter_700Bold\.ttf$/,
    );
  });

  it('names the alias each file is registered under, the fallback chain included', () => {
    expect(new Set(files.map((file) => `${file.family}=${file.alias}`))).toEqual(
      new Set([
        'sans=Kino Sans',
        'serif=Kino Serif',
        'mono=Kino Mono',
        'display=Kino Display',
        'emoji=Kino Emoji',
        'symbols=Kino Symbols',
      ]),
    );
  });

  it('returns copies, so callers cannot corrupt the list', () => {
    files[0]!.path = '/tampered';
    expect(bundledFontFiles()[0]!.path).not.toBe('/tampered');
  });
});

describe('registerBundledFonts', () => {
  beforeAll(() => {
    registerBundledFonts();
    registerBundledFonts();
  });

  it('registers every style once under the Kino aliases', () => {
    const family = (name: string) => GlobalFonts.families.find((f) => f.family === name);
    expect(family('Kino Emoji')!.styles).toHaveLength(1);
    expect(family('Kino Symbols')!.styles).toHaveLength(4);
    expect(family('Kino Sans')!.styles).toHaveLength(18);
    expect(family('Kino Serif')!.styles).toHaveLength(12);
    expect(family('Kino Mono')!.styles).toHaveLength(16);
    expect(family('Kino Display')!.styles).toEqual([{ weight: 400, width: 'normal', style: 'normal' }]);
  });

  it('renders with the registered faces, not a fallback', () => {
    const display = widthOf('400 72px "Kino Display"');
    const mono = widthOf('400 72px "Kino Mono"');
    // Bebas Neue is condensed; JetBrains Mono is wide and fixed-pitch.
    expect(mono / display).toBeGreaterThan(1.4);
    expect(widthOf('400 72px "Kino Sans"')).not.toBeCloseTo(widthOf('400 72px "No Such Family"'), 0);
    // Fixed pitch: "iiii" and "MMMM" advance the same in the mono face, not in the sans one.
    expect(widthOf('72px "Kino Mono"', 'iiii')).toBeCloseTo(widthOf('72px "Kino Mono"', 'MMMM'), 3);
    expect(widthOf('72px "Kino Sans"', 'iiii')).toBeLessThan(widthOf('72px "Kino Sans"', 'MMMM') * 0.5);
  });

  it('picks the weight and italic asked for', () => {
    expect(widthOf('800 72px "Kino Sans"') / widthOf('400 72px "Kino Sans"')).toBeGreaterThan(1.04);
    expect(inkOf('800 72px "Kino Sans"') / inkOf('400 72px "Kino Sans"')).toBeGreaterThan(1.4);
    expect(widthOf('italic 400 72px "Kino Serif"')).not.toBeCloseTo(widthOf('400 72px "Kino Serif"'), 0);
  });
});

describe('registerFontFile', () => {
  it('registers a project font under its own family name', () => {
    const inter = bundledFontFiles().find((f) => f.family === 'sans' && f.weight === 900 && !f.italic)!;
    registerFontFile(inter.path, 'Project Heavy');
    registerFontFile(inter.path, 'Project Heavy');
    expect(GlobalFonts.families.find((f) => f.family === 'Project Heavy')!.styles).toHaveLength(1);
    expect(widthOf('900 72px "Project Heavy"')).toBeCloseTo(widthOf('900 72px "Kino Sans"'), 3);
  });

  it('names the missing file in its error', () => {
    expect(() => registerFontFile('/nowhere/Brand.ttf', 'Brand')).toThrow(
      'Font file not found: /nowhere/Brand.ttf (family "Brand")',
    );
  });

  it('names a file that is not a font in its error', () => {
    const notAFont = fileURLToPath(import.meta.url);
    expect(() => registerFontFile(notAFont, 'Broken')).toThrow(`Could not load font file ${notAFont}`);
  });
});
