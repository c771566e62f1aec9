// Where the bundled font files live: each family ships as an installed @expo-google-fonts package
// holding one folder per style, e.g. 700Bold/Inter_700Bold.ttf or 400Regular_Italic/....; the
// fallback chain's faces come from their own packages (fallback.ts).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLED_FAMILIES } from '../../shared/fonts/fonts.ts';
import type { BundledFamily } from '../../shared/fonts/fonts.ts';
import { fallbackFontFiles } from './fallback.ts';
import { packageDir } from './font-file.ts';
import type { BundledFontFile } from './font-file.ts';

export type { BundledFontFile } from './font-file.ts';

const PACKAGES: Record<BundledFamily, string> = {
  sans: '@expo-google-fonts/inter',
  serif: '@expo-google-fonts/playfair-display',
  mono: '@expo-google-fonts/jetbrains-mono',
  display: '@expo-google-fonts/bebas-neue',
};

const STYLE_FOLDER = /^([1-9]00)[A-Za-z]+(_Italic)?$/;

function familyFiles(family: BundledFamily): BundledFontFile[] {
  const dir = packageDir(PACKAGES[family]);
  const files: BundledFontFile[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const match = entry.isDirectory() ? STYLE_FOLDER.exec(entry.name) : null;
    if (!match) continue;
    const ttf = readdirSync(join(dir, entry.name)).find((name) => name.endsWith('.ttf'));
    if (!ttf) continue;
    files.push({
      family,
      alias: BUNDLED_FAMILIES[family],
      weight: Number(match[1]),
      italic: match[2] !== undefined,
      path: join(dir, entry.name, ttf),
      format: 'truetype',
    });
  }
  if (files.length === 0) throw new Error(`No .ttf files found in ${dir}; reinstall ${PACKAGES[family]}.`);
  return files;
}

let cached: readonly BundledFontFile[] | undefined;

/**
 * Every bundled font file, the fallback chain's included, in a stable order (family, weight, upright
 * before italic).
 */
export function bundledFontFiles(): BundledFontFile[] {
  cached ??= [
    ...(Object.keys(PACKAGES) as BundledFamily[]).flatMap(familyFiles),
    ...fallbackFontFiles(),
  ].sort(
    (a, b) => a.family.localeCompare(b.family) || a.weight - b.weight || Number(a.italic) - Number(b.italic),
  );
  return cached.map((file) => ({ ...file }));
}
