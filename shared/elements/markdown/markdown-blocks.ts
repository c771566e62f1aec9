// Markdown read with marked's lexer into the blocks the markdown element draws: headings,
// paragraphs, list items (nested one level), quotes, code blocks and rules, each a list of styled
// runs. Inline HTML is dropped (a video shows no markup); a deeper list is drawn at the second level.
import { Lexer } from 'marked';
import type { Token, Tokens } from 'marked';

export interface RunStyle {
  bold: boolean;
  italic: boolean;
  code: boolean;
  link: boolean;
  strike: boolean;
}

export interface Run {
  text: string;
  style: RunStyle;
}

export type MarkdownBlock =
  | { kind: 'heading'; level: number; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'item'; depth: number; marker: string; ordered: boolean; runs: Run[] }
  | { kind: 'quote'; runs: Run[] }
  | { kind: 'code'; code: string; language: string }
  | { kind: 'rule' };

const PLAIN: RunStyle = { bold: false, italic: false, code: false, link: false, strike: false };

/** A hard line break inside a paragraph. */
export const LINE_BREAK = '\n';

function inlineRuns(tokens: readonly Token[] | undefined, style: RunStyle = PLAIN): Run[] {
  const runs: Run[] = [];
  for (const token of tokens ?? []) {
    switch (token.type) {
      case 'strong':
        runs.push(...inlineRuns((token as Tokens.Strong).tokens, { ...style, bold: true }));
        break;
      case 'em':
        runs.push(...inlineRuns((token as Tokens.Em).tokens, { ...style, italic: true }));
        break;
      case 'del':
        runs.push(...inlineRuns((token as Tokens.Del).tokens, { ...style, strike: true }));
        break;
      case 'link':
        runs.push(...inlineRuns((token as Tokens.Link).tokens, { ...style, link: true }));
        break;
      case 'codespan':
        runs.push({ text: (token as Tokens.Codespan).text, style: { ...style, code: true } });
        break;
      case 'br':
        runs.push({ text: LINE_BREAK, style });
        break;
      case 'html':
        break;
      case 'text': {
        const text = token as Tokens.Text;
        // Text inside list items holds its own inline tokens.
        if (text.tokens?.length) runs.push(...inlineRuns(text.tokens, style));
        else runs.push({ text: text.text.replace(/\n/g, ' '), style });
        break;
      }
      default:
        if ('text' in token && typeof token.text === 'string') runs.push({ text: token.text, style });
    }
  }
  return runs;
}

function listBlocks(list: Tokens.List, depth: number): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  const start = typeof list.start === 'number' ? list.start : 1;
  list.items.forEach((item, index) => {
    const runs: Run[] = [];
    const nested: MarkdownBlock[] = [];
    for (const token of item.tokens) {
      if (token.type === 'list') nested.push(...listBlocks(token as Tokens.List, Math.min(1, depth + 1)));
      else if (token.type === 'text' || token.type === 'paragraph') {
        if (runs.length) runs.push({ text: ' ', style: PLAIN });
        runs.push(...inlineRuns((token as Tokens.Text).tokens ?? [token]));
      } else nested.push(...toBlocks([token], depth + 1));
    }
    const marker = list.ordered ? `${start + index}.` : depth === 0 ? '•' : '◦';
    blocks.push({ kind: 'item', depth, marker, ordered: list.ordered, runs }, ...nested);
  });
  return blocks;
}

function toBlocks(tokens: readonly Token[], depth = 0): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  for (const token of tokens) {
    switch (token.type) {
      case 'heading':
        blocks.push({
          kind: 'heading',
          level: (token as Tokens.Heading).depth,
          runs: inlineRuns((token as Tokens.Heading).tokens),
        });
        break;
      case 'paragraph':
        blocks.push({ kind: 'paragraph', runs: inlineRuns((token as Tokens.Paragraph).tokens) });
        break;
      case 'text':
        blocks.push({ kind: 'paragraph', runs: inlineRuns([token]) });
        break;
      case 'list':
        blocks.push(...listBlocks(token as Tokens.List, Math.min(1, depth)));
        break;
      case 'blockquote':
        for (const inner of toBlocks((token as Tokens.Blockquote).tokens, depth)) {
          blocks.push('runs' in inner ? { kind: 'quote', runs: inner.runs } : inner);
        }
        break;
      case 'code': {
        const code = token as Tokens.Code;
        blocks.push({ kind: 'code', code: code.text, language: code.lang?.trim().split(/\s+/)[0] || 'text' });
        break;
      }
      case 'hr':
        blocks.push({ kind: 'rule' });
        break;
      default:
        break;
    }
  }
  return blocks.filter((block) => !('runs' in block) || block.runs.some((run) => run.text.trim()));
}

export function markdownBlocks(markdown: string): MarkdownBlock[] {
  return toBlocks(Lexer.lex(markdown));
}
