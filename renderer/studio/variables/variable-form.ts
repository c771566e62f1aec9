// The variables form's values: what each input holds (text as typed, a checkbox's boolean), read as the
// declared types exactly as `--var name=text` reads them, and checked by the render's own code
// (resolveVariableValues), so the form shows the messages the API and the workspace give.
import type { Variable, Variables } from '../../../shared/spec/variable-schema.ts';
import { resolveVariableValues, variableFromText } from '../../../shared/spec/variables.ts';

/** What an input holds: the text typed, or a checkbox's state. */
export type FormEntry = string | boolean;

/** The control a variable gets. */
export type FieldControl = 'text' | 'number' | 'checkbox' | 'color' | 'media' | 'choice';

export function controlOf(variable: Variable): FieldControl {
  if (variable.options) return 'choice';
  switch (variable.type) {
    case 'number':
      return 'number';
    case 'boolean':
      return 'checkbox';
    case 'color':
      return 'color';
    case 'image':
    case 'clip':
      return 'media';
    default:
      return 'text';
  }
}

/** A value as a job body carries it (`variables` in shared/protocol/variable-values.ts). */
export type FormValue = string | number | boolean;

/** The value an entry stands for, read as the declared type (a number from its text). */
export function valueOfEntry(variable: Variable | undefined, entry: FormEntry): FormValue {
  // variableFromText gives the text back, or the number or boolean it reads.
  return typeof entry === 'boolean' ? entry : (variableFromText(variable, entry) as FormValue);
}

/** What an input shows for a variable: its entry when edited, else its default (empty without one). */
export function entryShown(variable: Variable, entries: Record<string, FormEntry>, name: string): FormEntry {
  if (Object.hasOwn(entries, name)) return entries[name]!;
  if (variable.type === 'boolean') return variable.default === true;
  return variable.default === undefined ? '' : String(variable.default);
}

/**
 * The values a render is asked for: the edited ones that are still declared (a source edit may have
 * removed a variable), read as their types. Unedited variables are left to their defaults.
 */
export function valuesOf(
  declared: Variables | undefined,
  entries: Record<string, FormEntry>,
): Record<string, FormValue> {
  if (!declared) return {};
  return Object.fromEntries(
    Object.entries(entries)
      .filter(([name]) => Object.hasOwn(declared, name))
      .map(([name, entry]) => [name, valueOfEntry(declared[name], entry)]),
  );
}

/** Why each value does not fit, by variable name, in the words a render answers with. */
export function valueProblems(
  declared: Variables | undefined,
  entries: Record<string, FormEntry>,
): Record<string, string> {
  if (!declared) return {};
  const resolved = resolveVariableValues(declared, valuesOf(declared, entries));
  if (resolved.ok) return {};
  return Object.fromEntries(
    resolved.issues.map((issue) => [
      issue.pointer.slice(1).replaceAll('~1', '/').replaceAll('~0', '~'),
      issue.message,
    ]),
  );
}

/** A colour the colour picker can show (#rrggbb), when the value is one it can. */
export function pickerColor(text: string): string | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim())?.[1];
  if (!hex) return undefined;
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  return `#${full.toLowerCase()}`;
}

/** A short line about the declaration: type, limits, default. */
export function declarationHint(variable: Variable): string {
  const parts: string[] = [variable.type];
  if (variable.min !== undefined) parts.push(`≥ ${variable.min}`);
  if (variable.max !== undefined) parts.push(`≤ ${variable.max}`);
  if (variable.maxLength !== undefined) parts.push(`≤ ${variable.maxLength} chars`);
  if (variable.options) parts.push(`${variable.options.length} choices`);
  parts.push(variable.default === undefined ? 'required' : `default ${JSON.stringify(variable.default)}`);
  return parts.join(' · ');
}
