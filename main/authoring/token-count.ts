// Tokens as OpenAI's current models count them (o200k_base, shipped inside gpt-tokenizer): close
// enough for the other providers to budget a call and to explain a context-window refusal.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { ModelMessage } from 'ai';

/** The input tokens of one authoring call: instructions, messages and the structured-output schema. */
export function callTokens(system: string, messages: readonly ModelMessage[], schema: unknown): number {
  const text = messages.map((message) =>
    typeof message.content === 'string' ? message.content : JSON.stringify(message.content),
  );
  return countTokens([system, ...text, JSON.stringify(schema)].join('\n'));
}
