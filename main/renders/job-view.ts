// The job as clients see it: timestamps as ISO strings, files as absolute download URLs (signed
// when private), and the JSON Schema the responses are serialized with.
import { RenderReceiptSchema } from '../../shared/protocol/receipt.ts';
import { OutputFields, RenderOptionsSchema } from '../../shared/protocol/render-options.ts';
import { QualityGateSchema, ReviewFindingSchema } from '../../shared/protocol/finding.ts';
import { AuthoringRecordSchema } from '../../shared/protocol/authoring-record.ts';
import { JOB_STATUSES, PROGRESS_STAGES, WEBHOOK_EVENTS } from '../jobs/job-store.ts';
import type { JobError, JobProgress, RenderJob, StoredPoster, StoredVideo } from '../jobs/job-store.ts';
import { fileKind, signDownloadToken } from '../storage/signed-link.ts';
import { RENDER_ID_SOURCE } from '../storage/storage.ts';
import { hidePaths, hidePathsDeep } from '../http/hidden-paths.ts';
import type { HiddenPath } from '../http/hidden-paths.ts';
import type { FileKind } from '../storage/signed-link.ts';

const nullable = (schema: Record<string, unknown>) => ({ ...schema, type: [schema.type as string, 'null'] });
const timestamp = { type: 'string', format: 'date-time' } as const;

/** A stored video as the job shows it: its signed link, size and hash. */
const VideoFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['downloadUrl', 'bytes', 'contentType', 'width', 'height', 'durationSeconds', 'sha256'],
  properties: {
    downloadUrl: { type: 'string', format: 'uri' },
    bytes: { type: 'integer' },
    contentType: { type: 'string' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    durationSeconds: { type: 'number' },
    sha256: { type: 'string' },
    receiptUrl: {
      type: 'string',
      format: 'uri',
      description:
        "The render receipt as a JSON file (signed like downloadUrl when private); the same as the job's receipt.",
    },
  },
} as const;

/** A stored poster as the job shows it. */
const PosterFileSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['downloadUrl', 'bytes', 'contentType'],
  properties: {
    downloadUrl: { type: 'string', format: 'uri' },
    bytes: { type: 'integer' },
    contentType: { type: 'string' },
  },
} as const;

export const RenderJobSchema = {
  $id: 'RenderJob',
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'status',
    'input',
    'options',
    'visibility',
    'progress',
    'createdAt',
    'startedAt',
    'finishedAt',
    'expiresAt',
    'spec',
    'code',
    'video',
    'poster',
    'receipt',
    'authoring',
    'changes',
    'review',
    'webhook',
    'outputs',
    'error',
  ],
  properties: {
    id: { type: 'string', pattern: RENDER_ID_SOURCE },
    status: { type: 'string', enum: JOB_STATUSES },
    input: {
      type: 'object',
      additionalProperties: false,
      required: ['kind'],
      properties: {
        kind: { type: 'string', enum: ['key', 'spec', 'prompt', 'edit'] },
        key: { type: 'string', description: 'The composition key, for key inputs.' },
        provider: { type: 'string', description: 'The AI provider, for prompt and edit inputs.' },
        model: { type: 'string', description: "The provider's model, for prompt and edit inputs." },
        base: { type: 'string', description: 'The render an edit started from, when it named one.' },
        variables: {
          type: 'object',
          additionalProperties: true,
          description: 'The template variable values the request gave (key and spec inputs).',
        },
      },
    },
    options: {
      type: 'object',
      additionalProperties: false,
      required: ['format', 'quality'],
      properties: RenderOptionsSchema.properties,
    },
    visibility: { type: 'string', enum: ['public', 'private'] },
    progress: nullable({
      type: 'object',
      additionalProperties: false,
      required: ['stage', 'framesDone', 'framesTotal', 'percent', 'etaSeconds'],
      properties: {
        stage: {
          type: 'string',
          enum: PROGRESS_STAGES,
          description: '"starting" from the moment a worker takes the job until it reports its first stage.',
        },
        framesDone: { type: 'integer' },
        framesTotal: { type: 'integer' },
        percent: { type: 'number' },
        etaSeconds: { type: ['number', 'null'] },
        chunks: {
          type: 'array',
          description: 'For a render split across workers: the frames of each chunk, in order.',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['framesDone', 'framesTotal'],
            properties: { framesDone: { type: 'integer' }, framesTotal: { type: 'integer' } },
          },
        },
      },
    }),
    createdAt: timestamp,
    startedAt: { ...timestamp, type: ['string', 'null'] },
    finishedAt: { ...timestamp, type: ['string', 'null'] },
    expiresAt: timestamp,
    spec: {
      type: ['object', 'null'],
      additionalProperties: true,
      description:
        'The video spec (see /v1/schema/video-spec): a spec input from the start, a key once a worker resolves it; null for compositions that draw with code.',
    },
    code: {
      type: ['string', 'null'],
      description: 'The composition source (builder API) that makes this video.',
    },
    video: nullable(VideoFileSchema),
    poster: nullable(PosterFileSchema),
    receipt: {
      ...RenderReceiptSchema,
      type: ['object', 'null'],
      description: `${RenderReceiptSchema.description} The same document is served as JSON at video.receiptUrl. Null until the render succeeds.`,
    },
    authoring: {
      ...AuthoringRecordSchema,
      type: ['object', 'null'],
      description: `${AuthoringRecordSchema.description} Null for key and spec inputs, and until the provider answered.`,
    },
    review: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['findings', 'qualityGate'],
      description:
        'With options.review or strictQuality, once the spec was reviewed (before rendering), in every aspect its outputs draw in. Null otherwise.',
      properties: {
        findings: { type: 'array', items: ReviewFindingSchema },
        qualityGate: QualityGateSchema,
        aspects: {
          type: 'array',
          items: { type: 'string' },
          description:
            'The aspects reviewed, in the order of the outputs: a finding seen in some of them only names its aspect.',
        },
      },
    },
    outputs: {
      type: ['array', 'null'],
      description:
        'With options.outputs, once the render succeeded: every output (the first is also video). Null otherwise.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['format', 'quality', 'video', 'poster'],
        properties: {
          format: OutputFields.format,
          quality: OutputFields.quality,
          aspect: OutputFields.aspect,
          poster: nullable(PosterFileSchema),
          video: VideoFileSchema,
        },
      },
    },
    webhook: {
      type: ['object', 'null'],
      additionalProperties: false,
      required: ['url', 'events', 'state', 'deliveries'],
      description:
        'Where the end of the job is sent, and every delivery attempt so far. Null without a webhook.',
      properties: {
        url: { type: 'string' },
        events: { type: 'array', items: { type: 'string', enum: WEBHOOK_EVENTS } },
        state: {
          type: 'string',
          enum: ['waiting', 'pending', 'delivered', 'failed', 'skipped'],
          description:
            'waiting: the job has not ended; pending: not delivered yet, retrying; delivered; failed: every retry used; skipped: not a subscribed event.',
        },
        deliveries: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['at', 'status', 'error'],
            properties: {
              at: timestamp,
              status: {
                type: ['integer', 'null'],
                description: "The receiver's HTTP status; null when none came.",
              },
              error: { type: ['string', 'null'] },
            },
          },
        },
      },
    },
    changes: {
      type: ['array', 'null'],
      items: { type: 'string' },
      description: 'For an edit: the JSON pointers of the spec that differ from the base. Null otherwise.',
    },
    error: nullable({
      type: 'object',
      additionalProperties: false,
      required: ['code', 'message'],
      properties: {
        code: {
          type: 'string',
          description:
            'e.g. invalid_input, compile_failed, media_fetch_failed, encoder_failed, provider_unavailable, provider_rate_limited, provider_refused, authoring_failed, worker_lost, timeout.',
        },
        message: { type: 'string' },
        errors: {
          type: 'array',
          description: 'For authoring_failed: what the last answer still got wrong, at JSON pointers.',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['pointer', 'message'],
            properties: { pointer: { type: 'string' }, message: { type: 'string' } },
          },
        },
      },
    }),
  },
} as const;

/** The job's input as it is shown: its kind and how it was named, never a prompt's key. */
function inputView(input: RenderJob['input']) {
  switch (input.kind) {
    case 'key':
      return { kind: 'key' as const, key: input.key, ...withVariables(input.variables) };
    case 'spec':
      return { kind: 'spec' as const, ...withVariables(input.variables) };
    case 'prompt':
      return { kind: 'prompt' as const, provider: input.provider, model: input.model };
    case 'edit':
      return {
        kind: 'edit' as const,
        provider: input.provider,
        model: input.model,
        ...(input.baseRender ? { base: input.baseRender } : {}),
      };
  }
}

const withVariables = (variables: Record<string, unknown> | undefined) => (variables ? { variables } : {});

/** A webhook URL without its query, which may carry the receiver's own token. */
function shownWebhookUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
}

export interface LinkContext {
  baseUrl: string;
  signingSecret: string;
}

export function downloadUrl(job: RenderJob, kind: FileKind, links: LinkContext): string {
  const url = `${links.baseUrl}/v1/files/${job.id}/${kind}`;
  if (job.visibility === 'public') return url;
  const token = signDownloadToken(links.signingSecret, { id: job.id, kind, expiresAt: job.expiresAt });
  return `${url}?token=${token}`;
}

/** What a job view needs from the server: where its links point, and which folders to hide. */
export interface JobViewContext {
  links: () => LinkContext;
  hiddenPaths: readonly HiddenPath[];
}

/** A job's error as a client reads it: written for a person at the server, so its folders hidden. */
export function errorView(error: JobError, hidden: readonly HiddenPath[]): JobError {
  return {
    ...error,
    message: hidePaths(error.message, hidden),
    ...(error.errors
      ? { errors: error.errors.map((field) => ({ ...field, message: hidePaths(field.message, hidden) })) }
      : {}),
  };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Output `index`'s video as the job shows it (VideoFileSchema). */
function videoView(
  job: RenderJob,
  index: number,
  video: StoredVideo,
  hasReceipt: boolean,
  links: LinkContext,
) {
  return {
    downloadUrl: downloadUrl(job, fileKind('video', index), links),
    bytes: video.bytes,
    contentType: video.contentType,
    width: video.width,
    height: video.height,
    durationSeconds: video.durationSeconds,
    sha256: video.sha256,
    ...(hasReceipt ? { receiptUrl: downloadUrl(job, fileKind('receipt', index), links) } : {}),
  };
}

/** Output `index`'s poster as the job shows it (PosterFileSchema). */
function posterView(job: RenderJob, index: number, poster: StoredPoster, links: LinkContext) {
  return {
    downloadUrl: downloadUrl(job, fileKind('poster', index), links),
    bytes: poster.bytes,
    contentType: poster.contentType,
  };
}

/** Progress as clients read it: each chunk's frames, without the estimates the job's ETA is made of. */
export function progressView(progress: JobProgress): JobProgress {
  if (!progress.chunks) return progress;
  return {
    ...progress,
    chunks: progress.chunks.map(({ framesDone, framesTotal }) => ({ framesDone, framesTotal })),
  };
}

/** The job as every client reads it: the API's answers and the webhook bodies. */
export function jobView(job: RenderJob, context: JobViewContext) {
  const links = context.links();
  return {
    id: job.id,
    status: job.status,
    input: inputView(job.input),
    options: job.options,
    visibility: job.visibility,
    progress: job.progress && progressView(job.progress),
    createdAt: iso(job.createdAt)!,
    startedAt: iso(job.startedAt),
    finishedAt: iso(job.finishedAt),
    expiresAt: iso(job.expiresAt)!,
    spec: job.spec,
    code: job.code,
    video: job.video && videoView(job, 0, job.video, job.receipt !== null, links),
    poster: job.poster && posterView(job, 0, job.poster, links),
    receipt: job.status === 'succeeded' ? (job.receipt?.receipt ?? null) : null,
    // Findings and repair messages name files as the server sees them, like errors.
    authoring: job.authoring && hidePathsDeep(job.authoring, context.hiddenPaths),
    changes: job.changes,
    review: job.review && hidePathsDeep(job.review, context.hiddenPaths),
    outputs:
      job.status === 'succeeded' && job.outputs
        ? job.outputs.map((output, index) => ({
            format: output.request.format,
            quality: output.request.quality,
            ...(output.request.aspect ? { aspect: output.request.aspect } : {}),
            video: videoView(job, index, output.video, true, links),
            poster: output.poster && posterView(job, index, output.poster, links),
          }))
        : null,
    webhook: job.webhook && {
      url: shownWebhookUrl(job.webhook.url),
      events: job.webhook.events,
      state: job.webhook.state,
      deliveries: job.webhook.deliveries.map((attempt) => ({ ...attempt, at: iso(attempt.at)! })),
    },
    error: job.error && errorView(job.error, context.hiddenPaths),
  };
}
