// How each provider is asked for its answer: which schema goes as its structured output, whether the
// spec's schema must also be in the instructions, and how the answer is read back.
import type { generateText } from 'ai';
import { EDIT_PATCH_SCHEMA } from './edit-patch.ts';
import { authoringSpecSchema, toOpenAiStrict, withoutNulls } from './model-schema.ts';
import type { JsonSchema, SchemaDialect } from './model-schema.ts';
import type { AiProviderName } from './providers.ts';

export type AuthoringKind = 'prompt' | 'edit';
type ProviderOptions = NonNullable<Parameters<typeof generateText>[0]['providerOptions']>;

export interface AnswerFormat {
  /** The schema sent as the provider's structured output. */
  schema: JsonSchema;
  /** Whether the instructions carry the spec's (compact) schema: when the structured output is not it. */
  specSchemaInInstructions: boolean;
  providerOptions: ProviderOptions;
  /** The answer as Kino's validators read it. */
  read(answer: unknown): unknown;
}

/**
 * The spec's schema per provider:
 * - openai: strict mode (the Responses API's default in the AI SDK), so its strict subset;
 * - anthropic: the compact schema; the AI SDK sends it as a plain `json` tool, since Anthropic's
 *   constrained outputs take no recursive schema and at most 24 optional fields;
 * - google: only "an object" (Gemini refuses large schemas without saying how large), the schema in
 *   the instructions;
 * - openai-compatible: the compact schema, not strict: local servers turn it into a grammar as it is,
 *   and the nulls strict mode would add cost output tokens a small context cannot spare.
 */
export function specDialect(provider: AiProviderName): SchemaDialect {
  if (provider === 'openai') return 'openai-strict';
  if (provider === 'google') return 'object';
  return 'json-schema';
}

const PROVIDER_OPTIONS: Partial<Record<AiProviderName, ProviderOptions>> = {
  'openai-compatible': { openaiCompatible: { strictJsonSchema: false } },
};

export function answerFormat(provider: AiProviderName, kind: AuthoringKind): AnswerFormat {
  const providerOptions = PROVIDER_OPTIONS[provider] ?? {};
  if (kind === 'edit') {
    // The base spec shows the shape and validation errors come back as repairs; the spec's schema
    // (≈ 10k tokens) goes along only where the context is large, not to a small local model.
    return {
      schema: EDIT_PATCH_SCHEMA,
      specSchemaInInstructions: provider !== 'openai-compatible',
      providerOptions,
      read: (a) => a,
    };
  }
  const dialect = specDialect(provider);
  switch (dialect) {
    case 'openai-strict':
      return {
        schema: toOpenAiStrict(authoringSpecSchema()),
        specSchemaInInstructions: false,
        providerOptions,
        read: withoutNulls,
      };
    case 'object':
      return {
        schema: { type: 'object', properties: { kinoSpec: { type: 'number' } }, required: ['kinoSpec'] },
        specSchemaInInstructions: true,
        providerOptions,
        read: (a) => a,
      };
    case 'json-schema':
      return {
        schema: authoringSpecSchema(),
        specSchemaInInstructions: false,
        providerOptions,
        read: (a) => a,
      };
  }
}
