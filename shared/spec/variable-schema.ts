// The declaration of template variables: the part of a template spec the schema documents. Binding
// values to them is variables.ts.
import { z } from 'zod';

export const VARIABLE_TYPES = ['string', 'number', 'boolean', 'color', 'image', 'clip'] as const;
export type VariableType = (typeof VARIABLE_TYPES)[number];

/** A letter or _, then letters, digits or _; never `__proto__`, which plain objects cannot hold as data. */
export const VARIABLE_NAME_PATTERN = /^(?!__proto__$)[A-Za-z_][A-Za-z0-9_]{0,63}$/;
export const MAX_VARIABLES = 64;
/** The most values a choice variable offers. */
export const MAX_OPTIONS = 100;
/** The longest string value a variable takes; text fields have their own, smaller limits after binding. */
export const MAX_STRING_VALUE = 10_000;
/** How much longer binding may make the spec's strings, in characters: a bound on the cost of repeats. */
export const MAX_BOUND_GROWTH = 2_000_000;

export const VariableSchema = z
  .strictObject({
    type: z.enum(VARIABLE_TYPES),
    default: z
      .union([z.string(), z.number(), z.boolean()])
      .optional()
      .describe('Used when the render gives no value. Without one the variable is required.'),
    description: z.string().max(500).optional().describe('What the value is for, shown by `kino templates`.'),
    min: z.number().optional().describe('number: the smallest value accepted.'),
    max: z.number().optional().describe('number: the largest value accepted.'),
    maxLength: z
      .number()
      .int()
      .min(1)
      .max(MAX_STRING_VALUE)
      .optional()
      .describe('string: the most characters accepted.'),
    options: z
      .array(z.union([z.string().max(200), z.number()]))
      .min(1)
      .max(MAX_OPTIONS)
      .optional()
      .describe('string or number: the only values accepted, a choice (the studio shows a menu).'),
  })
  .describe(
    'A template variable. Use it as "{{name}}" inside any string, or as {"var": "name"} for a whole value (numbers, colours, media).',
  );
export type Variable = z.infer<typeof VariableSchema>;

export const VariablesSchema = z
  .record(
    z.string().regex(VARIABLE_NAME_PATTERN, 'a variable name is a letter or _ then letters, digits or _'),
    VariableSchema,
  )
  .refine((record) => Object.keys(record).length <= MAX_VARIABLES, `at most ${MAX_VARIABLES} variables`)
  .describe('Template variables by name; a render binds values to them (CLI --var, API "variables").');
export type Variables = z.infer<typeof VariablesSchema>;
