// The counter element: a number that counts from one value to another, formatted with
// Intl.NumberFormat, drawn like text with digits of one width so they do not jitter as they change.
import { z } from 'zod';
import { withAspects } from './aspect-overrides.ts';
import { elementBaseShape } from './element-base.ts';
import { EasingSchema } from './primitives.ts';
import { textDecorationShape, textFontShape } from './text-element.ts';
import { TimeSchema } from './time.ts';

/** Beyond this a double no longer holds every integer, and no one counts that far on screen. */
export const MAX_COUNTER_VALUE = 1e15;

const CounterValueSchema = z.number().finite().min(-MAX_COUNTER_VALUE).max(MAX_COUNTER_VALUE);
const FractionDigitsSchema = z.number().int().min(0).max(20);

export const CounterFormatSchema = z
  .strictObject({
    style: z
      .enum(['decimal', 'percent', 'currency', 'unit'])
      .optional()
      .describe('Default decimal. percent shows 0.42 as 42%.'),
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'an ISO 4217 code like "USD" or "EUR"')
      .optional()
      .describe('With style currency.'),
    currencyDisplay: z.enum(['symbol', 'narrowSymbol', 'code', 'name']).optional(),
    unit: z
      .string()
      .min(1)
      .max(60)
      .optional()
      .describe('With style unit: a unit like "kilometer", "percent" or "megabyte-per-second".'),
    unitDisplay: z.enum(['short', 'narrow', 'long']).optional(),
    notation: z
      .enum(['standard', 'compact', 'scientific', 'engineering'])
      .optional()
      .describe('compact shows 1200000 as 1.2M.'),
    compactDisplay: z.enum(['short', 'long']).optional(),
    signDisplay: z.enum(['auto', 'always', 'exceptZero', 'negative', 'never']).optional(),
    useGrouping: z.boolean().optional().describe('Thousands separators; default true.'),
    minimumFractionDigits: FractionDigitsSchema.optional(),
    maximumFractionDigits: FractionDigitsSchema.optional(),
  })
  .describe('Intl.NumberFormat options.');
export type CounterFormat = z.infer<typeof CounterFormatSchema>;

export const CounterElementSchema = withAspects(
  z.strictObject({
    type: z.literal('counter'),
    ...elementBaseShape,
    to: CounterValueSchema.describe('The value it counts to.'),
    from: CounterValueSchema.optional().describe('The value it starts at; default 0.'),
    countDelay: TimeSchema.optional().describe('When counting starts, from the element start; default 0.'),
    countDuration: TimeSchema.optional().describe('How long counting takes; default 1.5s.'),
    easing: EasingSchema.optional().describe('Default "out": fast at first, settling on the value.'),
    locale: z
      .string()
      .min(2)
      .max(35)
      .optional()
      .describe('A BCP 47 locale like "en-US", "de-DE" or "hi-IN"; default "en-US".'),
    decimals: z
      .number()
      .int()
      .min(0)
      .max(6)
      .optional()
      .describe(
        'Digits after the decimal point, while counting and at the end; default those of from and to.',
      ),
    format: CounterFormatSchema.optional(),
    prefix: z.string().max(50).optional().describe('Text before the number, like "$" or "+".'),
    suffix: z.string().max(50).optional().describe('Text after the number, like "+" or " users".'),
    ...textFontShape,
    ...textDecorationShape,
  }),
  {
    refine: (counter, context) => {
      // The same check Intl makes when drawing, made here so a bad locale or unit is a spec error.
      try {
        new Intl.NumberFormat(counter.locale ?? 'en-US', counter.format);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const path =
          counter.locale !== undefined && /locale|language tag/i.test(reason) ? ['locale'] : ['format'];
        context.addIssue({ code: 'custom', message: `Intl.NumberFormat refuses it: ${reason}`, path });
      }
    },
  },
);
export type CounterElement = z.infer<typeof CounterElementSchema>;
