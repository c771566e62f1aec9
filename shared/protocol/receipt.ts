// The render receipt: everything needed to tell what a file is and how it was made, written next to
// the file as <name>.render.json and returned with the render. Its parts: the inputs with their
// hashes, the resolved options, the toolchain, the ffprobe probe, the checks against what was asked,
// the timings. Every maker (`kino render`, the render API, the authoring workspace) builds it with
// one builder (main/engine/receipt.ts); the workspace adds its source revision, findings and gate.
// Declared once as JSON Schema (the render API serves receipts and documents them in OpenAPI); the
// TypeScript types derive from it.
import type { FromSchema } from 'json-schema-to-ts';
import { QualityGateSchema, ReviewFindingSchema } from './finding.ts';
import { EncoderSettingsUsedSchema } from '../output/encoder-settings.ts';

const ProbeVideoSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['codec', 'width', 'height', 'fps', 'frames', 'pixFmt', 'hasAlpha'],
  properties: {
    codec: { type: 'string' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    fps: { type: 'number' },
    frames: { type: 'integer' },
    pixFmt: { type: 'string' },
    hasAlpha: { type: 'boolean' },
  },
} as const;

const ProbeAudioSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['codec', 'channels', 'sampleRate'],
  properties: {
    codec: { type: 'string' },
    channels: { type: 'integer' },
    sampleRate: { type: 'integer' },
  },
} as const;

/** What a media file really contains, as ffprobe reads it. */
export const ProbeResultSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['formatName', 'durationSeconds', 'sizeBytes'],
  description: "ffprobe's view of the file; video and audio are absent when the file has none.",
  properties: {
    formatName: {
      type: 'string',
      description: 'ffprobe\'s demuxer name, e.g. "mov,mp4,m4a,3gp,3g2,mj2" or "matroska,webm".',
    },
    durationSeconds: { type: 'number' },
    sizeBytes: { type: 'integer' },
    video: ProbeVideoSchema,
    audio: ProbeAudioSchema,
  },
} as const;
export type ProbeResult = FromSchema<typeof ProbeResultSchema>;
export type ProbeVideo = FromSchema<typeof ProbeVideoSchema>;
export type ProbeAudio = FromSchema<typeof ProbeAudioSchema>;

/** One property of the output compared with what was asked. */
export const VerificationCheckSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'expected', 'actual', 'ok'],
  properties: {
    name: { type: 'string' },
    expected: { type: 'string' },
    actual: { type: 'string' },
    ok: { type: 'boolean' },
  },
} as const;
export type VerificationCheck = FromSchema<typeof VerificationCheckSchema>;

const ToolchainSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['kino', 'node', 'ffmpeg', 'ffprobe', 'canvas', 'esbuild'],
  properties: {
    kino: { type: 'string' },
    node: { type: 'string' },
    ffmpeg: { type: 'string' },
    ffprobe: { type: 'string' },
    canvas: { type: 'string', description: 'The drawing backend: Skia through @napi-rs/canvas.' },
    esbuild: { type: 'string' },
  },
} as const;
export type Toolchain = FromSchema<typeof ToolchainSchema>;

export const RECEIPT_MAKERS = ['cli', 'api', 'workspace'] as const;
/** Who made a receipt: `kino render`, the render API's worker, or the authoring workspace. */
export type ReceiptMaker = (typeof RECEIPT_MAKERS)[number];

const ReceiptInputFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['role', 'bytes', 'sha256'],
  properties: {
    role: {
      type: 'string',
      enum: ['spec', 'composition', 'module', 'image', 'video', 'audio', 'captions', 'data', 'font'],
      description:
        'What the file is to the render: the spec or the composition entry, a local module it imports, a media file (captions: an SRT or WebVTT file; data: a chart CSV or JSON file), or a font file it loaded.',
    },
    path: {
      type: 'string',
      description:
        'The file read: absolute, or for the API relative to its render project (absent for a file outside it, such as downloaded remote media).',
    },
    source: {
      type: 'string',
      description:
        'The source string as written in the spec ("asset:logo.png", a URL); "request" for a spec sent as data.',
    },
    family: { type: 'string', description: 'Font files: the family they were loaded as.' },
    bytes: { type: 'integer' },
    sha256: { type: 'string' },
  },
} as const;
export type ReceiptInputFile = FromSchema<typeof ReceiptInputFileSchema>;
export type ReceiptInputRole = ReceiptInputFile['role'];

const RenderReceiptPosterSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['path', 'bytes', 'time', 'frame'],
  properties: {
    path: { type: 'string' },
    bytes: { type: 'integer' },
    time: { type: 'string', description: 'As asked for.' },
    frame: { type: 'integer', description: 'The frame the time fell on.' },
  },
} as const;
export type RenderReceiptPoster = FromSchema<typeof RenderReceiptPosterSchema>;

export const RenderReceiptSchema = {
  type: 'object',
  additionalProperties: false,
  description:
    'The render receipt: what was rendered and every file it read (path, or the source string, bytes, sha256), the request as sent, the resolved options, the toolchain versions, the ffprobe probe, each verification check and the timings.',
  required: [
    'receipt',
    'version',
    'createdAt',
    'maker',
    'source',
    'inputs',
    'options',
    'toolchain',
    'output',
    'verification',
    'timings',
  ],
  properties: {
    receipt: { type: 'string', const: 'kino.render' },
    version: {
      type: 'integer',
      const: 2,
      description: '2: inputs are hashed files plus the request; maker; workspace-only fields optional.',
    },
    createdAt: { type: 'string', format: 'date-time' },
    maker: { type: 'string', enum: RECEIPT_MAKERS },
    source: {
      type: 'object',
      additionalProperties: false,
      required: ['kind'],
      description:
        'What was rendered: a spec or a composition, the file it came from (absent for a spec sent in an API request), the render key when asked for by key, and (workspace only) the source revision.',
      properties: {
        kind: { type: 'string', enum: ['spec', 'composition'] },
        path: { type: 'string' },
        key: { type: 'string' },
        sourceRevision: { type: 'string' },
      },
    },
    inputs: {
      type: 'object',
      additionalProperties: false,
      required: ['request', 'files'],
      properties: {
        request: {
          type: 'object',
          additionalProperties: true,
          description:
            'What was asked for, as sent (command-line options, API request options, workspace job).',
        },
        files: {
          type: 'array',
          items: ReceiptInputFileSchema,
          description:
            "Every file the render read, each hashed once: the spec or composition entry, the composition's local modules (not Kino's own: its version is in the toolchain), the media files and the font files declared by the project or the spec.",
        },
      },
    },
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['format', 'quality', 'frames', 'framesTotal', 'width', 'height', 'fps', 'durationSeconds'],
      description: 'What was rendered, every default filled in.',
      properties: {
        format: { type: 'string' },
        quality: { type: 'string' },
        aspect: { type: 'string', description: 'The aspect name; absent for a custom size.' },
        frames: { type: 'integer' },
        framesTotal: { type: 'integer' },
        width: { type: 'integer' },
        height: { type: 'integer' },
        fps: { type: 'number' },
        durationSeconds: { type: 'number' },
        encoder: EncoderSettingsUsedSchema,
      },
    },
    toolchain: ToolchainSchema,
    output: {
      type: 'object',
      additionalProperties: false,
      required: ['path', 'bytes', 'sha256', 'probe'],
      properties: {
        path: { type: 'string', description: 'The video (for the API: the name it downloads as).' },
        bytes: { type: 'integer' },
        sha256: { type: 'string' },
        probe: ProbeResultSchema,
      },
    },
    poster: RenderReceiptPosterSchema,
    verification: {
      type: 'object',
      additionalProperties: false,
      required: ['ok', 'checks', 'mismatches'],
      properties: {
        ok: { type: 'boolean' },
        checks: { type: 'array', items: VerificationCheckSchema },
        mismatches: { type: 'array', items: VerificationCheckSchema },
      },
    },
    timings: {
      type: 'object',
      additionalProperties: false,
      required: ['renderMilliseconds', 'verifyMilliseconds', 'hashMilliseconds'],
      properties: {
        reviewMilliseconds: {
          type: 'number',
          description: 'Workspace only: the review run before the render.',
        },
        renderMilliseconds: { type: 'number' },
        verifyMilliseconds: { type: 'number' },
        hashMilliseconds: { type: 'number', description: 'Hashing the input files for this receipt.' },
      },
    },
    findings: {
      type: 'array',
      items: ReviewFindingSchema,
      description: 'Workspace only: the findings the render was made with.',
    },
    qualityGate: QualityGateSchema,
  },
} as const;
export type RenderReceipt = FromSchema<typeof RenderReceiptSchema>;
