// An edit is answered with an RFC 6902 patch against the base spec, never a whole new spec: the model
// writes only what changes, and whatever it did not touch stays exactly as it was.
//
// The answer's shape is {"patch": [{op, path, from, value}]}: providers want an object at the root,
// and OpenAI's strict mode holds every field to one type, so `value` travels as JSON text (a number,
// a string, an element…) and `from` and `value` are null where an operation has none.
import { applyPatch, createPatch } from 'rfc6902';
import type { Operation } from 'rfc6902';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import type { SpecIssue } from '../../shared/spec/validate.ts';
import type { JsonSchema } from './model-schema.ts';

const OPS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const;

/** The edit answer's schema: within every provider's structured-output rules as it is. */
export const EDIT_PATCH_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    patch: {
      type: 'array',
      description: 'RFC 6902 operations that turn the base spec into the changed one, applied in order.',
      items: {
        type: 'object',
        properties: {
          op: { type: 'string', enum: [...OPS] },
          path: {
            type: 'string',
            description: 'A JSON pointer into the spec, such as /scenes/0/elements/1/text.',
          },
          from: {
            type: ['string', 'null'],
            description: 'move and copy: the pointer to take the value from.',
          },
          value: {
            type: ['string', 'null'],
            description:
              'add, replace and test: the value as JSON text, such as "\\"Hello\\"", "96" or "{\\"type\\":\\"text\\",…}".',
          },
        },
        required: ['op', 'path', 'from', 'value'],
        additionalProperties: false,
      },
    },
  },
  required: ['patch'],
  additionalProperties: false,
};

type Decoded = { operations: Operation[] } | { errors: SpecIssue[] };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operations of an edit answer, with `value` parsed from its JSON text. */
export function decodePatch(answer: unknown): Decoded {
  const patch = isRecord(answer) ? answer.patch : undefined;
  if (!Array.isArray(patch)) {
    return { errors: [{ pointer: '/patch', message: 'expected {"patch": [RFC 6902 operations]}' }] };
  }
  const operations: Operation[] = [];
  const errors: SpecIssue[] = [];
  for (const [index, entry] of patch.entries()) {
    const at = `/patch/${index}`;
    if (!isRecord(entry) || !OPS.includes(entry.op as never) || typeof entry.path !== 'string') {
      errors.push({
        pointer: at,
        message: 'expected {op, path, from, value} with op one of ' + OPS.join(', '),
      });
      continue;
    }
    const operation: Record<string, unknown> = { op: entry.op, path: entry.path };
    if (entry.op === 'move' || entry.op === 'copy') {
      if (typeof entry.from !== 'string') {
        errors.push({ pointer: `${at}/from`, message: `${entry.op} needs "from"` });
        continue;
      }
      operation.from = entry.from;
    }
    if (entry.op === 'add' || entry.op === 'replace' || entry.op === 'test') {
      const value = entry.value;
      if (typeof value !== 'string') {
        // A provider without strict mode may answer the value as JSON itself: take it as it is.
        if (value === undefined) {
          errors.push({ pointer: `${at}/value`, message: `${entry.op} needs "value" (JSON text)` });
          continue;
        }
        operation.value = value;
      } else {
        try {
          operation.value = JSON.parse(value) as unknown;
        } catch {
          errors.push({ pointer: `${at}/value`, message: `"value" is not JSON text: ${value.slice(0, 80)}` });
          continue;
        }
      }
    }
    operations.push(operation as unknown as Operation);
  }
  return errors.length > 0 ? { errors } : { operations };
}

/** The model's answer to an edit applied to a copy of the base, or what went wrong. */
export function applyEdit(base: VideoSpec, answer: unknown): { value: unknown } | { errors: SpecIssue[] } {
  const decoded = decodePatch(answer);
  if ('errors' in decoded) return decoded;
  const value = structuredClone(base) as unknown;
  const results = applyPatch(value, decoded.operations);
  const errors = results.flatMap((result, index) =>
    result ? [{ pointer: `/patch/${index}`, message: `cannot apply: ${result.message}` }] : [],
  );
  return errors.length > 0 ? { errors } : { value };
}

/** Pointers of the values an edit changed (added, removed or replaced), without duplicates. */
export function changedPointers(base: unknown, changed: unknown): string[] {
  return [...new Set(createPatch(base, changed).map((operation) => operation.path))].sort();
}
