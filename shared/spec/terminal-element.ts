// The terminal element: a window where commands are typed at a human rate and their output (with
// ANSI colours) prints line by line, scrolling when it overflows. Timing is shared/elements'
// terminal-timeline.ts; drawing is terminal-draw.ts.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { ColorSchema } from './color.ts';
import { elementBaseShape } from './element-base.ts';
import { LengthSchema } from './primitives.ts';
import { TimeSchema } from './time.ts';

export const TERMINAL_THEMES = ['dark', 'light', 'dracula'] as const;
export type TerminalTheme = (typeof TERMINAL_THEMES)[number];

export const TERMINAL_WINDOWS = ['mac', 'minimal', 'none'] as const;

export const MAX_TERMINAL_ENTRIES = 40;
export const MAX_TERMINAL_OUTPUT_LINES = 200;
const MAX_COMMAND_CHARS = 400;
const MAX_OUTPUT_CHARS = 10_000;

/** Characters per second a person types: from hunt-and-peck to a fast typist. */
const TypeSpeedSchema = z.number().min(1).max(200);

const EntrySchema = z
  .strictObject({
    command: z
      .string()
      .max(MAX_COMMAND_CHARS)
      .refine((command) => !/[\r\n]/.test(command), 'a command is one line: put line breaks in output')
      .optional()
      .describe('Typed after the prompt, one character at a time; an entry without one only prints output.'),
    output: z
      .string()
      .max(MAX_OUTPUT_CHARS)
      .refine(
        (output) => output.split('\n').length <= MAX_TERMINAL_OUTPUT_LINES,
        `at most ${MAX_TERMINAL_OUTPUT_LINES} lines of output per entry`,
      )
      .optional()
      .describe(
        'Printed after Enter, line by line ("\\n" between lines). ANSI colour codes work: "\\u001b[32m✓\\u001b[0m passed" (16 colours, bright, 256, truecolour, bold, dim, italic, underline). A carriage return ("\\r") redraws the line in place, one part per lineDelay, like a progress bar.',
      ),
    typeSpeed: TypeSpeedSchema.optional().describe('This command: characters per second.'),
    pause: TimeSchema.optional().describe('This command: the wait between its last character and Enter.'),
    lineDelay: TimeSchema.optional().describe('This output: the time between lines (0: all at once).'),
    delay: TimeSchema.optional().describe(
      'The wait before this entry, after the previous one has printed (the first: after the element starts).',
    ),
  })
  .refine((entry) => entry.command !== undefined || entry.output !== undefined, {
    message: 'an entry needs a "command", an "output", or both',
  });
export type TerminalEntry = z.infer<typeof EntrySchema>;

const CursorSchema = z.union([
  z.boolean(),
  z.strictObject({
    shape: z.enum(['block', 'bar', 'underline']).optional().describe('Default block.'),
    blink: z
      .boolean()
      .optional()
      .describe('Blinks while waiting; default true. It never blinks while typing.'),
    color: ColorSchema.optional().describe("Default the theme's."),
  }),
]);

export const TerminalElementSchema = withAspects(
  z.strictObject({
    type: z.literal('terminal'),
    ...elementBaseShape,
    session: z
      .array(EntrySchema)
      .min(1)
      .max(MAX_TERMINAL_ENTRIES)
      .describe('What happens in the terminal, in order: each entry types a command and/or prints output.'),
    title: z.string().max(120).optional().describe('The window title, e.g. "zsh — my-app"; default none.'),
    window: z
      .enum(TERMINAL_WINDOWS)
      .optional()
      .describe(
        'mac (default): a title bar with three dots; minimal: a plain title bar; none: text only, no window.',
      ),
    theme: z
      .enum(TERMINAL_THEMES)
      .optional()
      .describe('Colours of the window, text and the 16 ANSI colours: dark (default), light, dracula.'),
    prompt: z.string().max(40).optional().describe('Shown before each command; default "$ ".'),
    promptColor: ColorSchema.optional().describe("Default the theme's (green on dark)."),
    cursor: CursorSchema.optional().describe('A blinking block after the prompt by default; false hides it.'),
    size: LengthSchema.optional().describe('Font size of the terminal text; default 28 design pixels.'),
    lineHeight: z.number().min(1).max(3).optional().describe('Multiple of the font size; default 1.5.'),
    rows: z
      .number()
      .int()
      .min(1)
      .max(100)
      .optional()
      .describe(
        'Rows of text the window shows; older lines scroll up past it. Default: every line, as far as the box allows.',
      ),
    typeSpeed: TypeSpeedSchema.optional().describe(
      'Characters per second, with slight human variation; default 18.',
    ),
    pause: TimeSchema.optional().describe(
      'The wait between the last typed character and Enter; default 0.4s.',
    ),
    lineDelay: TimeSchema.optional().describe(
      'The time between output lines; default 0.05s (0: all at once).',
    ),
    startDelay: TimeSchema.optional().describe(
      'The wait before the first command is typed, with the prompt blinking; default 0.5s.',
    ),
    gap: TimeSchema.optional().describe(
      'The wait after an output before the next command is typed; default 0.6s.',
    ),
  }),
);
export type TerminalElement = z.infer<typeof TerminalElementSchema>;
