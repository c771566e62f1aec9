import { describe, expect, it } from 'vitest';
import { ColorSchema, canvasColor, contrastRatio, parseColor } from './color.ts';

describe('parseColor', () => {
  it('knows every CSS colour name, not only the common ones', () => {
    expect(parseColor('rebeccapurple')).toEqual({ r: 102, g: 51, b: 153, a: 1 });
    expect(parseColor('papayawhip')).toEqual({ r: 255, g: 239, b: 213, a: 1 });
    expect(parseColor('LightGoldenRodYellow')).toEqual({ r: 250, g: 250, b: 210, a: 1 });
    expect(parseColor('transparent')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
  });

  it('reads hex, rgb() and hsl() in old and new syntax', () => {
    expect(parseColor('#fff')).toEqual({ r: 255, g: 255, b: 255, a: 1 });
    expect(parseColor('#11223380')).toMatchObject({ r: 17, g: 34, b: 51 });
    expect(parseColor('#11223380')!.a).toBeCloseTo(128 / 255, 3);
    expect(parseColor('rgba(255, 0, 0, 0.5)')).toEqual({ r: 255, g: 0, b: 0, a: 0.5 });
    expect(parseColor('rgb(255 0 0 / 50%)')).toEqual({ r: 255, g: 0, b: 0, a: 0.5 });
    expect(parseColor('hsl(120, 100%, 25%)')).toEqual({ r: 0, g: 127.5, b: 0, a: 1 });
  });

  it('reads hwb(), lab(), oklch() and color(), mapping wide-gamut colours into sRGB', () => {
    expect(parseColor('hwb(0 0% 0%)')).toEqual({ r: 255, g: 0, b: 0, a: 1 });
    const lab = parseColor('lab(50% 40 59)')!;
    expect(lab.r).toBeGreaterThan(150);
    expect(lab.b).toBeLessThan(20);
    const p3Red = parseColor('color(display-p3 1 0 0)')!;
    expect(p3Red.r).toBeCloseTo(255, 0);
    for (const channel of [p3Red.r, p3Red.g, p3Red.b]) {
      expect(channel).toBeGreaterThanOrEqual(0);
      expect(channel).toBeLessThanOrEqual(255);
    }
    const teal = parseColor('oklch(0.7 0.15 200)')!;
    expect(teal.r).toBeGreaterThanOrEqual(0);
    expect(teal.g).toBeGreaterThan(teal.r);
  });

  it('refuses what is not a colour', () => {
    for (const bad of ['nonsense', '#12345', 'rgb(1, 2)', '', 'url(x)'])
      expect(parseColor(bad)).toBeUndefined();
  });
});

describe('ColorSchema', () => {
  it('accepts what its message promises, names included', () => {
    for (const good of ['rebeccapurple', 'oklch(0.7 0.15 200)', 'hwb(200 10% 20%)', '#0af']) {
      expect(ColorSchema.safeParse(good).success, good).toBe(true);
    }
    const refused = ColorSchema.safeParse('blurple');
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/color name/);
  });
});

describe('canvasColor', () => {
  it('gives every canvas the same rgba(), whatever syntax the spec used', () => {
    expect(canvasColor('rebeccapurple')).toBe('rgba(102, 51, 153, 1)');
    expect(canvasColor('oklch(0.7 0.15 200)')).toMatch(/^rgba\(\d+, \d+, \d+, 1\)$/);
    expect(canvasColor('#ff000080')).toBe('rgba(255, 0, 0, 0.502)');
  });
});

describe('contrastRatio', () => {
  it('is 21 for black on white and 1 for a colour on itself', () => {
    expect(contrastRatio(parseColor('black')!, parseColor('white')!)).toBeCloseTo(21, 5);
    expect(contrastRatio(parseColor('teal')!, parseColor('teal')!)).toBe(1);
  });
});
