// POST /jobs: one frame, review, inspect or render of the composition, answered when it is done.
import type { FastifyInstance } from 'fastify';
import { OUTPUT_FORMATS, QUALITIES } from '../../encoder/formats.ts';
import { FINDING_CODES } from '../../review/finding.ts';
import { ASPECT_NAMES } from '../../../shared/spec/sizes.ts';
import type { WorkspaceContext } from '../context.ts';
import { MAX_REVIEW_FRAMES, OPERATIONS } from '../protocol.ts';
import type { WorkspaceJob } from '../protocol.ts';

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
      const gone = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      return ctx.runner.submit(job, gone.signal);
    },
  );
}
