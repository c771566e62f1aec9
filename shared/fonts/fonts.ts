// The spec's font family names. Four families ship with Kino under stable aliases, so a spec renders
// the same on every machine; any other name is a family the project declares and loads itself.
// Every font stack ends in the bundled fallback chain, so a character the element's face lacks is
// drawn by a bundled font on every host, never by whatever the machine (or the browser) has.

export const BUNDLED_FAMILIES = {
  sans: 'Kino Sans',
  serif: 'Kino Serif',
  mono: 'Kino Mono',
  display: 'Kino Display',
} as const;

export type BundledFamily = keyof typeof BUNDLED_FAMILIES;

/** The fallback faces, by role: colour emoji (Twemoji) and symbols (DejaVu Sans). */
export const FALLBACK_FAMILIES = {
  emoji: 'Kino Emoji',
  symbols: 'Kino Symbols',
} as const;

export type FallbackFamily = keyof typeof FALLBACK_FAMILIES;

/**
 * The order every stack ends in. Emoji before symbols, as common web stacks put them: DejaVu Sans
 * also has monochrome faces (😀) and hearts, and the colour form is what an emoji in a video means.
 * Characters only the symbols face has (★ ✓ → ∑ Ж) draw in it, in the text's colour.
 */
export const FALLBACK_CHAIN: readonly string[] = [FALLBACK_FAMILIES.emoji, FALLBACK_FAMILIES.symbols];

export function isBundledFamily(family: string): family is BundledFamily {
  return Object.hasOwn(BUNDLED_FAMILIES, family);
}

/** The loaded family name to put in a CSS font string: the bundled alias, or the custom name as-is. */
export function resolveFontFamily(family: string): string {
  return isBundledFamily(family) ? BUNDLED_FAMILIES[family] : family;
}

/**
 * A CSS font-family list: the loaded families given (in order), then the fallback chain, each quoted
 * once. Skia and the browser both take, per character, the first family in the list that has it.
 */
export function cssFontFamilies(families: readonly string[]): string {
  const names = [...families.map((family) => family.replace(/["\\]/g, '')), ...FALLBACK_CHAIN];
  return [...new Set(names)].map((name) => `"${name}"`).join(', ');
}

/** The families of a CSS font string's family list, quotes removed: what cssFontFamilies wrote. */
export function fontStringFamilies(font: string): string[] {
  const families: string[] = [];
  for (const match of font.matchAll(/"([^"]*)"|'([^']*)'/g)) families.push(match[1] ?? match[2] ?? '');
  return families;
}

/**
 * The weight used when an element gives none. Bold reads best in video, but the display face
 * (Bebas Neue) has a single 400 weight, and asking it for 700 makes the renderer smear a fake bold.
 */
export function defaultFontWeight(family: string): number {
  return family === 'display' ? 400 : 700;
}
