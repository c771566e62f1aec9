// Where the bundled font files live: each family ships as an installed @expo-google-fonts package
// holding one folder per style, e.g. 700Bold/Inter_700Bold.ttf or 400Regular_Italic/....
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { BUNDLED_FAMILIES } from '../../shared/fonts/fonts.ts';
import type { BundledFamily } from '../../shared/fonts/fonts.ts';

export interface BundledFontFile {
  /** The spec's family name: "sans", "serif", "mono" or "display". */
  family: BundledFamily;
  /** The family alias the file is registered under, e.g. "Kino Sans". */
  alias: string;
  weight: number;
  italic: boolean;
  /** Absolute path of the .ttf file. */
  path: string;
}

const PACKAGES: Record<BundledFamily, string> = {
  sans: '@expo-google-fonts/inter',
  serif: '@expo-google-fonts/playfair-display',
  mono: '@expo-google-fonts/jetbrains-mono',
  display: '@expo-google-fonts/bebas-neue',
};

const STYLE_FOLDER = /^([1-9]00)[A-Za-z]+(_Italic)?$/;

function packageDir(packageName: string): string {
  try {
    return dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`));
  } catch {
    throw new Error(
      `Bundled font package ${packageName} is not installed; run npm install in the Kino folder.`,
    );
  }
}

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
    });
  }
  if (files.length === 0) throw new Error(`No .ttf files found in ${dir}; reinstall ${PACKAGES[family]}.`);
  return files;
}

let cached: readonly BundledFontFile[] | undefined;

/** Every bundled font file, in a stable order (family, weight, upright before italic). */
export function bundledFontFiles(): BundledFontFile[] {
  cached ??= (Object.keys(PACKAGES) as BundledFamily[])
    .flatMap(familyFiles)
    .sort(
      (a, b) =>
        a.family.localeCompare(b.family) || a.weight - b.weight || Number(a.italic) - Number(b.italic),
    );
  return cached.map((file) => ({ ...file }));
}
