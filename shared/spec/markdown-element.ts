// The markdown element: a slide of Markdown (headings, paragraphs, emphasis, lists, quotes, links,
// inline code and fenced code blocks) laid out to wrap inside its box, revealed block by block.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { ColorSchema } from './color.ts';
import { CodeThemeSchema } from './code-element.ts';
import { elementBaseShape } from './element-base.ts';
import { LengthSchema } from './primitives.ts';
import { TimeSchema } from './time.ts';

export const MAX_MARKDOWN_CHARS = 10_000;

export const MarkdownRevealSchema = z
  .union([
    z.boolean(),
    z.strictObject({
      delay: TimeSchema.optional().describe(
        'When the first block starts, from the element start; default 0.',
      ),
      stagger: TimeSchema.optional().describe('Between one block and the next; default 0.18s.'),
      duration: TimeSchema.optional().describe("Each block's fade and rise; default 0.5s."),
    }),
  ])
  .describe('Blocks (headings, paragraphs, list items, quotes, code) fade and rise in one after another.');
export type MarkdownReveal = z.infer<typeof MarkdownRevealSchema>;

export const MarkdownElementSchema = withAspects(
  z.strictObject({
    type: z.literal('markdown'),
    ...elementBaseShape,
    markdown: z
      .string()
      .min(1)
      .max(MAX_MARKDOWN_CHARS)
      .describe(
        'Markdown: # to ### headings, paragraphs, **bold**, *italic*, `code`, [links](url), - and 1. lists (nested one level), > quotes and ``` code blocks.',
      ),
    font: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('"sans" (default), "serif", "mono" or a family declared in the project fonts.'),
    size: LengthSchema.optional().describe(
      'Body text size; headings scale from it. Default 36 design pixels.',
    ),
    lineHeight: z.number().min(1).max(3).optional().describe('Multiple of the text size; default 1.4.'),
    color: ColorSchema.optional().describe('Body text; default #e5e7eb.'),
    headingColor: ColorSchema.optional().describe('Headings; default white.'),
    accent: ColorSchema.optional().describe(
      'Links, bullets, list numbers and the quote bar; default #7dd3fc.',
    ),
    theme: CodeThemeSchema.optional().describe('The shiki theme of code blocks; default "github-dark".'),
    reveal: MarkdownRevealSchema.optional(),
  }),
  { fixed: ['markdown', 'theme'] },
);
export type MarkdownElement = z.infer<typeof MarkdownElementSchema>;
