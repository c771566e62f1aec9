// Fonts must be loaded before the first frame: a canvas does not wait for a font, it falls back.
// The bundled families come from the page's @font-face sheet (/fonts.css, the same files as the
// Skia renderer under the same 'Kino Sans'-style aliases); custom families from the project config
// and the model are fetched through the media route, like the renderer resolves them.
import type { FontFace as SpecFontFace } from '../../shared/spec/schema.ts';
import type { MissingSource } from './preview-media.ts';
import { refusalReason } from './preview-media.ts';
import { mediaUrl } from './route-base.ts';

let bundled: Promise<void> | undefined;

/** Loads every face of the @font-face sheet, once per page. */
export function loadBundledFonts(): Promise<void> {
  bundled ??= Promise.all([...document.fonts].map((face) => face.load().catch(() => undefined))).then(
    () => undefined,
  );
  return bundled;
}

const custom = new Map<string, Promise<string | undefined>>();

/** Loads the custom faces not loaded yet; the ones that fail come back as missing sources. */
export async function loadCustomFonts(faces: readonly SpecFontFace[]): Promise<MissingSource[]> {
  const results = await Promise.all(
    faces.map(async (face) => {
      const key = `${face.family}\n${face.src}\n${face.weight ?? ''}\n${face.italic ?? false}`;
      let loading = custom.get(key);
      if (!loading) {
        loading = loadFace(face);
        custom.set(key, loading);
      }
      const problem = await loading;
      return problem === undefined ? undefined : { src: face.src, message: problem };
    }),
  );
  return results.filter((missing): missing is MissingSource => missing !== undefined);
}

/** Undefined when loaded, else why not. */
async function loadFace(face: SpecFontFace): Promise<string | undefined> {
  // No weight given: the file's own weight answers every request, as Skia uses the file as it is.
  const loaded = new FontFace(face.family, `url("${mediaUrl(face.src)}")`, {
    weight: face.weight === undefined ? '100 900' : String(face.weight),
    style: face.italic ? 'italic' : 'normal',
  });
  try {
    await loaded.load();
    document.fonts.add(loaded);
    return undefined;
  } catch {
    return refusalReason(face.src);
  }
}
