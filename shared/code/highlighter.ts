// Syntax highlighting with shiki, loaded before drawing: the host walks the video for the languages
// and themes its code and markdown elements use, loads only those (shiki's core with the JavaScript
// regex engine: no WebAssembly, works offline in Node and the browser), and hands drawing a
// synchronous CodeHighlighter. Shiki's core and regex engine are imported only when a video has code.
// The language and theme tables are imported statically, as shared/spec/code-names.ts does: they
// hold each grammar and theme as a lazy loader, so only the ones a video names are ever fetched (and
// a dynamic import of a module another file imports statically splits nothing: bundlers warn).
import type { HighlighterCore, ThemedToken } from 'shiki/core';
import { bundledLanguages } from 'shiki/langs';
import { bundledThemes } from 'shiki/themes';
import type { CodeHighlighter, CodeToken, HighlightedCode } from '../canvas/types.ts';
import { DEFAULT_CODE_LANGUAGE, DEFAULT_CODE_THEME, isKnownTheme, languageId } from '../spec/code-names.ts';
import type { VideoModel } from '../spec/model.ts';
import { topLevelElements } from '../spec/element-lists.ts';
import { fencedCodeLanguages } from './markdown-fences.ts';

/** One language in one theme that some element draws. */
export interface CodeNeed {
  language: string;
  theme: string;
}

/** Tabs take two columns: what editors in code videos show, and what the layout measures. */
export function expandTabs(code: string): string {
  return code.replace(/\r\n?/g, '\n').replace(/\t/g, '  ');
}

/** The language as shiki knows it; unknown names (a markdown fence's) draw as plain text. */
export function highlightLanguage(language: string | undefined): string {
  return languageId(language ?? DEFAULT_CODE_LANGUAGE) ?? 'text';
}

export function highlightTheme(theme: string | undefined): string {
  return theme !== undefined && isKnownTheme(theme) ? theme : DEFAULT_CODE_THEME;
}

/** Every language and theme the video's code and markdown elements use, groups included. */
export function codeNeeds(model: VideoModel): CodeNeed[] {
  const needs = new Map<string, CodeNeed>();
  const add = (language: string, theme: string) => needs.set(`${language} ${theme}`, { language, theme });
  const visit = (elements: readonly unknown[]) => {
    for (const element of elements) {
      const fields = element as { type?: string; children?: unknown; language?: string; theme?: string };
      const theme = highlightTheme(fields.theme);
      if (fields.type === 'code') add(highlightLanguage(fields.language), theme);
      if (fields.type === 'markdown') {
        for (const fence of fencedCodeLanguages((element as { markdown: string }).markdown)) {
          add(highlightLanguage(fence), theme);
        }
      }
      if (Array.isArray(fields.children)) visit(fields.children);
    }
  };
  visit(topLevelElements(model));
  return [...needs.values()];
}

const FONT_ITALIC = 1;
const FONT_BOLD = 2;
const FONT_UNDERLINE = 4;

function toToken(token: ThemedToken): CodeToken {
  const style = token.fontStyle ?? 0;
  return {
    text: token.content,
    color: token.color,
    italic: (style & FONT_ITALIC) !== 0,
    bold: (style & FONT_BOLD) !== 0,
    underline: (style & FONT_UNDERLINE) !== 0,
  };
}

/** Highlighted code is kept per text: steps and typing ask for the same few versions every frame. */
const MAX_CACHED = 256;

class ShikiHighlighter implements CodeHighlighter {
  readonly #shiki: HighlighterCore;
  readonly #cache = new Map<string, HighlightedCode>();

  constructor(shiki: HighlighterCore) {
    this.#shiki = shiki;
  }

  highlight(code: string, language: string, theme: string): HighlightedCode | undefined {
    const lang = highlightLanguage(language);
    if (!this.#shiki.getLoadedThemes().includes(theme)) return undefined;
    if (lang !== 'text' && !this.#shiki.getLoadedLanguages().includes(lang)) return undefined;
    const key = `${lang}\0${theme}\0${code}`;
    const known = this.#cache.get(key);
    if (known) return known;
    // No time limit: shiki's default (500 ms a line) cuts a line's tokens short when the first
    // call's regex compilation runs slow, and a frame must draw the same wherever it is drawn.
    const result = this.#shiki.codeToTokens(expandTabs(code), { lang, theme, tokenizeTimeLimit: 0 });
    const themed = this.#shiki.getTheme(theme);
    const highlighted: HighlightedCode = {
      lines: result.tokens.map((line) => line.map(toToken)),
      foreground: result.fg ?? themed.fg,
      background: result.bg ?? themed.bg,
      dark: themed.type !== 'light',
    };
    if (this.#cache.size >= MAX_CACHED) this.#cache.delete(this.#cache.keys().next().value!);
    this.#cache.set(key, highlighted);
    return highlighted;
  }
}

/**
 * Loads shiki with the grammars and themes `needs` names; undefined when there is nothing to load.
 * Regex compilation, the slow part (~250 ms for TypeScript), happens on the first highlight.
 */
export async function loadCodeHighlighter(needs: readonly CodeNeed[]): Promise<CodeHighlighter | undefined> {
  if (needs.length === 0) return undefined;
  const [{ createHighlighterCore }, { createJavaScriptRegexEngine }] = await Promise.all([
    import('shiki/core'),
    import('shiki/engine/javascript'),
  ]);
  const languages = [...new Set(needs.map((need) => need.language))].filter((lang) => lang !== 'text');
  const themes = [...new Set(needs.map((need) => need.theme))];
  const shiki = await createHighlighterCore({
    engine: createJavaScriptRegexEngine(),
    langs: languages.map((lang) => bundledLanguages[lang as keyof typeof bundledLanguages]).filter(Boolean),
    themes: themes.map((theme) => bundledThemes[theme as keyof typeof bundledThemes]).filter(Boolean),
  });
  return new ShikiHighlighter(shiki);
}

/** The highlighter a video needs, or undefined when it has no code (shiki is then never imported). */
export function loadHighlighterFor(model: VideoModel): Promise<CodeHighlighter | undefined> {
  return loadCodeHighlighter(codeNeeds(model));
}
