// The spec's font family names. Four families ship with Kino under stable aliases, so a spec renders
// the same on every machine; any other name is a family the project declares and loads itself.

export const BUNDLED_FAMILIES = {
  sans: 'Kino Sans',
  serif: 'Kino Serif',
  mono: 'Kino Mono',
  display: 'Kino Display',
} as const;

export type BundledFamily = keyof typeof BUNDLED_FAMILIES;

export function isBundledFamily(family: string): family is BundledFamily {
  return Object.hasOwn(BUNDLED_FAMILIES, family);
}

/** The loaded family name to put in a CSS font string: the bundled alias, or the custom name as-is. */
export function resolveFontFamily(family: string): string {
  return isBundledFamily(family) ? BUNDLED_FAMILIES[family] : family;
}

/**
 * The weight used when an element gives none. Bold reads best in video, but the display face
 * (Bebas Neue) has a single 400 weight, and asking it for 700 makes the renderer smear a fake bold.
 */
export function defaultFontWeight(family: string): number {
  return family === 'display' ? 400 : 700;
}
