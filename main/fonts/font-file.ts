// A bundled font file as Skia registers it and the preview serves it, and where its package is.
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { BundledFamily, FallbackFamily } from '../../shared/fonts/fonts.ts';

export interface BundledFontFile {
  /** The spec's family name ("sans", "serif", "mono", "display"), or the fallback face's role. */
  family: BundledFamily | FallbackFamily;
  /** The family alias the file is registered under, e.g. "Kino Sans". */
  alias: string;
  weight: number;
  italic: boolean;
  /** Absolute path of the font file. */
  path: string;
  /** What the browser is told the file is, in @font-face's format(). */
  format: 'truetype' | 'woff2';
}

/** The folder of an installed font package. */
export function packageDir(packageName: string): string {
  try {
    return dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`));
  } catch {
    throw new Error(
      `Bundled font package ${packageName} is not installed; run npm install in the Kino folder.`,
    );
  }
}
