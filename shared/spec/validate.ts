// Spec validation with every error reported at its JSON pointer.
import type { z } from 'zod';
import { VideoSpecSchema } from './schema.ts';
import type { VideoSpec } from './schema.ts';
import { TOO_DEEP_MESSAGE, tooDeepGroup } from './nesting.ts';
import { ASPECT_NAMES } from './sizes.ts';

export interface SpecIssue {
  /** RFC 6901 JSON pointer into the input ("" is the whole document). */
  pointer: string;
  message: string;
}

export type SpecParseResult = { ok: true; spec: VideoSpec } | { ok: false; issues: SpecIssue[] };

export function toJsonPointer(path: readonly PropertyKey[]): string {
  return path.map((key) => '/' + String(key).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}

type Issue = z.core.$ZodIssue;

/**
 * A union error lists each branch's issues; report the branch that got furthest into the input
 * (the one whose issues have the deepest paths), which is the one the author meant.
 */
function flatten(issue: Issue, prefix: readonly PropertyKey[]): SpecIssue[] {
  const path = [...prefix, ...issue.path];
  if (issue.code === 'invalid_union' && issue.errors.length > 0) {
    const depth = (branch: Issue[]) => Math.max(...branch.map((i) => i.path.length));
    const best = [...issue.errors].sort((a, b) => depth(b) - depth(a))[0]!;
    if (depth(best) > 0) return best.flatMap((inner) => flatten(inner, path));
  }
  if (issue.code === 'unrecognized_keys') {
    // In a scene's or element's `aspects` the keys are aspect names, not fields.
    const message =
      path.at(-1) === 'aspects' ? `unknown aspect; use ${ASPECT_NAMES.join(', ')}` : 'unknown field';
    return issue.keys.map((key) => ({ pointer: toJsonPointer([...path, key]), message }));
  }
  return [{ pointer: toJsonPointer(path), message: issue.message }];
}

export function formatIssues(error: z.ZodError): SpecIssue[] {
  const seen = new Set<string>();
  return error.issues
    .flatMap((issue) => flatten(issue, []))
    .filter((issue) => {
      const key = `${issue.pointer}\n${issue.message}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
}

/** A spec nested too deep for the validator to walk safely, as its one issue. */
export function nestingIssues(input: unknown): SpecIssue[] | undefined {
  const path = tooDeepGroup(input);
  return path ? [{ pointer: toJsonPointer(path), message: TOO_DEEP_MESSAGE }] : undefined;
}

/**
 * A spec that still declares `variables` is a template no one bound: its `{{name}}` would render as
 * text. The schema documents the field; only binding (which drops it) makes such a spec renderable.
 */
export function unboundTemplateIssues(input: unknown): SpecIssue[] | undefined {
  if (typeof input !== 'object' || input === null || !('variables' in input)) return undefined;
  return [{ pointer: '/variables', message: UNBOUND_TEMPLATE_MESSAGE }];
}

export const UNBOUND_TEMPLATE_MESSAGE =
  'this spec is a template: bind its variables first (a render gives values with --var or "variables"), or remove "variables"';

export function parseSpec(input: unknown): SpecParseResult {
  const refused = nestingIssues(input) ?? unboundTemplateIssues(input);
  if (refused) return { ok: false, issues: refused };
  const result = VideoSpecSchema.safeParse(input);
  if (result.success) return { ok: true, spec: result.data };
  return { ok: false, issues: formatIssues(result.error) };
}

export class SpecValidationError extends Error {
  readonly issues: SpecIssue[];
  constructor(issues: SpecIssue[]) {
    super(
      `invalid spec (${issues.length} error${issues.length === 1 ? '' : 's'}): ` +
        issues.map((i) => `${i.pointer || '/'}: ${i.message}`).join('; '),
    );
    this.name = 'SpecValidationError';
    this.issues = issues;
  }
}

export function assertSpec(input: unknown): VideoSpec {
  const result = parseSpec(input);
  if (!result.ok) throw new SpecValidationError(result.issues);
  return result.spec;
}
