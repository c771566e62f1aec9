// The bundled fonts as CSS @font-face rules under the Kino family aliases ('Kino Sans', ...), so text
// in the browser uses the same files as the Skia renderer and not whatever the system has; the
// fallback chain's faces ('Kino Emoji', 'Kino Symbols') among them, which the drawing code's font
// stacks list after each family in the same order on both hosts. The URLs are relative to the
// sheet, so the studio can serve it under its own prefix.
import { PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';
import { bundledFontFiles } from '../fonts/bundled.ts';
import type { BundledFontFile } from '../fonts/bundled.ts';

export interface FontFaceSheet {
  css: string;
  /** The files the rules point at, by index in /fonts/<index>.ttf (or .woff2). */
  files: readonly BundledFontFile[];
}

const EXTENSION: Record<BundledFontFile['format'], string> = { truetype: 'ttf', woff2: 'woff2' };

export const FONT_CONTENT_TYPE: Record<BundledFontFile['format'], string> = {
  truetype: 'font/ttf',
  woff2: 'font/woff2',
};

/**
 * The weights a face answers. Skia never fakes bold on the colour emoji face, so the browser must not
 * either: that face covers every weight. Others keep their own weight, faked bolder on both hosts.
 */
function weightRange(file: BundledFontFile): string {
  return file.family === 'emoji' ? '100 900' : String(file.weight);
}

export function bundledFontFaceSheet(): FontFaceSheet {
  const files = bundledFontFiles();
  const rules = files.map(
    (file, index) =>
      `@font-face { font-family: '${file.alias}'; src: url('${PREVIEW_ROUTES.fontFile.slice(1)}${index}.${EXTENSION[file.format]}') format('${file.format}'); ` +
      `font-weight: ${weightRange(file)}; font-style: ${file.italic ? 'italic' : 'normal'}; font-display: block; }`,
  );
  return { css: rules.join('\n') + '\n', files };
}

/** The file behind /fonts/<index>.<ext>, if `pathname` names one with its own extension. */
export function fontFileFor(sheet: FontFaceSheet, pathname: string): BundledFontFile | undefined {
  const match = /^\/fonts\/(\d+)\.(ttf|woff2)$/.exec(pathname);
  const file = match ? sheet.files[Number(match[1])] : undefined;
  return file && EXTENSION[file.format] === match![2] ? file : undefined;
}
