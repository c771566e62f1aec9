import { z } from 'zod';
import { VideoSpecSchema } from './schema.ts';

export const SPEC_SCHEMA_ID = 'https://kino.dev/schema/video-spec-v1.json';

/** The spec's JSON Schema (draft 2020-12), generated from the same zod schema that validates. */
export function videoSpecJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(VideoSpecSchema, { target: 'draft-2020-12', unrepresentable: 'any' });
  return { ...schema, $id: SPEC_SCHEMA_ID, title: 'Kino video spec v1' };
}
