// Loading fonts into Skia (@napi-rs/canvas) so the drawing code can name them in ctx.font.
import { existsSync } from 'node:fs';
import { GlobalFonts } from '@napi-rs/canvas';
import { bundledFontFiles } from './bundled.ts';

export { bundledFontFiles } from './bundled.ts';
export type { BundledFontFile } from './bundled.ts';

let bundledRegistered = false;
const registeredFiles = new Set<string>();

/**
 * Registers a font file under a family name; the file's own weight and style decide which
 * `ctx.font` requests it answers. Registering the same file under the same family again is a no-op.
 */
export function registerFontFile(path: string, family: string): void {
  const key = `${family}\0${path}`;
  if (registeredFiles.has(key)) return;
  if (!existsSync(path))
    throw new Error(`Font file not found: ${path} (family "${family}"); check the path.`);
  if (!GlobalFonts.registerFromPath(path, family)) {
    throw new Error(
      `Could not load font file ${path} (family "${family}"); use a valid .ttf, .otf or .woff2 file.`,
    );
  }
  registeredFiles.add(key);
}

/** Registers every weight and italic of the bundled families and the fallback chain under their "Kino …" aliases. */
export function registerBundledFonts(): void {
  if (bundledRegistered) return;
  for (const file of bundledFontFiles()) registerFontFile(file.path, file.alias);
  bundledRegistered = true;
}
