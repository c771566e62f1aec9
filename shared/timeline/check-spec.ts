// Spec data to a checked video, the one way every host does it: the template's variables bound to the
// render's values first, then the schema, then the timeline's own rules (ids, triggers, timing). The
// render API, the CLI, the workspace and the studio's browser preview all call this, so a value or a
// spec the preview refuses is refused by the export with the same words.
import type { VideoSpec } from '../spec/schema.ts';
import { SpecValidationError, parseSpec } from '../spec/validate.ts';
import type { SpecIssue } from '../spec/validate.ts';
import { VariableBindingError, bindVariables } from '../spec/variables.ts';
import type { VariableIssue, VariableValues } from '../spec/variables.ts';
import { semanticIssues } from './check.ts';

export type CheckedSpec =
  { ok: true; spec: VideoSpec } | { ok: false; issues: (SpecIssue | VariableIssue)[] };

/**
 * Validates spec data: its template variables bound to `values` first (a spec without `variables`
 * takes none), then the schema, then the timeline's rules. Issues about the values carry
 * `in: 'variables'` and point into the values.
 */
export function checkSpec(value: unknown, values: VariableValues = {}): CheckedSpec {
  const bound = bindVariables(value, values);
  if (!bound.ok) return bound;
  const result = parseSpec(bound.spec);
  if (!result.ok) return result;
  const issues = semanticIssues(result.spec);
  return issues.length > 0 ? { ok: false, issues } : result;
}

/**
 * The checked video of spec data with `values` bound, or the error a render throws: a
 * VariableBindingError when the values (or the declarations) do not bind, else a SpecValidationError.
 */
export function specModel(value: unknown, values: VariableValues = {}): VideoSpec {
  const checked = checkSpec(value, values);
  if (checked.ok) return checked.spec;
  const binding = checked.issues.filter((issue): issue is VariableIssue => 'in' in issue);
  if (binding.length > 0) throw new VariableBindingError(binding);
  throw new SpecValidationError(checked.issues);
}
