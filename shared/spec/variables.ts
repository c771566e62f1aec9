// Template variables: a spec declares typed variables, uses them as `{{name}}` inside strings or as
// `{"var": "name"}` for a whole value, and a render binds values to them before anything else reads
// the spec. Binding comes before validation and media resolution on purpose: the bound spec is an
// ordinary spec, so every schema rule and the media policy apply to the values exactly as they would
// to the same values typed in by hand.
import { z } from 'zod';
import { MAX_BOUND_GROWTH, MAX_STRING_VALUE, VariablesSchema } from './variable-schema.ts';
import type { Variable, VariableType, Variables } from './variable-schema.ts';
import { ColorSchema } from './color.ts';
import { MediaSourceSchema } from './primitives.ts';
import type { SpecIssue } from './validate.ts';
import { formatIssues, toJsonPointer } from './validate.ts';
import { VariableText } from './variable-text.ts';

/** How deep binding walks a spec; a deeper one is refused rather than risk the stack. */
const MAX_WALK_DEPTH = 100;

// Declared on its own so the CLI can read --var without loading this module; exported here too.
export { VariableText };

/** Values a render gives, by variable name, as JSON carries them (or as VariableText). */
export type VariableValues = Record<string, unknown>;
export type BoundValue = string | number | boolean;

/**
 * Where an issue is: in the spec (a declaration or a use, pointer into the spec) or in the values
 * the render gave (pointer into the values object, "/name").
 */
export type VariableIssue = SpecIssue & { in: 'spec' | 'variables' };

const TYPE_SCHEMAS: Record<VariableType, z.ZodType> = {
  string: z.string(),
  number: z.number().finite(),
  boolean: z.boolean(),
  color: ColorSchema,
  image: MediaSourceSchema,
  clip: MediaSourceSchema,
};

const TYPE_WORDS: Record<VariableType, string> = {
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
  color: 'a CSS colour',
  image: 'an image source ("asset:<path>" or an allowed URL)',
  clip: 'a video source ("asset:<path>" or an allowed URL)',
};

/** Why `value` is not a good value for `declared`, or undefined when it is. */
export function variableValueProblem(declared: Variable, value: unknown): string | undefined {
  const result = TYPE_SCHEMAS[declared.type].safeParse(value);
  if (!result.success) {
    const got =
      value === null
        ? 'null'
        : Array.isArray(value)
          ? 'an array'
          : typeof value === 'object'
            ? 'an object'
            : String(JSON.stringify(value)).slice(0, 60);
    return `expected ${TYPE_WORDS[declared.type]}, got ${got}`;
  }
  if (declared.type === 'number' && typeof value === 'number') {
    if (declared.min !== undefined && value < declared.min) return `must be at least ${declared.min}`;
    if (declared.max !== undefined && value > declared.max) return `must be at most ${declared.max}`;
  }
  if (typeof value === 'string') {
    const limit = declared.type === 'string' ? (declared.maxLength ?? MAX_STRING_VALUE) : MAX_STRING_VALUE;
    if ([...value].length > limit) return `must be at most ${limit} characters`;
  }
  if (declared.options && !declared.options.includes(value as string | number)) {
    const shown = declared.options.slice(0, 10).map((option) => JSON.stringify(option));
    return `must be one of ${shown.join(', ')}${declared.options.length > 10 ? ', …' : ''}`;
  }
  return undefined;
}

function declaredList(declared: Variables): string {
  const names = Object.keys(declared).sort();
  return names.length > 0 ? `this template declares ${names.join(', ')}` : 'this video declares no variables';
}

/**
 * Every declared variable's value: the given one, else its default. Unknown names, missing required
 * values and values of the wrong type are issues at "/name" of the values.
 */
export function resolveVariableValues(
  declared: Variables,
  given: VariableValues = {},
): { ok: true; values: Record<string, BoundValue> } | { ok: false; issues: VariableIssue[] } {
  const issues: VariableIssue[] = [];
  const at = (name: string, message: string) =>
    issues.push({ in: 'variables', pointer: toJsonPointer([name]), message });
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(declared, name)) at(name, `unknown variable "${name}": ${declaredList(declared)}`);
  }
  const values: Record<string, BoundValue> = {};
  for (const [name, variable] of Object.entries(declared)) {
    const givenValue = Object.hasOwn(given, name) ? given[name] : variable.default;
    const value =
      givenValue instanceof VariableText ? variableFromText(variable, givenValue.text) : givenValue;
    if (value === undefined) {
      at(name, `variable "${name}" (${variable.type}) is required: the template gives it no default`);
      continue;
    }
    const problem = variableValueProblem(variable, value);
    if (problem) at(name, `variable "${name}" (${variable.type}): ${problem}`);
    else values[name] = value as BoundValue;
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, values };
}

/** `{{name}}`, spaces allowed inside the braces; the name is group 1. */
export const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `{"var": "name"}`: an object with that one field and nothing else. */
export function variableReference(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === 'var' && typeof value.var === 'string' ? value.var : undefined;
}

/** The names a string uses as `{{name}}`, in order. */
export function placeholderNames(text: string): string[] {
  return [...text.matchAll(PLACEHOLDER)].map((match) => match[1]!);
}

/**
 * Replaces every use of a variable in `spec` (all but its `variables` field) with its value:
 * `{{name}}` inside a string becomes the value as text, `{"var": "name"}` the value itself. A use of
 * an undeclared name is an issue at the pointer where it stands. Functions (custom draw in code) are
 * kept by reference.
 */
export function substituteVariables(
  spec: Record<string, unknown>,
  values: Record<string, BoundValue>,
): { ok: true; spec: Record<string, unknown> } | { ok: false; issues: VariableIssue[] } {
  const issues: VariableIssue[] = [];
  let growth = 0;
  const unknown = (path: (string | number)[], name: string) =>
    issues.push({
      in: 'spec',
      pointer: toJsonPointer(path),
      message: `unknown variable "${name}": declare it under "variables"`,
    });

  const walk = (value: unknown, path: (string | number)[]): unknown => {
    if (path.length > MAX_WALK_DEPTH) {
      issues.push({
        in: 'spec',
        pointer: toJsonPointer(path),
        message: `nested deeper than ${MAX_WALK_DEPTH} levels`,
      });
      return value;
    }
    if (typeof value === 'string') {
      if (!value.includes('{{')) return value;
      const bound = value.replace(PLACEHOLDER, (whole, name: string) => {
        if (!Object.hasOwn(values, name)) {
          unknown(path, name);
          return whole;
        }
        return String(values[name]);
      });
      growth += Math.max(0, bound.length - value.length);
      return bound;
    }
    if (Array.isArray(value)) return value.map((item, index) => walk(item, [...path, index]));
    const name = variableReference(value);
    if (name !== undefined) {
      if (!Object.hasOwn(values, name)) {
        unknown(path, name);
        return value;
      }
      const bound = values[name]!;
      // A short reference stands for a value up to MAX_STRING_VALUE long: it counts like a placeholder.
      if (typeof bound === 'string') growth += Math.max(0, bound.length - JSON.stringify(value).length);
      return bound;
    }
    if (isRecord(value)) {
      // fromEntries makes a "__proto__" key an own field (as JSON has it), never the copy's prototype.
      return Object.fromEntries(
        Object.entries(value).map(([key, field]) => [key, walk(field, [...path, key])]),
      );
    }
    return value;
  };

  const { variables: _declared, ...rest } = spec;
  const bound = walk(rest, []) as Record<string, unknown>;
  if (growth > MAX_BOUND_GROWTH) {
    issues.push({
      in: 'spec',
      pointer: '',
      message: `binding the variables makes the spec ${growth} characters longer, over the limit of ${MAX_BOUND_GROWTH}: use long values in fewer places`,
    });
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, spec: bound };
}

/**
 * Whether rendering `spec` with `values` binds a template: then what renders (the bound spec) is
 * not what was sent, and a job shows the bound one.
 */
export function bindsTemplate(spec: unknown, values: VariableValues | undefined): boolean {
  return values !== undefined || (isRecord(spec) && spec.variables !== undefined);
}

/**
 * A value that fits each declaration, for checking a template's own structure when no render has
 * given values yet: the default, else the least value its type and limits allow.
 */
export function sampleValues(declared: Variables): Record<string, BoundValue> {
  const sample = (variable: Variable): BoundValue => {
    if (variable.default !== undefined) return variable.default;
    if (variable.options) return variable.options[0]!;
    switch (variable.type) {
      case 'string':
        return 'x';
      case 'number':
        return variable.min ?? Math.min(0, variable.max ?? 0);
      case 'boolean':
        return false;
      case 'color':
        return '#000000';
      case 'image':
        return 'asset:sample.png';
      case 'clip':
        return 'asset:sample.mp4';
    }
  };
  return Object.fromEntries(Object.entries(declared).map(([name, variable]) => [name, sample(variable)]));
}

/** The declarations of a template spec, or the issues in them (pointers at /variables/…). */
export function parseVariables(
  spec: unknown,
): { ok: true; variables: Variables | undefined } | { ok: false; issues: VariableIssue[] } {
  if (!isRecord(spec) || spec.variables === undefined) return { ok: true, variables: undefined };
  // zod's record would take this key as the result's prototype and drop it without a word.
  if (isRecord(spec.variables) && Object.hasOwn(spec.variables, '__proto__')) {
    return {
      ok: false,
      issues: [
        { in: 'spec', pointer: '/variables/__proto__', message: '"__proto__" cannot be a variable name' },
      ],
    };
  }
  const result = VariablesSchema.safeParse(spec.variables);
  if (!result.success) {
    return {
      ok: false,
      issues: formatIssues(result.error).map((issue) => ({
        in: 'spec',
        pointer: `/variables${issue.pointer}`,
        message: issue.message,
      })),
    };
  }
  const issues: VariableIssue[] = [];
  for (const [name, variable] of Object.entries(result.data)) {
    const at = (field: string, message: string) =>
      issues.push({ in: 'spec', pointer: `/variables/${name}/${field}`, message });
    // A limit on the wrong type would be ignored: say so rather than accept it.
    if (variable.type !== 'number') {
      if (variable.min !== undefined) at('min', 'min applies to number variables only');
      if (variable.max !== undefined) at('max', 'max applies to number variables only');
    } else if (variable.min !== undefined && variable.max !== undefined && variable.min > variable.max) {
      at('max', `max (${variable.max}) is below min (${variable.min})`);
    }
    if (variable.type !== 'string' && variable.maxLength !== undefined) {
      at('maxLength', 'maxLength applies to string variables only');
    }
    if (variable.options) {
      if (variable.type !== 'string' && variable.type !== 'number') {
        at('options', 'options apply to string and number variables only');
      } else {
        // Each choice must be a value the variable itself accepts (its type and limits).
        const { options: _, ...plain } = variable;
        variable.options.forEach((option, index) => {
          const problem = variableValueProblem(plain, option);
          if (problem) at(`options/${index}`, problem);
        });
      }
    }
    if (variable.default === undefined) continue;
    const problem = variableValueProblem(variable, variable.default);
    if (problem) at('default', problem);
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, variables: result.data };
}

export type BindResult =
  | {
      ok: true;
      /** The spec with every variable replaced and no `variables` field: an ordinary spec. */
      spec: unknown;
      variables: Variables | undefined;
      values: Record<string, BoundValue>;
    }
  | { ok: false; issues: VariableIssue[] };

/**
 * Binds `given` values to a spec's variables. A spec without `variables` is returned as it is (its
 * `{{` text is plain text then), and any value given to it is an unknown variable.
 */
export function bindVariables(spec: unknown, given: VariableValues = {}): BindResult {
  const declared = parseVariables(spec);
  if (!declared.ok) return declared;
  if (!declared.variables) {
    const unknownValues = resolveVariableValues({}, given);
    if (!unknownValues.ok) return unknownValues;
    return { ok: true, spec, variables: undefined, values: {} };
  }
  const resolved = resolveVariableValues(declared.variables, given);
  if (!resolved.ok) return resolved;
  const substituted = substituteVariables(spec as Record<string, unknown>, resolved.values);
  if (!substituted.ok) return substituted;
  return { ok: true, spec: substituted.spec, variables: declared.variables, values: resolved.values };
}

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * A value typed on a command line (`--var name=text`) as the declared type: numbers and booleans
 * are read from the text; the other types take the text as it is.
 */
export function variableFromText(variable: Variable | undefined, text: string): unknown {
  if (variable?.type === 'number') {
    // Decimal only: Number() would also read "0x10", "0b101" and "Infinity".
    const trimmed = text.trim();
    return DECIMAL.test(trimmed) && Number.isFinite(Number(trimmed)) ? Number(trimmed) : text;
  }
  if (variable?.type === 'boolean') {
    const lower = text.trim().toLowerCase();
    if (['true', 'yes', '1', 'on'].includes(lower)) return true;
    if (['false', 'no', '0', 'off'].includes(lower)) return false;
  }
  return text;
}

/** A render's values do not fit the template: unknown, missing or mistyped variables, or bad uses. */
export class VariableBindingError extends Error {
  readonly issues: VariableIssue[];

  constructor(issues: VariableIssue[]) {
    super(
      `the template's variables do not bind (${issues.length} error${issues.length === 1 ? '' : 's'}): ` +
        issues.map((issue) => issue.message).join('; '),
    );
    this.name = 'VariableBindingError';
    this.issues = issues;
  }
}
