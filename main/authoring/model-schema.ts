// The schemas a model is asked to answer in, derived from the one zod spec schema so they cannot
// drift from what validation accepts. The validation schema (videoSpecJsonSchema) repeats each shared
// building block wherever it is used and describes every field; sent to a provider it costs ≈ 60k
// tokens per call. Here the same schema is made compact (repeated parts become $defs, descriptions
// and renderer safety caps go, fields a model never writes are left out), then shaped for what each
// provider's structured output takes (provider-schema-rules.ts holds their rules).
import { z } from 'zod';
import { VideoSpecSchema } from '../../shared/spec/schema.ts';

export type JsonSchema = Record<string, unknown>;

/**
 * The shape a provider's structured output is given:
 * - `json-schema`: the compact schema as it is (Anthropic's json tool, OpenAI-compatible servers);
 * - `openai-strict`: OpenAI's strict subset, optional fields required-and-nullable;
 * - `object`: only "an object", for a provider that cannot take the schema (Google's responseJsonSchema
 *   rejects large schemas without documenting the limit); the schema then goes in the instructions.
 */
export type SchemaDialect = 'json-schema' | 'openai-strict' | 'object';

/** Spec fields a model never writes: `$schema` is for editors, `variables` makes an unrendered template. */
const FIELDS_NOT_AUTHORED = ['$schema', 'variables'];

/**
 * Scene and element fields a model never writes: `aspects` (per-aspect overrides) repeats every
 * element's fields once more, doubling the schema, and a model writes one layout for the aspect it is
 * asked for (the reflow keeps its text inside any other aspect). An edit's patch can still add them.
 */
const NESTED_FIELDS_NOT_AUTHORED = new Set(['aspects']);

/**
 * Keywords a model does without: the spec guide in the instructions says what each field means (the
 * descriptions would say it a second time, ≈ 4k tokens), and string lengths are caps that validation
 * holds anyway (an answer over one comes back as a repair).
 */
const KEYWORDS_DROPPED = new Set([
  '$schema',
  '$id',
  'title',
  'description',
  'default',
  'examples',
  'minLength',
  'maxLength',
]);

/** Parts repeated at least this long (as JSON) become a $def; shorter ones cost less inline. */
const MIN_SHARED_LENGTH = 80;

/**
 * Bounds that only guard the renderer (a 100,000 px length, 500 elements a scene): no real video
 * comes near them, and validation still holds them, so a model need not read them.
 */
function isSafetyCap(key: string, value: unknown): boolean {
  if (typeof value !== 'number') return false;
  if (key === 'maxItems') return value >= 32;
  if (key === 'minimum' || key === 'maximum') return Math.abs(value) >= 10_000;
  return false;
}

const isRecord = (value: unknown): value is JsonSchema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy without the dropped keywords, caps and fields a model never writes. */
function trim(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(trim);
  if (!isRecord(node)) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (KEYWORDS_DROPPED.has(key) || isSafetyCap(key, value)) continue;
    if (key === 'properties') {
      const kept = Object.entries(value as JsonSchema).filter(
        ([name]) => !NESTED_FIELDS_NOT_AUTHORED.has(name),
      );
      out[key] = Object.fromEntries(kept.map(([name, v]) => [name, trim(v)]));
    } else if (key === '$defs') {
      out[key] = Object.fromEntries(Object.entries(value as JsonSchema).map(([name, v]) => [name, trim(v)]));
    } else out[key] = trim(value);
  }
  return out;
}

const pascal = (name: string) =>
  name.replace(/(^|[^A-Za-z0-9])([A-Za-z0-9])/g, (_, _sep, c: string) => c.toUpperCase()).replace(/\W/g, '');

/**
 * Repeated subschemas moved to $defs, named after the property they first appear under. The largest
 * repeat goes first, so a shared part's own repeated parts become references inside its definition
 * on a later pass.
 */
function share(root: JsonSchema, minLength = MIN_SHARED_LENGTH): JsonSchema {
  const defs: Record<string, JsonSchema> = { ...((root.$defs as Record<string, JsonSchema>) ?? {}) };
  let body: JsonSchema = { ...root };
  delete body.$defs;
  const isRef = (node: JsonSchema) => typeof node.$ref === 'string' && Object.keys(node).length === 1;
  for (;;) {
    const seen = new Map<string, { count: number; name: string }>();
    const visit = (node: unknown, name: string, top: boolean) => {
      if (Array.isArray(node)) return node.forEach((item) => visit(item, name, false));
      if (!isRecord(node)) return;
      if (!top && !isRef(node)) {
        const key = JSON.stringify(node);
        if (key.length >= minLength) {
          const entry = seen.get(key);
          if (entry) entry.count++;
          else seen.set(key, { count: 1, name });
        }
      }
      for (const [key, value] of Object.entries(node)) {
        if (key === 'properties') {
          for (const [child, schema] of Object.entries(value as JsonSchema)) visit(schema, child, false);
        } else if (key !== 'enum' && key !== 'const') visit(value, name, false);
      }
    };
    visit(body, 'spec', true);
    for (const [name, schema] of Object.entries(defs)) visit(schema, name, true);
    const repeated = [...seen.entries()]
      .filter(([, entry]) => entry.count > 1)
      .sort((a, b) => b[0].length - a[0].length)[0];
    if (!repeated) break;
    const [key, { name }] = repeated;
    let defName = pascal(name) || 'Part';
    for (let n = 2; defName in defs; n++) defName = `${pascal(name)}${n}`;
    const $ref = `#/$defs/${defName}`;
    const replace = (node: unknown, top: boolean): unknown => {
      if (Array.isArray(node)) return node.map((item) => replace(item, false));
      if (!isRecord(node)) return node;
      if (!top && JSON.stringify(node) === key) {
        return { $ref };
      }
      return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, replace(v, false)]));
    };
    defs[defName] = JSON.parse(key) as JsonSchema;
    body = replace(body, true) as JsonSchema;
    for (const [defined, schema] of Object.entries(defs)) defs[defined] = replace(schema, true) as JsonSchema;
  }
  return { ...body, $defs: defs };
}

let compact: JsonSchema | undefined;

/** The spec schema as a model is given it: compact, and without the fields a model never writes. */
export function authoringSpecSchema(): JsonSchema {
  if (compact) return compact;
  const full = z.toJSONSchema(VideoSpecSchema, { target: 'draft-2020-12', unrepresentable: 'any' });
  const properties = { ...(full.properties as JsonSchema) };
  for (const field of FIELDS_NOT_AUTHORED) delete properties[field];
  compact = share(trim({ ...full, properties }) as JsonSchema);
  return compact;
}

/**
 * OpenAI's strict subset (provider-schema-rules.ts cites the rules): unions as anyOf, tuples as
 * bounded arrays, a record over known keys as an object of those keys, every object closed with
 * every property required, and an optional property as required-and-nullable (the answer's nulls are
 * dropped again by withoutNulls).
 */
export function toOpenAiStrict(schema: JsonSchema): JsonSchema {
  const convert = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(convert);
    if (!isRecord(node)) return node;
    let out: JsonSchema = { ...node };
    if (Array.isArray(out.oneOf)) {
      out.anyOf = out.oneOf;
      delete out.oneOf;
    }
    if (Array.isArray(out.prefixItems)) {
      const distinct = [...new Map(out.prefixItems.map((item) => [JSON.stringify(item), item])).values()];
      out.items = distinct.length === 1 ? distinct[0] : { anyOf: distinct };
      delete out.prefixItems;
    }
    const keys = (out.propertyNames as JsonSchema | undefined)?.enum;
    if (Array.isArray(keys) && isRecord(out.additionalProperties)) {
      const value = out.additionalProperties;
      out.properties = Object.fromEntries(keys.map((key) => [String(key), value]));
      out.required = [];
    }
    delete out.propertyNames;
    if (out.type === 'object' || isRecord(out.properties)) {
      const properties = (out.properties as JsonSchema | undefined) ?? {};
      const required = new Set((out.required as string[] | undefined) ?? []);
      out = {
        ...out,
        properties: Object.fromEntries(
          Object.entries(properties).map(([name, property]) => [
            name,
            required.has(name) ? property : nullable(property as JsonSchema),
          ]),
        ),
        required: Object.keys(properties),
        additionalProperties: false,
      };
    }
    return Object.fromEntries(
      Object.entries(out).map(([key, value]) => [
        key,
        key === 'properties' || key === '$defs'
          ? Object.fromEntries(Object.entries(value as JsonSchema).map(([n, v]) => [n, convert(v)]))
          : convert(value),
      ]),
    );
  };
  // Each optional use of a shared part now reads {"anyOf": [{"$ref": …}, {"type": "null"}]}: shared
  // once more, a nullable part costs one short $ref per use.
  return share(convert(schema) as JsonSchema, NULLABLE_SHARED_LENGTH);
}

const NULLABLE_SHARED_LENGTH = 40;

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && !('enum' in schema) && !('const' in schema)) {
    return { ...schema, type: [schema.type, 'null'] };
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** An answer to a strict schema with its nulls dropped: null stands for "not given", and no spec field takes null. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== null)
      .map(([k, v]) => [k, withoutNulls(v)]),
  );
}
