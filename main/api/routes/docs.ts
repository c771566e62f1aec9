// GET /v1/schema/video-spec (always) and, when DOCS_ENABLED, the API reference: a Swagger UI page
// served from the bundled package (no CDN), /v1/docs/openapi.json and /v1/docs/llms.txt.
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsync } from 'fastify';
import { videoSpecJsonSchema } from '../../../shared/spec/json-schema.ts';
import type { RouteOptions } from '../context.ts';
import { llmsGuide } from '../docs/llms-guide.ts';
import { problemResponses } from '../problem.ts';

const noLimit = { rateLimit: false } as const;

export const schemaRoutes: FastifyPluginAsync<RouteOptions> = async (app) => {
  const schemaText = JSON.stringify(videoSpecJsonSchema());
  app.get(
    '/v1/schema/video-spec',
    {
      config: noLimit,
      schema: {
        summary: 'The video spec JSON Schema',
        description: 'JSON Schema (draft 2020-12) of the `spec` input.',
        tags: ['schema'],
        response: {
          200: {
            description: 'The JSON Schema.',
            content: { 'application/schema+json': { schema: { type: 'object' } } },
          },
        },
      },
    },
    async (_request, reply) => reply.type('application/schema+json').send(schemaText),
  );
};

export const docsRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx }) => {
  await app.register(swaggerUi, {
    routePrefix: '/v1/docs',
    staticCSP: true,
    uiConfig: { url: '/v1/docs/openapi.json', deepLinking: true, tryItOutEnabled: false },
    uiHooks: { onRequest: async () => {} },
  });
  app.get(
    '/v1/docs/openapi.json',
    {
      config: noLimit,
      schema: {
        summary: 'The OpenAPI 3.1 document',
        tags: ['docs'],
        response: { 200: { description: 'OpenAPI 3.1', type: 'object', additionalProperties: true } },
      },
    },
    async () => app.swagger(),
  );
  app.get(
    '/v1/docs/llms.txt',
    {
      config: noLimit,
      schema: {
        summary: 'A plain-text guide for AI agents',
        description: 'How to write a video spec and call this API, as llms.txt.',
        tags: ['docs'],
        response: {
          200: { description: 'Plain text.', content: { 'text/plain': { schema: { type: 'string' } } } },
          ...problemResponses(404),
        },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(llmsGuide(ctx.links().baseUrl)),
  );
};
