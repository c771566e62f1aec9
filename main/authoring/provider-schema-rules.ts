// What each provider's structured output accepts, as checks over a JSON Schema. A schema that breaks
// one is refused by the provider with a 400 before the model runs, so every schema Kino sends is
// run through these in the tests, and the tests' provider stand-ins refuse by them too.

export type SchemaRuleSet = 'openai-strict' | 'anthropic-output-format' | 'anthropic-tool' | 'google';

type Node = Record<string, unknown>;
const isRecord = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * OpenAI Structured Outputs with `strict: true`, per platform.openai.com/docs/guides/structured-outputs
 * ("Supported schemas"):
 * - types string, number, boolean, integer, object, array, enum, anyOf; the root is an object, not anyOf;
 * - keywords: pattern and format on strings; multipleOf, maximum, exclusiveMaximum, minimum,
 *   exclusiveMinimum on numbers; minItems and maxItems on arrays; $defs/$ref (recursion allowed);
 *   allOf, not, dependentRequired, dependentSchemas, if/then/else are not supported;
 * - every object has additionalProperties: false and lists every property in required;
 * - at most 5000 object properties, 10 levels of object nesting, 1000 enum values, and 120,000
 *   characters of property names, definition names, enum values and const values; an enum of more than
 *   250 values holds at most 15,000 characters.
 */
const OPENAI_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'anyOf',
  'enum',
  'const',
  '$ref',
  '$defs',
  'description',
  'title',
  'pattern',
  'format',
  'multipleOf',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
]);
export const OPENAI_LIMITS = {
  properties: 5000,
  nesting: 10,
  enumValues: 1000,
  stringCharacters: 120_000,
  largeEnum: { values: 250, characters: 15_000 },
};

/**
 * Anthropic's JSON outputs (`output_config.format`) and strict tools, per
 * platform.claude.com/docs/en/build-with-claude/structured-outputs ("JSON Schema limitations"):
 * - supported: basic types, enum, const, anyOf, allOf, $ref/$defs (local), required,
 *   additionalProperties: false, string formats, minItems of 0 or 1;
 * - not supported: recursive schemas, numerical constraints (minimum, maximum, multipleOf), string
 *   constraints (minLength, maxLength), array constraints beyond minItems 0/1, additionalProperties
 *   other than false;
 * - at most 24 optional parameters and 16 parameters with a union (anyOf or a type array) across the
 *   strict schemas of a request.
 * A plain (non-strict) tool's input_schema is any JSON Schema whose root is an object: the model is
 * guided by it, not held to it (docs/en/agents-and-tools/tool-use/implement-tool-use).
 */
const ANTHROPIC_UNSUPPORTED = new Set([
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'not',
  'if',
  'then',
  'else',
  'patternProperties',
  'propertyNames',
  'prefixItems',
]);
export const ANTHROPIC_LIMITS = { optionalProperties: 24, unionProperties: 16 };

/**
 * Gemini's `responseJsonSchema`, per ai.google.dev/gemini-api/docs/structured-output ("JSON Schema
 * support"): $id, $defs, $ref, $anchor, type, format, title, description, enum, items, prefixItems,
 * minItems, maxItems, minimum, maximum, anyOf, oneOf, properties, additionalProperties, required and
 * propertyOrdering; other keywords are refused. The page adds that very large or deeply nested
 * schemas may be rejected, without a number, so Kino sends Gemini only small schemas.
 */
const GOOGLE_KEYWORDS = new Set([
  '$id',
  '$defs',
  '$ref',
  '$anchor',
  'type',
  'format',
  'title',
  'description',
  'enum',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'anyOf',
  'oneOf',
  'properties',
  'additionalProperties',
  'required',
  'propertyOrdering',
]);

export interface SchemaViolation {
  /** Where, as the path of keywords from the root ("" is the root). */
  at: string;
  message: string;
}

/** Every schema node with its path, $defs included; refs are not followed. */
function* nodes(root: unknown, path: string[] = []): Generator<{ node: Node; path: string[] }> {
  if (!isRecord(root)) return;
  yield { node: root, path };
  for (const [key, value] of Object.entries(root)) {
    if (key === 'properties' || key === '$defs') {
      if (isRecord(value)) {
        for (const [name, child] of Object.entries(value)) yield* nodes(child, [...path, key, name]);
      }
    } else if (
      key === 'items' ||
      key === 'additionalProperties' ||
      key === 'not' ||
      key === 'propertyNames'
    ) {
      yield* nodes(value, [...path, key]);
    } else if (['anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(key) && Array.isArray(value)) {
      for (const [index, child] of value.entries()) yield* nodes(child, [...path, key, String(index)]);
    }
  }
}

/** An object schema, `"type": ["object", "null"]` included. */
const isObjectSchema = (node: Node) =>
  node.type === 'object' ||
  (Array.isArray(node.type) && node.type.includes('object')) ||
  isRecord(node.properties);

const context = (path: string[]) => `(${path.map((part) => `'${part}'`).join(', ')})`;

function resolve(root: Node, ref: string): Node | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) node = isRecord(node) ? node[part] : undefined;
  return isRecord(node) ? node : undefined;
}

/** The deepest object nesting, following $refs but not into a definition already on the path. */
function objectNesting(root: Node): number {
  const depth = (node: unknown, within: Set<string>): number => {
    if (!isRecord(node)) return 0;
    if (typeof node.$ref === 'string') {
      if (within.has(node.$ref)) return 0;
      return depth(resolve(root, node.$ref), new Set([...within, node.$ref]));
    }
    const children: unknown[] = [];
    if (isRecord(node.properties)) children.push(...Object.values(node.properties));
    for (const key of ['items', 'additionalProperties']) if (isRecord(node[key])) children.push(node[key]);
    for (const key of ['anyOf', 'oneOf', 'allOf']) if (Array.isArray(node[key])) children.push(...node[key]);
    const inner = Math.max(0, ...children.map((child) => depth(child, within)));
    return inner + (isObjectSchema(node) ? 1 : 0);
  };
  return depth(root, new Set());
}

/** Whether a definition reaches itself through $refs. */
function isRecursive(root: Node): boolean {
  const defs = isRecord(root.$defs) ? root.$defs : {};
  const refsIn = (node: unknown): string[] => {
    const found: string[] = [];
    for (const { node: inner } of nodes(node)) if (typeof inner.$ref === 'string') found.push(inner.$ref);
    return found;
  };
  for (const name of Object.keys(defs)) {
    const start = `#/$defs/${name}`;
    const pending = refsIn(defs[name]);
    const seen = new Set<string>();
    while (pending.length > 0) {
      const ref = pending.pop()!;
      if (ref === start) return true;
      if (seen.has(ref) || !ref.startsWith('#/$defs/')) continue;
      seen.add(ref);
      const target = defs[ref.slice('#/$defs/'.length)];
      // Refs inside a definition's own nested $defs are not followed: Kino's schemas keep one level.
      pending.push(...refsIn(isRecord(target) ? { ...target, $defs: undefined } : target));
    }
  }
  return false;
}

function openAiStrict(root: Node): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  const add = (path: string[], message: string) =>
    violations.push({ at: path.join('/'), message: `In context=${context(path)}, ${message}` });
  if (root.type !== 'object' || 'anyOf' in root)
    add([], 'schema must be a JSON Schema of \'type: "object"\'');
  let properties = 0;
  let enumValues = 0;
  let characters = 0;
  for (const { node, path } of nodes(root)) {
    for (const key of Object.keys(node)) {
      if (!OPENAI_KEYWORDS.has(key)) add(path, `'${key}' is not permitted.`);
    }
    const typed = 'type' in node || 'anyOf' in node || '$ref' in node || 'enum' in node || 'const' in node;
    if (!typed && path.at(-2) !== '$defs') add(path, "schema must have a 'type' key.");
    if (isObjectSchema(node)) {
      const names = Object.keys(isRecord(node.properties) ? node.properties : {});
      properties += names.length;
      characters += names.reduce((sum, name) => sum + name.length, 0);
      if (node.additionalProperties !== false) {
        add(path, "'additionalProperties' is required to be supplied and to be false.");
      }
      const required = Array.isArray(node.required) ? (node.required as unknown[]) : [];
      const missing = names.filter((name) => !required.includes(name));
      if (missing.length > 0) {
        add(
          path,
          `'required' is required to be supplied and to be an array including every key in properties. Missing '${missing[0]}'.`,
        );
      }
    }
    if (Array.isArray(node.enum)) {
      enumValues += node.enum.length;
      const length = node.enum.reduce<number>((sum, value) => sum + String(value).length, 0);
      characters += length;
      if (node.enum.length > OPENAI_LIMITS.largeEnum.values && length > OPENAI_LIMITS.largeEnum.characters) {
        add(
          path,
          `an enum with more than ${OPENAI_LIMITS.largeEnum.values} values may have at most ${OPENAI_LIMITS.largeEnum.characters} characters in total.`,
        );
      }
    }
    if ('const' in node) characters += String(node.const).length;
  }
  characters += Object.keys(isRecord(root.$defs) ? root.$defs : {}).reduce(
    (sum, name) => sum + name.length,
    0,
  );
  const limit = (what: string, value: number, max: number) => {
    if (value > max) violations.push({ at: '', message: `${what}: ${value}, over the limit of ${max}.` });
  };
  limit('object properties in total', properties, OPENAI_LIMITS.properties);
  limit('levels of object nesting', objectNesting(root), OPENAI_LIMITS.nesting);
  limit('enum values in total', enumValues, OPENAI_LIMITS.enumValues);
  limit(
    'characters of property names, definition names, enum and const values',
    characters,
    OPENAI_LIMITS.stringCharacters,
  );
  return violations;
}

function anthropicOutputFormat(root: Node): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  const add = (path: string[], message: string) => violations.push({ at: path.join('/'), message });
  if (isRecursive(root)) add([], 'recursive schemas are not supported');
  let optional = 0;
  let unions = 0;
  for (const { node, path } of nodes(root)) {
    for (const key of Object.keys(node)) {
      if (ANTHROPIC_UNSUPPORTED.has(key)) add(path, `'${key}' is not supported`);
    }
    if (typeof node.minItems === 'number' && node.minItems > 1) {
      add(path, `'minItems' of ${node.minItems} is not supported (only 0 or 1)`);
    }
    if (isObjectSchema(node)) {
      if (node.additionalProperties !== false) add(path, "'additionalProperties' must be false");
      const names = Object.keys(isRecord(node.properties) ? node.properties : {});
      const required = Array.isArray(node.required) ? (node.required as unknown[]) : [];
      optional += names.filter((name) => !required.includes(name)).length;
      for (const property of Object.values(isRecord(node.properties) ? node.properties : {})) {
        if (isRecord(property) && ('anyOf' in property || Array.isArray(property.type))) unions++;
      }
    }
  }
  if (optional > ANTHROPIC_LIMITS.optionalProperties) {
    add(
      [],
      `schemas contain too many optional parameters (${optional}, limit ${ANTHROPIC_LIMITS.optionalProperties})`,
    );
  }
  if (unions > ANTHROPIC_LIMITS.unionProperties) {
    add(
      [],
      `schemas contain too many parameters with union types (${unions}, limit ${ANTHROPIC_LIMITS.unionProperties})`,
    );
  }
  return violations;
}

function anthropicTool(root: Node): SchemaViolation[] {
  return root.type === 'object' ? [] : [{ at: 'type', message: "input_schema: type must be 'object'" }];
}

function google(root: Node): SchemaViolation[] {
  const violations: SchemaViolation[] = [];
  for (const { node, path } of nodes(root)) {
    for (const key of Object.keys(node)) {
      if (!GOOGLE_KEYWORDS.has(key))
        violations.push({ at: path.join('/'), message: `Unknown name "${key}"` });
    }
  }
  return violations;
}

/** The rules of `rules` that `schema` breaks; none means the provider takes it. */
export function schemaViolations(schema: unknown, rules: SchemaRuleSet): SchemaViolation[] {
  if (!isRecord(schema)) return [{ at: '', message: 'the schema is not an object' }];
  switch (rules) {
    case 'openai-strict':
      return openAiStrict(schema);
    case 'anthropic-output-format':
      return anthropicOutputFormat(schema);
    case 'anthropic-tool':
      return anthropicTool(schema);
    case 'google':
      return google(schema);
  }
}
