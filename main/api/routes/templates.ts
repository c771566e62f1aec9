// GET /v1/templates: the render project's keys that are templates, each with its variables, so a
// client knows what `variables` a POST /v1/renders with that key takes.
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { requireBearer } from '../../http/auth.ts';
import { Problem, problemResponses } from '../../http/problem.ts';
import type { RouteOptions } from '../../renders/context.ts';

export const TemplateListSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['templates', 'unavailable'],
  properties: {
    templates: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'kind', 'variables'],
        properties: {
          key: { type: 'string', description: 'Render it with POST /v1/renders {key, variables}.' },
          kind: { type: 'string', enum: ['spec', 'composition'] },
          title: { type: 'string', description: "The template's title, placeholders included." },
          variables: {
            type: 'object',
            description:
              'Each variable: {type: string|number|boolean|color|image|clip, default?, description?, min?, max?, maxLength?}; one without a default is required.',
            additionalProperties: true,
          },
        },
      },
    },
    unavailable: {
      type: 'array',
      items: { type: 'string' },
      description: 'Keys that could not be read (the server log says why): they may be templates too.',
    },
  },
} as const;

export const templateRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: RouteOptions }> = async (
  app,
  { ctx },
) => {
  const requireApiToken = requireBearer(() => ctx.apiToken, 'API_TOKEN', ctx.authFailures);
  app.get(
    '/v1/templates',
    {
      onRequest: requireApiToken,
      schema: {
        summary: 'List templates',
        description:
          "The render project's keys whose spec declares variables, or whose composition is a template(), with their variables.",
        tags: ['renders'],
        security: [{ apiToken: [] }],
        response: {
          200: { description: 'The templates.', ...TemplateListSchema },
          ...problemResponses(401, 429, 503),
        },
      },
    },
    async () => {
      const listing = await ctx.keys.templates().catch((error: unknown) => {
        ctx.log.error({ err: error }, 'the render project cannot be loaded');
        throw new Problem(
          503,
          'project_unavailable',
          "the server's render project cannot be loaded; the operator must fix RENDER_PROJECT",
        );
      });
      for (const failure of listing.failures) {
        ctx.log.warn(
          { key: failure.key, reason: failure.message },
          'a key could not be read for the template list',
        );
      }
      return {
        templates: listing.templates,
        unavailable: listing.failures.map((failure) => failure.key),
      };
    },
  );
};
