// Colors: hex, rgb()/rgba(), hsl()/hsla() and a set of CSS names, parsed so keyframes can
// interpolate them and reviews can measure contrast.
import { z } from 'zod';

export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

const NAMED: Record<string, string> = {
  transparent: '#00000000',
  black: '#000000',
  white: '#ffffff',
  red: '#ff0000',
  green: '#008000',
  lime: '#00ff00',
  blue: '#0000ff',
  yellow: '#ffff00',
  cyan: '#00ffff',
  magenta: '#ff00ff',
  orange: '#ffa500',
  purple: '#800080',
  pink: '#ffc0cb',
  gray: '#808080',
  grey: '#808080',
  silver: '#c0c0c0',
  navy: '#000080',
  teal: '#008080',
  gold: '#ffd700',
  coral: '#ff7f50',
  crimson: '#dc143c',
  indigo: '#4b0082',
  violet: '#ee82ee',
  salmon: '#fa8072',
  tomato: '#ff6347',
  turquoise: '#40e0d0',
  skyblue: '#87ceeb',
  slategray: '#708090',
  whitesmoke: '#f5f5f5',
};

const HEX = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
const FUNC = /^(rgba?|hsla?)\(\s*([^)]*)\)$/i;

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

function parseHex(hex: string): Rgba {
  let digits = hex.slice(1);
  if (digits.length <= 4) digits = [...digits].map((d) => d + d).join('');
  const n = (i: number) => parseInt(digits.slice(i, i + 2), 16);
  return { r: n(0), g: n(2), b: n(4), a: digits.length === 8 ? n(6) / 255 : 1 };
}

function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const k = (n: number) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** Parses a CSS color; returns undefined for anything it does not understand. */
export function parseColor(input: string): Rgba | undefined {
  const text = input.trim().toLowerCase();
  const named = NAMED[text];
  if (named) return parseHex(named);
  if (HEX.test(text)) return parseHex(text);
  const match = FUNC.exec(text);
  if (!match) return undefined;
  const parts = match[2]!.split(/[\s,/]+/).filter(Boolean);
  if (parts.length < 3 || parts.length > 4) return undefined;
  const num = (p: string, scale: number) => (p.endsWith('%') ? (parseFloat(p) / 100) * scale : parseFloat(p));
  const alpha = parts[3] === undefined ? 1 : num(parts[3], 1);
  if (match[1]!.startsWith('rgb')) {
    const [r, g, b] = parts.slice(0, 3).map((p) => num(p, 255));
    if ([r, g, b, alpha].some((v) => v === undefined || Number.isNaN(v))) return undefined;
    return { r: clamp(r!, 0, 255), g: clamp(g!, 0, 255), b: clamp(b!, 0, 255), a: clamp(alpha, 0, 1) };
  }
  const h = parseFloat(parts[0]!);
  const s = num(parts[1]!, 1);
  const l = num(parts[2]!, 1);
  if ([h, s, l, alpha].some(Number.isNaN)) return undefined;
  const [r, g, b] = hslToRgb(((h % 360) + 360) % 360, clamp(s, 0, 1), clamp(l, 0, 1));
  return { r, g, b, a: clamp(alpha, 0, 1) };
}

export function formatRgba({ r, g, b, a }: Rgba): string {
  return `rgba(${Math.round(r)}, ${Math.round(g)}, ${Math.round(b)}, ${Math.round(a * 1000) / 1000})`;
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
    message: 'expected a CSS color: #rgb, #rrggbb, #rrggbbaa, rgb(), rgba(), hsl(), hsla() or a color name',
  })
  .describe('A CSS color.');
export type Color = z.infer<typeof ColorSchema>;
