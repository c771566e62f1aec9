// POST /jobs: one frame, review, inspect or render of the composition, answered when it is done —
// or, with Accept: application/x-ndjson, streamed as progress lines and a last result or problem.
import type { FastifyInstance } from 'fastify';
import { OUTPUT_FORMATS, QUALITIES } from '../../encoder/formats.ts';
import { FINDING_CODES } from '../../review/finding.ts';
import { ASPECT_NAMES } from '../../../shared/spec/sizes.ts';
import { TIME_PATTERN } from '../../../shared/spec/time.ts';
import type { WorkspaceContext } from '../context.ts';
import { MAX_REVIEW_FRAMES, OPERATIONS } from '../protocol.ts';
import type { WorkspaceJob } from '../protocol.ts';
import { streamJob, wantsJobStream } from './job-stream.ts';

/** Job bodies are small; anything larger is refused before it is parsed. */
export const MAX_JOB_BODY_BYTES = 64 * 1024;

const FRAME_NUMBER = { type: 'integer', minimum: 0, maximum: 10_000_000 } as const;

export const JobBodySchema = {
  type: 'object',
  properties: {
    operation: { type: 'string', enum: OPERATIONS },
    frameIndex: { ...FRAME_NUMBER, description: 'frame: the frame to draw; inspect: the frame to look at.' },
    frameCount: { ...FRAME_NUMBER, minimum: 1, description: 'render: only the first n frames.' },
    reviewFrames: { type: 'integer', minimum: 1, maximum: MAX_REVIEW_FRAMES },
    reviewDeterminism: { type: 'boolean' },
    aspect: { type: 'string', enum: ASPECT_NAMES },
    quality: { type: 'string', enum: QUALITIES },
    format: { type: 'string', enum: OUTPUT_FORMATS },
    sourceRevision: { type: 'string', minLength: 1, maxLength: 64 },
    allowQuality: {
      type: 'array',
      items: { type: 'string', enum: FINDING_CODES },
      maxItems: FINDING_CODES.length,
      uniqueItems: true,
    },
    strictQuality: { type: 'boolean' },
    poster: {
      type: 'string',
      pattern: TIME_PATTERN.source,
      maxLength: 32,
      description:
        'render: also write a PNG of the frame at this time ("1.5s", "500ms", "45f") next to the video.',
    },
  },
  required: ['operation'],
  // The frame operation draws one frame: it must say which.
  if: { properties: { operation: { const: 'frame' } } },
  then: { required: ['frameIndex'] },
  additionalProperties: false,
} as const;

export function jobRoutes(app: FastifyInstance, ctx: WorkspaceContext): void {
  app.post(
    '/jobs',
    { schema: { body: JobBodySchema }, bodyLimit: MAX_JOB_BODY_BYTES },
    async (request, reply) => {
      const job = request.body as WorkspaceJob;
      // A client that goes away cancels its job, waiting or running.
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      if (!wantsJobStream(request)) return ctx.runner.submit(job, gone.signal);
      return streamJob(request, reply, (onLine) =>
        ctx.runner.submit(job, gone.signal, (progress) => onLine({ type: 'progress', ...progress })),
      );
    },
  );
}
