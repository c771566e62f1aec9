// Monaco's JSON language for an open spec: the spec's JSON Schema (generated from the zod schema that
// validates, shared/spec/json-schema.ts, the one the API publishes) gives completion, hover docs and
// markers. A template may put {"var": "name"} wherever a value goes (binding replaces it before
// validation), so a template's schema accepts that reference beside every value it describes.
import type * as Monaco from 'monaco-editor';

type SchemaNode = Record<string, unknown>;

const VARIABLE_USE = '#/$defs/KinoVariableUse';

const VARIABLE_USE_SCHEMA = {
  type: 'object',
  properties: { var: { type: 'string', description: 'The name of a variable declared in "variables".' } },
  required: ['var'],
  additionalProperties: false,
  description: 'A whole value taken from a template variable, bound by each render.',
};

const isNode = (value: unknown): value is SchemaNode =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `node` or a variable reference; its description stays outside, where hover finds it. */
function orVariable(node: unknown): unknown {
  if (!isNode(node)) return node;
  const walked = allowVariables(node);
  const { description, ...rest } = walked;
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: [rest, { $ref: VARIABLE_USE }],
  };
}

/** A copy of `node` in which every property value, item and map value may be a variable reference. */
export function allowVariables(node: SchemaNode): SchemaNode {
  const copy: SchemaNode = { ...node };
  if (isNode(node.properties)) {
    copy.properties = Object.fromEntries(
      Object.entries(node.properties).map(([name, value]) => [name, orVariable(value)]),
    );
  }
  if (isNode(node.items)) copy.items = orVariable(node.items);
  if (Array.isArray(node.prefixItems)) copy.prefixItems = node.prefixItems.map(orVariable);
  if (isNode(node.additionalProperties)) copy.additionalProperties = orVariable(node.additionalProperties);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = node[key];
    if (Array.isArray(list)) copy[key] = list.map((entry) => (isNode(entry) ? allowVariables(entry) : entry));
  }
  if (isNode(node.$defs)) {
    copy.$defs = Object.fromEntries(
      Object.entries(node.$defs).map(([name, value]) => [
        name,
        isNode(value) ? allowVariables(value) : value,
      ]),
    );
  }
  return copy;
}

/** The schema an open spec is checked against: a template's lets every value be a variable. */
export function editorSpecSchema(schema: SchemaNode, template: boolean): SchemaNode {
  if (!template) return schema;
  const withUses = allowVariables(schema);
  // The declarations themselves are never references.
  const properties = {
    ...(withUses.properties as SchemaNode),
    variables: (schema.properties as SchemaNode).variables,
  };
  return {
    ...withUses,
    properties,
    $defs: { ...(withUses.$defs as SchemaNode | undefined), KinoVariableUse: VARIABLE_USE_SCHEMA },
  };
}

/** Registers the spec's schema for the model at `modelUri`, replacing what was registered before. */
export async function configureSpecJson(
  json: typeof Monaco.json,
  modelUri: string,
  template: boolean,
): Promise<void> {
  const { videoSpecJsonSchema } = await import('../../../shared/spec/json-schema.ts');
  const schema = videoSpecJsonSchema();
  json.jsonDefaults.setDiagnosticsOptions({
    validate: true,
    allowComments: false,
    enableSchemaRequest: false,
    schemaValidation: 'error',
    schemas: [
      {
        uri: String(schema.$id ?? 'kino-video-spec'),
        fileMatch: [modelUri],
        schema: editorSpecSchema(schema, template),
      },
    ],
  });
}
