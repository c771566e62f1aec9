// What an AI authoring records (a job, a CLI run, the studio), declared once as JSON Schema: the
// render API's job schema embeds it, the studio shows it, and authorSpec's result type derives from it.
import type { FromSchema } from 'json-schema-to-ts';

const IssueSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['pointer', 'message'],
  properties: { pointer: { type: 'string' }, message: { type: 'string' } },
} as const;

export const AuthoringFindingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'message', 'remedy'],
  properties: {
    code: { type: 'string' },
    pointer: { type: 'string', description: 'The element, as a JSON pointer into the spec.' },
    message: { type: 'string' },
    remedy: { type: 'string' },
  },
} as const;

export const AuthoringRecordSchema = {
  type: 'object',
  additionalProperties: false,
  description:
    'How an AI provider authored the spec: each answer that needed a repair (its validation errors and review findings), the findings the accepted spec still has, token usage and time.',
  required: ['provider', 'model', 'attempts', 'repairs', 'remainingFindings', 'usage', 'durationMs'],
  properties: {
    provider: { type: 'string' },
    model: { type: 'string' },
    attempts: { type: 'integer', description: 'Answers asked for: 1 plus the repairs.' },
    repairs: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['errors', 'findings'],
        properties: {
          errors: { type: 'array', items: IssueSchema },
          findings: { type: 'array', items: AuthoringFindingSchema },
        },
      },
    },
    remainingFindings: { type: 'array', items: AuthoringFindingSchema },
    usage: {
      type: 'object',
      additionalProperties: false,
      required: ['inputTokens', 'outputTokens'],
      properties: { inputTokens: { type: 'integer' }, outputTokens: { type: 'integer' } },
    },
    durationMs: { type: 'integer' },
  },
} as const;

export type AuthoringRecord = FromSchema<typeof AuthoringRecordSchema>;
export type AuthoringFinding = FromSchema<typeof AuthoringFindingSchema>;
export type AuthoringRepair = AuthoringRecord['repairs'][number];
