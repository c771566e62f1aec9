// The fallback chain's font files (shared/fonts/fonts.ts says the order): colour emoji from
// twemoji-colr-font (Twemoji as a COLRv0 font, which Skia and browsers draw in colour) and symbols
// from dejavu-fonts-ttf (DejaVu Sans: arrows, check marks, stars, math, box drawing, Greek,
// Cyrillic). Both ship as npm packages, so every machine has the same files; no CJK face is
// bundled (a project declares one, see the README's fonts section).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { FALLBACK_FAMILIES } from '../../shared/fonts/fonts.ts';
import type { FallbackFamily } from '../../shared/fonts/fonts.ts';
import { packageDir } from './font-file.ts';
import type { BundledFontFile } from './font-file.ts';

interface FallbackFace {
  family: FallbackFamily;
  packageName: string;
  file: string;
  weight: number;
  italic: boolean;
  format: BundledFontFile['format'];
}

const FACES: readonly FallbackFace[] = [
  // One weight: Twemoji's art has no bold; every weight asked for gets it.
  {
    family: 'emoji',
    packageName: 'twemoji-colr-font',
    file: 'twemoji.woff2',
    weight: 400,
    italic: false,
    format: 'woff2',
  },
  ...(
    [
      ['DejaVuSans.ttf', 400, false],
      ['DejaVuSans-Oblique.ttf', 400, true],
      ['DejaVuSans-Bold.ttf', 700, false],
      ['DejaVuSans-BoldOblique.ttf', 700, true],
    ] as const
  ).map(([file, weight, italic]): FallbackFace => ({
    family: 'symbols',
    packageName: 'dejavu-fonts-ttf',
    file: `ttf/${file}`,
    weight,
    italic,
    format: 'truetype',
  })),
];

export function fallbackFontFiles(): BundledFontFile[] {
  return FACES.map((face) => {
    const path = join(packageDir(face.packageName), face.file);
    if (!existsSync(path)) throw new Error(`${face.file} is missing from ${face.packageName}; reinstall it.`);
    return {
      family: face.family,
      alias: FALLBACK_FAMILIES[face.family],
      weight: face.weight,
      italic: face.italic,
      path,
      format: face.format,
    };
  });
}
