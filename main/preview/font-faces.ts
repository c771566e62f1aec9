// The bundled fonts as CSS @font-face rules under the Kino family aliases ('Kino Sans', ...), so text
// in the browser uses the same files as the Skia renderer and not whatever the system has. The URLs
// are relative to the sheet, so the studio can serve it under its own prefix.
import { PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';
import { bundledFontFiles } from '../fonts/bundled.ts';
import type { BundledFontFile } from '../fonts/bundled.ts';

export interface FontFaceSheet {
  css: string;
  /** The files the rules point at, by index in /fonts/<index>.ttf. */
  files: readonly BundledFontFile[];
}

export function bundledFontFaceSheet(): FontFaceSheet {
  const files = bundledFontFiles();
  const rules = files.map(
    (file, index) =>
      `@font-face { font-family: '${file.alias}'; src: url('${PREVIEW_ROUTES.fontFile.slice(1)}${index}.ttf') format('truetype'); ` +
      `font-weight: ${file.weight}; font-style: ${file.italic ? 'italic' : 'normal'}; font-display: block; }`,
  );
  return { css: rules.join('\n') + '\n', files };
}

/** The file behind /fonts/<index>.ttf, if `pathname` names one. */
export function fontFileFor(sheet: FontFaceSheet, pathname: string): string | undefined {
  const match = /^\/fonts\/(\d+)\.ttf$/.exec(pathname);
  return match ? sheet.files[Number(match[1])]?.path : undefined;
}
