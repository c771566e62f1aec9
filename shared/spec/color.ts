// Colours: any CSS colour (culori parses them), so keyframes can interpolate them, reviews can measure
// contrast, and every canvas (Skia in Node, Chromium in the preview) is handed the same rgba().
import { converter, inGamut, parse, toGamut } from 'culori';
import { z } from 'zod';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const toRgb = converter('rgb');
const isDisplayable = inGamut('rgb');
// CSS Color 4's gamut mapping (in OKLCH): a wide-gamut colour keeps its hue and lightness.
const mapToRgb = toGamut('rgb', 'oklch');

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

/**
 * Parses any CSS colour (hex, the 148 names, rgb()/hsl()/hwb()/lab()/lch()/oklab()/oklch()/color(),
 * old and new syntax) into sRGB 0..255 with alpha 0..1; undefined for anything that is not a colour.
 * Colours outside sRGB are gamut-mapped as CSS does.
 */
export function parseColor(input: string): Rgba | undefined {
  const parsed = parse(input.trim());
  if (!parsed) return undefined;
  const rgb = isDisplayable(parsed) ? toRgb(parsed) : mapToRgb(parsed);
  const channel = (value: number) => clamp(Math.round(value * 255 * 1000) / 1000, 0, 255);
  return { r: channel(rgb.r), g: channel(rgb.g), b: channel(rgb.b), a: clamp(rgb.alpha ?? 1, 0, 1) };
}

export function formatRgba({ r, g, b, a }: Rgba): string {
  return `rgba(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)}, ${Math.round(a * 1000) / 1000})`;
}

const canvasColors = new Map<string, string>();

/**
 * A spec colour as the rgba() every canvas understands: Skia's parser knows neither oklch() nor
 * lab(), and the preview must draw the same pixels as the render. Unparseable input (the schema
 * refuses it before drawing) draws transparent.
 */
export function canvasColor(css: string): string {
  let color = canvasColors.get(css);
  if (color === undefined) {
    color = formatRgba(parseColor(css) ?? { r: 0, g: 0, b: 0, a: 0 });
    if (canvasColors.size > 4096) canvasColors.clear(); // keyframed colours are mixed, not looked up
    canvasColors.set(css, color);
  }
  return color;
}

/** The colour with its alpha multiplied by `alpha` (a secondary line in the main line's colour). */
export function fadeColor(css: string, alpha: number): string {
  const rgba = parseColor(css);
  return rgba ? formatRgba({ ...rgba, a: rgba.a * alpha }) : css;
}

export function mixColors(from: Rgba, to: Rgba, t: number): Rgba {
  const lerp = (x: number, y: number) => x + (y - x) * t;
  return { r: lerp(from.r, to.r), g: lerp(from.g, to.g), b: lerp(from.b, to.b), a: lerp(from.a, to.a) };
}

/** WCAG 2 relative luminance of an opaque color. */
export function relativeLuminance({ r, g, b }: Rgba): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrastRatio(a: Rgba, b: Rgba): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

export const ColorSchema = z
  .string()
  .refine((value) => parseColor(value) !== undefined, {
    message:
      'expected a CSS color: #rgb, #rrggbb, #rrggbbaa, a color name (e.g. rebeccapurple), rgb(), hsl(), hwb(), lab(), lch(), oklab(), oklch() or color()',
  })
  .describe('A CSS color.');
export type Color = z.infer<typeof ColorSchema>;
