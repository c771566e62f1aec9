// What review reports: a finding names a problem, where it is on the timeline, and what to change.
// Declared as JSON Schema (the API serves findings inside receipts); the types derive from it.
import type { FromSchema } from 'json-schema-to-ts';

export const FINDING_CODES = [
  'text_overflow',
  'code_overflow',
  'text_too_brief',
  'text_too_small',
  'low_contrast',
  'unsafe_area',
  'offscreen_element',
  'caption_overlap',
  'caption_too_fast',
  'caption_offscreen',
  'label_overlap',
  'element_overlap',
  'blank_frame',
  'frozen_segment',
  'font_not_bundled',
  'missing_glyph',
  'missing_asset',
  'nondeterministic',
  'audio_silence',
  'audio_peak',
] as const;

export type FindingCode = (typeof FINDING_CODES)[number];

export function isFindingCode(value: string): value is FindingCode {
  return (FINDING_CODES as readonly string[]).includes(value);
}

const FindingIntervalSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['startFrame', 'endFrame', 'startSeconds', 'endSeconds'],
  properties: {
    startFrame: { type: 'integer' },
    endFrame: { type: 'integer', description: 'Exclusive.' },
    startSeconds: { type: 'number' },
    endSeconds: { type: 'number' },
  },
} as const;

/** A finding: what is wrong, where on the timeline, what to change, and the frame to inspect. */
export const ReviewFindingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'severity', 'interval', 'message', 'remedy', 'allowed', 'inspect'],
  properties: {
    code: { type: 'string', enum: FINDING_CODES },
    severity: {
      type: 'string',
      enum: ['error', 'warning'],
      description:
        'error: the output is wrong (missing media, clipped text); warning: it will likely read badly.',
    },
    interval: FindingIntervalSchema,
    element: {
      type: 'string',
      description: 'The element\'s key ("s0/e2"; an overlay\'s "o/e0") when it is about one element.',
    },
    aspect: {
      type: 'string',
      description:
        'The aspect it was found in ("reels", or WIDTHxHEIGHT for a custom size), when a review of several aspects found it in some of them only; absent when it holds in every aspect reviewed.',
    },
    message: { type: 'string' },
    remedy: { type: 'string', description: 'What to change, concretely (which property, to what).' },
    allowed: {
      type: 'boolean',
      description: 'Listed in allowQuality: kept in the result as an intentional exception, not a failure.',
    },
    inspect: {
      type: 'object',
      additionalProperties: false,
      required: ['operation', 'frameIndex', 'sourceRevision'],
      properties: {
        operation: { type: 'string', const: 'inspect' },
        frameIndex: { type: 'integer' },
        sourceRevision: { type: 'string' },
      },
    },
  },
} as const;
export type ReviewFinding = FromSchema<typeof ReviewFindingSchema>;
export type FindingSeverity = ReviewFinding['severity'];
export type FindingInterval = ReviewFinding['interval'];
export type InspectAction = ReviewFinding['inspect'];

export const QualityGateSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['strict', 'passed', 'failing'],
  properties: {
    strict: { type: 'boolean' },
    passed: { type: 'boolean', description: 'No finding remains that is not allowed.' },
    failing: {
      type: 'array',
      items: { type: 'string', enum: FINDING_CODES },
      description: 'Codes of the findings that are not allowed, each once.',
    },
  },
} as const;
export type QualityGate = FromSchema<typeof QualityGateSchema>;
