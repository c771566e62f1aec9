// Which characters a font stack can draw, read from each font file's character map with fontkitten
// (TTF, OTF, WOFF, WOFF2, collections). Skia takes, per character, the first family of a stack that
// has it and otherwise draws the first family's missing-glyph box, so a character is missing when
// no family of the stack maps it: what review's missing_glyph reports.
import { readFileSync } from 'node:fs';
import { create } from 'fontkitten';

/** A font file of a family, as registered with Skia. */
export interface FamilyFile {
  /** The loaded family name ("Kino Sans", a project's "Brand"). */
  family: string;
  path: string;
}

const charactersByPath = new Map<string, ReadonlySet<number>>();

/** The code points a font file maps to glyphs, read once per file and process. */
export function fontCharacters(path: string): ReadonlySet<number> {
  let characters = charactersByPath.get(path);
  if (!characters) {
    const font = create(readFileSync(path));
    const faces = font.isCollection ? font.fonts : [font];
    characters = new Set(faces.flatMap((face) => face.characterSet));
    charactersByPath.set(path, characters);
  }
  return characters;
}

/**
 * Characters no glyph is looked for: white space, controls, and the default-ignorable ones (joiners,
 * variation selectors, tags), which the shaper draws as nothing whether a font maps them or not.
 */
const INVISIBLE = /^[\p{White_Space}\p{Cc}\p{Default_Ignorable_Code_Point}]$/u;

export class GlyphCoverage {
  readonly #files = new Map<string, string[]>();
  readonly #families = new Map<string, ReadonlySet<number>[]>();

  constructor(files: Iterable<FamilyFile>) {
    for (const { family, path } of files) {
      const paths = this.#files.get(family) ?? [];
      if (!paths.includes(path)) paths.push(path);
      this.#files.set(family, paths);
    }
  }

  /** Whether the family is one this coverage knows files of. */
  knows(family: string): boolean {
    return this.#files.has(family);
  }

  /**
   * The characters of `text` that no family of `families` has a glyph for, each once, in order.
   * A family with no known file (undeclared, reported by font_not_bundled) has none.
   */
  missing(text: string, families: readonly string[]): string[] {
    const missing = new Set<string>();
    for (const char of text) {
      if (missing.has(char) || INVISIBLE.test(char)) continue;
      const code = char.codePointAt(0)!;
      // Family by family, as Skia looks: a face is read only once a character reaches it.
      const has = (family: string) => this.#characters(family).some((set) => set.has(code));
      if (!families.some(has)) missing.add(char);
    }
    return [...missing];
  }

  #characters(family: string): readonly ReadonlySet<number>[] {
    let sets = this.#families.get(family);
    if (!sets) {
      sets = (this.#files.get(family) ?? []).map(fontCharacters);
      this.#families.set(family, sets);
    }
    return sets;
  }
}
