// Every text a video's code drawing will ask the highlighter for: each version of each code element
// and each fenced block of each markdown element, groups included, as the drawing passes them. A
// host that highlights ahead (and caches the result) walks this list.
import { highlightLanguage, highlightTheme } from '../../code/highlighter.ts';
import type { CodeElement } from '../../spec/code-element.ts';
import type { MarkdownElement } from '../../spec/markdown-element.ts';
import type { VideoModel } from '../../spec/model.ts';
import { topLevelElements } from '../../spec/element-lists.ts';
import { codeVersions } from './code-steps.ts';
import { markdownBlocks } from '../markdown/markdown-blocks.ts';

export interface CodeText {
  code: string;
  /** shiki's id ("ts" → "typescript"), or "text". */
  language: string;
  theme: string;
}

/** The key a text is highlighted under: the same for every spelling of its language. */
export function codeTextKey(code: string, language: string, theme: string): string {
  return `${highlightLanguage(language)}\u0000${highlightTheme(theme)}\u0000${code}`;
}

export function codeTexts(model: VideoModel): CodeText[] {
  const texts = new Map<string, CodeText>();
  const add = (code: string, language: string | undefined, theme: string | undefined) => {
    const text = { code, language: highlightLanguage(language), theme: highlightTheme(theme) };
    texts.set(codeTextKey(code, text.language, text.theme), text);
  };
  const visit = (elements: readonly unknown[]) => {
    for (const element of elements) {
      const typed = element as { type?: string; children?: unknown };
      if (typed.type === 'code') {
        const code = element as CodeElement;
        for (const version of codeVersions(code)) add(version.code, code.language, code.theme);
      }
      if (typed.type === 'markdown') {
        const markdown = element as MarkdownElement;
        for (const block of markdownBlocks(markdown.markdown)) {
          if (block.kind === 'code') add(block.code, block.language, markdown.theme);
        }
      }
      if (Array.isArray(typed.children)) visit(typed.children);
    }
  };
  visit(topLevelElements(model));
  return [...texts.values()];
}
