// The code element: source code highlighted by shiki in a chosen theme, in a window, with line
// numbers, highlighted or focused lines, a typewriter reveal and steps that morph token by token.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { ColorSchema } from './color.ts';
import {
  DEFAULT_CODE_LANGUAGE,
  DEFAULT_CODE_THEME,
  isKnownTheme,
  languageId,
  unknownLanguageMessage,
  unknownThemeMessage,
} from './code-names.ts';
import { elementBaseShape } from './element-base.ts';
import { LengthSchema } from './primitives.ts';
import { TimeSchema } from './time.ts';

/** More lines than fit on any frame at a readable size; review flags what overflows before that. */
export const MAX_CODE_LINES = 400;
export const MAX_CODE_CHARS = 20_000;
export const MAX_CODE_STEPS = 24;

const LINE_RANGE = /^(\d{1,3})-(\d{1,3})$/;

export const CodeSourceSchema = z
  .string()
  .min(1)
  .max(MAX_CODE_CHARS)
  .refine((code) => code.split('\n').length <= MAX_CODE_LINES, `at most ${MAX_CODE_LINES} lines`)
  .describe('The source code; "\\n" separates lines. Tabs draw as two spaces.');

export const LineRefsSchema = z
  .array(
    z.union([
      z.number().int().min(1).max(MAX_CODE_LINES),
      z
        .string()
        .regex(LINE_RANGE, 'a line range like "5-7"')
        .refine((range) => {
          const [, from, to] = LINE_RANGE.exec(range) ?? [];
          return Number(from) >= 1 && Number(from) <= Number(to);
        }, 'a range "first-last" with 1 ≤ first ≤ last'),
    ]),
  )
  .max(64)
  .describe('Lines by number (from 1) or as ranges: [3, "5-7"].');
export type LineRefs = z.infer<typeof LineRefsSchema>;

export const CodeLanguageSchema = z
  .string()
  .min(1)
  .max(40)
  .refine((name) => languageId(name) !== undefined, {
    error: (issue) => unknownLanguageMessage(String(issue.input)),
  })
  .describe(
    `A language shiki bundles, by id or alias: "typescript", "ts", "python", "rust", "go", "json", "bash", "diff"...; default "${DEFAULT_CODE_LANGUAGE}" (no highlighting).`,
  );

export const CodeThemeSchema = z
  .string()
  .min(1)
  .max(60)
  .refine(isKnownTheme, { error: (issue) => unknownThemeMessage(String(issue.input)) })
  .describe(
    `A theme shiki bundles: "github-dark" (default), "one-dark-pro", "dracula", "tokyo-night", "nord", "github-light", "vitesse-dark"...`,
  );

export const CodeStepSchema = z
  .strictObject({
    code: CodeSourceSchema.describe(
      'This version of the code. What it shares with the one before (lines kept, re-indented or lightly edited) moves to its new place; the rest crossfades.',
    ),
    at: TimeSchema.optional().describe(
      'When the morph into this version starts, from the element start; default the steps spread evenly over the element.',
    ),
    highlight: LineRefsSchema.optional().describe('Lines of this version to highlight.'),
    focus: LineRefsSchema.optional().describe('Lines of this version to keep bright; the rest dim.'),
  })
  .describe('A later version of the code.');
export type CodeStep = z.infer<typeof CodeStepSchema>;

export const CodeWindowSchema = z
  .union([
    z.boolean(),
    z.strictObject({
      title: z.string().max(80).optional().describe('A file name or title in the bar, e.g. "server.ts".'),
      dots: z.boolean().optional().describe('Three window dots in the bar; default true.'),
    }),
  ])
  .describe('A rounded panel in the theme background, with a bar of three dots (and a title); default true.');

export const CodeElementSchema = withAspects(
  z.strictObject({
    type: z.literal('code'),
    ...elementBaseShape,
    code: CodeSourceSchema,
    language: CodeLanguageSchema.optional(),
    theme: CodeThemeSchema.optional(),
    font: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe('"mono" (default, JetBrains Mono) or a monospace family declared in the project fonts.'),
    size: LengthSchema.optional().describe('Font size; default 30 design pixels.'),
    lineHeight: z.number().min(1).max(3).optional().describe('Multiple of the font size; default 1.5.'),
    lineNumbers: z.boolean().optional().describe('Numbers in a gutter at the left; default false.'),
    highlight: LineRefsSchema.optional().describe('Lines to highlight with a tinted band and an accent bar.'),
    focus: LineRefsSchema.optional().describe('Lines to keep bright; every other line dims.'),
    accent: ColorSchema.optional().describe('Highlight bar, band tint and typing cursor; default #58a6ff.'),
    background: ColorSchema.optional().describe("The panel; default the theme's background."),
    window: CodeWindowSchema.optional(),
    padding: LengthSchema.optional().describe(
      'Inside the panel, around the code; default 1.1 × the font size.',
    ),
    radius: LengthSchema.optional().describe('Panel corners; default 18 design pixels.'),
    steps: z
      .array(CodeStepSchema)
      .max(MAX_CODE_STEPS)
      .optional()
      .describe(
        'Later versions the code morphs into, token by token: shared code moves, the rest crossfades.',
      ),
    morphDuration: TimeSchema.optional().describe(
      'How long each morph between versions takes; default 0.8s.',
    ),
  }),
  {
    fixed: ['code', 'steps', 'language', 'theme'],
    refine: (element, context) => {
      const ats = (element.steps ?? []).map((step) => step.at);
      if (ats.some((at) => at !== undefined) && ats.some((at) => at === undefined)) {
        context.addIssue({
          code: 'custom',
          message: 'give "at" on every step or on none (none: the steps spread evenly)',
          path: ['steps'],
        });
      }
    },
  },
);
export type CodeElement = z.infer<typeof CodeElementSchema>;
export { DEFAULT_CODE_LANGUAGE, DEFAULT_CODE_THEME };
