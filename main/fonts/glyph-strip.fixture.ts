// Test support: draws characters the bundled faces lack (★ ✓ → and an emoji) through the fallback
// chain, and hashes the pixels. Run as a script it prints the hashes as JSON, so a test can draw the
// same strip in a process that sees no system fonts and compare.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import { cssFontFamilies } from '../../shared/fonts/fonts.ts';
import { registerBundledFonts } from './register.ts';

export const STRIP_TEXT = '4.8★ ✓ → 🎉';

/** The strip drawn in `fonts` (a CSS font string's size and families), as RGBA. */
export function drawStrip(font: string, text = STRIP_TEXT): Uint8ClampedArray {
  registerBundledFonts();
  const canvas = createCanvas(720, 140);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.font = font;
  ctx.fillText(text, 20, 100);
  return ctx.getImageData(0, 0, canvas.width, canvas.height).data;
}

export function hashPixels(pixels: Uint8ClampedArray): string {
  return createHash('sha256').update(pixels).digest('hex');
}

/** Font files under Debian's font folder, the one Skia reads the machine's fonts from. */
export function systemFontCount(dir = '/usr/share/fonts'): number {
  try {
    return readdirSync(dir, { recursive: true }).filter((name) => /\.(ttf|otf|ttc|pfb)$/i.test(String(name)))
      .length;
  } catch {
    return 0;
  }
}

export interface StripHashes {
  systemFonts: number;
  /** Display text through the chain, and sans text with the same characters. */
  display: string;
  sans: string;
  /** A family nobody registered: drawn in whatever the machine has, the control. */
  unregistered: string;
}

export function stripHashes(): StripHashes {
  return {
    systemFonts: systemFontCount(),
    display: hashPixels(drawStrip(`400 72px ${cssFontFamilies(['Kino Display'])}`)),
    sans: hashPixels(drawStrip(`700 72px ${cssFontFamilies(['Kino Sans'])}`)),
    unregistered: hashPixels(drawStrip('400 72px "No Such Family"', 'Hamburgefonstiv')),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(JSON.stringify(stripHashes()));
}
