// POST /v1/renders, GET /v1/renders/{id}, DELETE /v1/renders/{id}.
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { requireBearer } from '../../http/auth.ts';
import { problemResponses } from '../../http/problem.ts';
import type { RouteOptions } from '../../renders/context.ts';
import { CreateRenderBodySchema, cancelRender, createRender } from '../../renders/render-requests.ts';
import { findLiveJob } from '../../renders/job-lookup.ts';
import { parseIdempotencyKey, withIdempotencyKey } from '../../renders/idempotency.ts';
import { jobView } from '../../renders/job-view.ts';

const IdParamsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

const job = { $ref: 'RenderJob#' };
const security = [{ apiToken: [] }];

export const renderRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: RouteOptions }> = async (
  app,
  { ctx },
) => {
  const requireApiToken = requireBearer(() => ctx.apiToken, 'API_TOKEN', ctx.authFailures);

  app.post(
    '/v1/renders',
    {
      onRequest: requireApiToken,
      schema: {
        summary: 'Create a render',
        description:
          'Queues a render of exactly one input and answers 202 with the job; poll its Location until the status is succeeded, failed or canceled.',
        tags: ['renders'],
        security,
        body: CreateRenderBodySchema,
        headers: {
          type: 'object',
          properties: {
            'idempotency-key': {
              type: 'string',
              maxLength: 300,
              description:
                'Makes retries safe: the same key with the same body answers the same job (header Idempotent-Replayed: true) instead of rendering twice; with another body 422; while the first request is still being accepted 409. A quoted string, e.g. "8e03978e-40d5-43e8-bc93-6894a57f9324"; kept 24 h per token.',
            },
          },
        },
        response: {
          202: {
            description: 'The job, queued.',
            headers: {
              Location: { type: 'string', description: 'The job URL: /v1/renders/{id}' },
              'Idempotent-Replayed': {
                type: 'string',
                description: '"true" when an Idempotency-Key retry answered an earlier request\'s job.',
              },
            },
            ...job,
          },
          ...problemResponses(400, 401, 409, 410, 413, 415, 422, 429, 503),
        },
      },
    },
    async (request, reply) => {
      const key = parseIdempotencyKey(request.headers['idempotency-key']);
      const { job: created, replayed } =
        key === undefined
          ? { job: await createRender(ctx, request.body), replayed: false }
          : await withIdempotencyKey(ctx, key, ctx.apiToken, request.body, () =>
              createRender(ctx, request.body),
            );
      if (replayed) reply.header('idempotent-replayed', 'true');
      else request.log.info({ jobId: created.id, input: created.input.kind }, 'render queued');
      // The answer is the job as created (queued), even when a free worker claimed it at once; a
      // replay answers the job as it is now.
      return reply.code(202).header('location', `/v1/renders/${created.id}`).send(jobView(created, ctx));
    },
  );

  app.get(
    '/v1/renders/:id',
    {
      onRequest: requireApiToken,
      schema: {
        summary: 'Get a render',
        description: 'The job with its status, progress and, once succeeded, its download links.',
        tags: ['renders'],
        security,
        params: IdParamsSchema,
        response: {
          200: { description: 'The job.', ...job },
          ...problemResponses(401, 404, 410, 414, 429, 503),
        },
      },
    },
    async (request) => jobView(await findLiveJob(ctx, request.params.id), ctx),
  );

  app.delete(
    '/v1/renders/:id',
    {
      onRequest: requireApiToken,
      schema: {
        summary: 'Cancel a render',
        description: 'Cancels a queued or running render; the job ends with status canceled.',
        tags: ['renders'],
        security,
        params: IdParamsSchema,
        response: {
          200: { description: 'The canceled job.', ...job },
          ...problemResponses(401, 404, 409, 410, 414, 429, 503),
        },
      },
    },
    async (request) => {
      const canceled = await cancelRender(ctx, request.params.id);
      request.log.info({ jobId: canceled.id }, 'render canceled');
      return jobView(canceled, ctx);
    },
  );
};
