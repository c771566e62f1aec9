// missing_glyph: a character that no font of its element's stack (its own face, then the bundled
// fallback chain) has a glyph for. The export draws the face's missing-glyph box there, and a
// browser preview whatever its system has. Read from every run of text the sampled frames drew
// (every element kind, with the font it was drawn in), and from each text element's whole text,
// so a text shown between samples is checked too.
import {
  BUNDLED_FAMILIES,
  cssFontFamilies,
  fontStringFamilies,
  resolveFontFamily,
} from '../../../shared/fonts/fonts.ts';
import type { BundledFamily } from '../../../shared/fonts/fonts.ts';
import { displayText } from '../../../shared/elements/text/text-measure.ts';
import type { GlyphCoverage } from '../../fonts/glyph-coverage.ts';
import { lifetimeFrames } from '../element-timing.ts';
import type { FindingDraft } from '../finding.ts';
import { describeElement, elementInterval } from './check.ts';
import type { VisualCheck } from './check.ts';

/** Characters named in a message; the rest are counted. */
const LISTED = 12;

interface Missing {
  characters: Set<string>;
  families: string[];
  frame: number;
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function listCharacters(characters: readonly string[]): string {
  const named = characters.slice(0, LISTED).map((char) => `"${char}" (${codePoint(char)})`);
  const more = characters.length - named.length;
  return named.join(', ') + (more > 0 ? ` and ${more} more` : '');
}

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;

/** The remedy: a bundled family that has every character, else a font to declare. */
function remedy(glyphs: GlyphCoverage, characters: readonly string[], families: readonly string[]): string {
  const text = characters.join('');
  const bundled = (Object.keys(BUNDLED_FAMILIES) as BundledFamily[]).find(
    (family) =>
      BUNDLED_FAMILIES[family] !== families[0] &&
      glyphs.missing(text, fontStringFamilies(cssFontFamilies([BUNDLED_FAMILIES[family]]))).length === 0,
  );
  if (bundled) return `set this element's font to "${bundled}", which has them, or replace the characters`;
  const font = characters.some((char) => CJK.test(char))
    ? 'a CJK face (e.g. Noto Sans SC, JP or KR as a .ttf or .otf)'
    : 'a font that has them';
  return (
    `declare ${font} in fonts ({"family": …, "src": "asset:fonts/…"}) and set this element's font to ` +
    `that family, or replace the characters`
  );
}

function note(
  found: Map<string, Missing>,
  key: string,
  characters: string[],
  families: string[],
  frame: number,
) {
  if (characters.length === 0) return;
  const entry = found.get(key) ?? { characters: new Set<string>(), families, frame };
  for (const char of characters) entry.characters.add(char);
  found.set(key, entry);
}

function textElementStacks(
  glyphs: GlyphCoverage,
  input: Parameters<VisualCheck>[0],
  found: Map<string, Missing>,
) {
  for (const timing of input.index.values()) {
    const element = timing.resolved.element;
    if (element.type !== 'text') continue;
    // The stack text-measure.ts draws a text element in.
    const families = fontStringFamilies(cssFontFamilies([resolveFontFamily(element.font ?? 'sans')]));
    const { startFrame } = lifetimeFrames(timing, input.video.fps);
    note(found, timing.key, glyphs.missing(displayText(element), families), families, startFrame);
  }
}

export const checkMissingGlyph: VisualCheck = (input) => {
  const { glyphs } = input;
  if (!glyphs) return [];
  const found = new Map<string, Missing>();
  for (const sample of input.samples) {
    for (const run of sample.textRuns) {
      const families = fontStringFamilies(run.font);
      note(found, run.key, glyphs.missing(run.text, families), families, sample.frame);
    }
  }
  textElementStacks(glyphs, input, found);
  const drafts: FindingDraft[] = [];
  for (const [key, missing] of found) {
    const element = input.index.get(key)?.resolved.element;
    if (!element) continue;
    const characters = [...missing.characters];
    const stack = missing.families.map((family) => `"${family}"`).join(', ');
    drafts.push({
      code: 'missing_glyph',
      severity: 'error',
      ...elementInterval(input, key, missing.frame),
      message:
        `${describeElement(key, element)} has ${listCharacters(characters)}, which no font of its stack ` +
        `(${stack}) can draw: the video shows a missing-glyph box instead`,
      remedy: remedy(glyphs, characters, missing.families),
    });
  }
  return drafts;
};
