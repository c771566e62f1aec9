// The languages and themes a code element may name: shiki's bundled ones. Their lists come from
// shiki itself (ids, aliases and display names, with lazy loaders that nothing here calls), so the
// spec accepts exactly what the highlighter can load. Browser bundles keep the loaders' targets
// external: the lists cost a few kilobytes, not the grammars.
import MiniSearch from 'minisearch';
import { bundledLanguagesInfo } from 'shiki/langs';
import { bundledThemesInfo } from 'shiki/themes';

/** Languages shiki draws without a grammar, in the foreground colour. */
export const PLAIN_LANGUAGES: readonly string[] = ['text', 'plaintext', 'txt', 'plain'];
export const DEFAULT_CODE_LANGUAGE = 'text';
export const DEFAULT_CODE_THEME = 'github-dark';

const languageIds = new Map<string, string>();
for (const info of bundledLanguagesInfo) {
  languageIds.set(info.id, info.id);
  for (const alias of info.aliases ?? []) languageIds.set(alias, info.id);
}
for (const plain of PLAIN_LANGUAGES) languageIds.set(plain, 'text');

const themeIds = new Set(bundledThemesInfo.map((info) => info.id));

/** The language's shiki id ("ts" → "typescript", "txt" → "text"), or undefined when unknown. */
export function languageId(name: string): string | undefined {
  return languageIds.get(name.toLowerCase());
}

export function isKnownTheme(name: string): boolean {
  return themeIds.has(name);
}

interface NameDoc {
  id: string;
  words: string;
}

function closeNameFinder(docs: NameDoc[]): (name: string) => string[] {
  let index: MiniSearch<NameDoc> | undefined;
  return (name) => {
    if (!index) {
      index = new MiniSearch<NameDoc>({ fields: ['id', 'words'], storeFields: ['id'] });
      index.addAll(docs);
    }
    const query = name.replace(/[-_.]+/g, ' ');
    return index
      .search(query, { fuzzy: 0.34, prefix: true, combineWith: 'OR' })
      .slice(0, 5)
      .map((hit) => String(hit.id));
  };
}

const closeLanguages = closeNameFinder(
  bundledLanguagesInfo.map((info) => ({
    id: info.id,
    words: [info.id.replace(/-/g, ' '), info.name, ...(info.aliases ?? [])].join(' '),
  })),
);
const closeThemes = closeNameFinder(
  bundledThemesInfo.map((info) => ({
    id: info.id,
    words: `${info.id.replace(/-/g, ' ')} ${info.displayName}`,
  })),
);

/** Up to five bundled language ids that look like `name` (for "did you mean" messages). */
export function closeLanguageNames(name: string): string[] {
  return closeLanguages(name);
}

/** Up to five bundled theme ids that look like `name`. */
export function closeThemeNames(name: string): string[] {
  return closeThemes(name);
}

export function unknownLanguageMessage(name: string): string {
  const close = closeLanguageNames(name);
  const hint = close.length ? `: did you mean ${close.map((c) => `"${c}"`).join(', ')}?` : '';
  return `"${name}" is not a language shiki bundles${hint} ("text" draws without highlighting)`;
}

export function unknownThemeMessage(name: string): string {
  const close = closeThemeNames(name);
  const hint = close.length
    ? `: did you mean ${close.map((c) => `"${c}"`).join(', ')}?`
    : ` (e.g. "${DEFAULT_CODE_THEME}", "one-dark-pro", "github-light")`;
  return `"${name}" is not a theme shiki bundles${hint}`;
}
