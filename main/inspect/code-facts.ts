// How inspect names a code or markdown element and lists its lines or blocks, from the spec alone.
import type { CodeElement } from '../../shared/spec/code-element.ts';
import { DEFAULT_CODE_LANGUAGE, languageId } from '../../shared/spec/code-names.ts';
import type { MarkdownElement } from '../../shared/spec/markdown-element.ts';
import { splitCodeLines } from '../../shared/elements/code/code-steps.ts';
import { markdownBlocks } from '../../shared/elements/markdown/markdown-blocks.ts';

const PART_CHARS = 60;
const MAX_PARTS = 40;

function cut(text: string): string {
  return text.length <= PART_CHARS ? text : `${text.slice(0, PART_CHARS - 1).trimEnd()}…`;
}

function listed(parts: string[]): string[] {
  if (parts.length <= MAX_PARTS) return parts;
  return [...parts.slice(0, MAX_PARTS - 1), `… ${parts.length - MAX_PARTS + 1} more`];
}

/** e.g. "typescript, 14 lines (3 steps)": the first version's lines; steps counted with it. */
export function codeLabel(element: CodeElement): string {
  const language = languageId(element.language ?? DEFAULT_CODE_LANGUAGE) ?? element.language;
  const lines = splitCodeLines(element.code).length;
  const steps = element.steps?.length ? ` (${element.steps.length + 1} steps)` : '';
  return `${language}, ${lines} line${lines === 1 ? '' : 's'}${steps}`;
}

/** The first version's non-blank lines, indentation kept, each cut to 60 characters. */
export function codeParts(element: CodeElement): string[] {
  return listed(
    splitCodeLines(element.code)
      .map((line) => line.replace(/\t/g, '  ').trimEnd())
      .filter(Boolean)
      .map(cut),
  );
}

export function markdownLabel(element: MarkdownElement): string {
  const blocks = markdownBlocks(element.markdown);
  const heading = blocks.find((block) => block.kind === 'heading');
  const title = heading && 'runs' in heading ? `: ${cut(heading.runs.map((run) => run.text).join(''))}` : '';
  return `markdown, ${blocks.length} block${blocks.length === 1 ? '' : 's'}${title}`;
}

/** Each block as a line: "# Title", "- item", "> quote", "```ts (4 lines)". */
export function markdownParts(element: MarkdownElement): string[] {
  return listed(
    markdownBlocks(element.markdown).map((block) => {
      switch (block.kind) {
        case 'code':
          return `\`\`\`${block.language} (${splitCodeLines(block.code).length} lines)`;
        case 'rule':
          return '---';
        default: {
          const text = block.runs
            .map((run) => run.text)
            .join('')
            .replace(/\s+/g, ' ')
            .trim();
          const mark =
            block.kind === 'heading'
              ? `${'#'.repeat(block.level)} `
              : block.kind === 'item'
                ? `${'  '.repeat(block.depth)}${block.ordered ? block.marker : '-'} `
                : block.kind === 'quote'
                  ? '> '
                  : '';
          return cut(`${mark}${text}`);
        }
      }
    }),
  );
}
