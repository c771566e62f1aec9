// The languages of a markdown text's fenced code blocks, found with marked's own lexer so they are
// exactly the blocks the markdown element draws.
import { Lexer } from 'marked';
import type { Token } from 'marked';

export function fencedCodeLanguages(markdown: string): string[] {
  const languages = new Set<string>();
  const visit = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      if (token.type === 'code')
        languages.add((token as { lang?: string }).lang?.trim().split(/\s+/)[0] || 'text');
      const nested = token as { tokens?: Token[]; items?: { tokens: Token[] }[] };
      if (nested.tokens) visit(nested.tokens);
      for (const item of nested.items ?? []) visit(item.tokens);
    }
  };
  visit(Lexer.lex(markdown));
  return [...languages];
}
