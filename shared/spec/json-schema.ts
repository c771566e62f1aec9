import { z } from 'zod';
import { ASPECT_PATCH_SCHEMAS } from './aspect-overrides.ts';
import { VideoSpecSchema } from './schema.ts';

export const SPEC_SCHEMA_ID = 'https://kino.dev/schema/video-spec-v1.json';

/** The spec's JSON Schema (draft 2020-12), generated from the same zod schema that validates. */
export function videoSpecJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(VideoSpecSchema, {
    target: 'draft-2020-12',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => {
      if (ASPECT_PATCH_SCHEMAS.has(zodSchema)) compactPatch(jsonSchema);
    },
  });
  return { ...schema, $id: SPEC_SCHEMA_ID, title: 'Kino video spec v1' };
}

/**
 * An aspect's patch as its field names only (validation still checks each value against the field's
 * own schema): an editor completes the names, and the schema stays the size it was before overrides.
 */
function compactPatch(jsonSchema: Record<string, unknown>): void {
  const properties = (jsonSchema.properties ?? {}) as Record<string, { not?: unknown }>;
  // Fields no aspect may change are `never` in the patch ({not: {}}): left out, so not offered.
  const names = Object.keys(properties).filter((name) => properties[name]?.not === undefined);
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(jsonSchema, {
    type: 'object',
    description: "A patch of this object's own fields for one aspect; each value as the field itself takes.",
    propertyNames: { enum: names },
  });
}
