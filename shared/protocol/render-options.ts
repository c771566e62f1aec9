// How a render is asked for, declared once: the output fields (format, aspect, quality, encoder
// settings, poster) and the quality gate fields. The render API's options (and each of its outputs),
// MCP's render tools and the workspace's job body are all built from these pieces, and their types
// are derived from them (json-schema-to-ts), so a limit changed here changes everywhere.
import type { FromSchema } from 'json-schema-to-ts';
import { EncoderSettingsSchema } from '../output/encoder-settings.ts';
import { OUTPUT_FORMATS, QUALITIES } from '../output/formats.ts';
import { ASPECT_NAMES } from '../spec/sizes.ts';
import { TIME_PATTERN } from '../spec/time.ts';
import { FINDING_CODES } from './finding.ts';
import { MAX_REVIEW_FRAMES } from './review-frames.ts';

/** The spec's own time grammar ("1.5s", "500ms", "45f"), as a JSON Schema pattern. */
const TIME_OPTION_PATTERN = TIME_PATTERN.source;

/** At most this many files from one render request. */
const MAX_OUTPUTS = 8;

/** What one output file is: each field optional, its default the face's (mp4, standard, the spec's aspect). */
export const OutputFields = {
  format: { type: 'string', enum: OUTPUT_FORMATS, description: 'Output format (default mp4).' },
  aspect: {
    type: 'string',
    enum: ASPECT_NAMES,
    description: "Output aspect; default the spec's own, else reels.",
  },
  quality: {
    type: 'string',
    enum: QUALITIES,
    description: 'Quality level (default standard; draft is fastest).',
  },
  encoder: EncoderSettingsSchema,
  poster: {
    type: 'string',
    pattern: TIME_OPTION_PATTERN,
    maxLength: 32,
    description: 'Also write a PNG poster of the frame at this time, e.g. "1.5s", "500ms", "45f".',
  },
} as const;

/** The quality gate a review applies: which findings fail the request, and which are intended. */
export const QualityGateFields = {
  strictQuality: {
    type: 'boolean',
    description:
      'Review, and fail the request with quality_gate (nothing rendered) when a finding not in allowQuality remains.',
  },
  allowQuality: {
    type: 'array',
    uniqueItems: true,
    maxItems: FINDING_CODES.length,
    items: { type: 'string', enum: FINDING_CODES },
    description: 'Finding codes that are intentional here: kept in the review, marked allowed.',
  },
} as const;

/** One of several outputs: unset fields are taken from the request's options. */
export const OutputRequestSchema = {
  type: 'object',
  additionalProperties: false,
  properties: OutputFields,
} as const;

/** The render API's `options`. */
export const RenderOptionsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...OutputFields,
    format: { ...OutputFields.format, default: 'mp4' },
    quality: { ...OutputFields.quality, default: 'standard' },
    outputs: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_OUTPUTS,
      description:
        "Several files from one input, in one job (the spec authored, resolved and reviewed once): each {format, aspect?, quality?, poster?, encoder?}, unset fields taken from these options (an output's encoder replaces options.encoder whole). The first is also the job's video; job.outputs lists them all.",
      items: OutputRequestSchema,
    },
    review: {
      type: 'boolean',
      description: `Review the resolved spec before rendering (${MAX_REVIEW_FRAMES} sampled frames through the workspace's checks); the findings are in the job's review.`,
    },
    ...QualityGateFields,
  },
} as const;

export type OutputOptions = FromSchema<typeof OutputRequestSchema>;
export type RenderOptions = FromSchema<typeof RenderOptionsSchema>;

/** One output with its format and quality settled (the request's, else the defaults). */
export type OutputRequest = OutputOptions & Required<Pick<OutputOptions, 'format' | 'quality'>>;
