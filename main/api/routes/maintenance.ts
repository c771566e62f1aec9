// POST /v1/maintenance/cleanup: removes expired renders now (the timer does it every CLEANUP_INTERVAL).
import type { FastifyPluginAsyncJsonSchemaToTs } from '@fastify/type-provider-json-schema-to-ts';
import { requireBearer } from '../../http/auth.ts';
import type { RouteOptions } from '../../renders/context.ts';
import { problemResponses } from '../../http/problem.ts';

export const maintenanceRoutes: FastifyPluginAsyncJsonSchemaToTs<{ Options: RouteOptions }> = async (
  app,
  { ctx },
) => {
  app.post(
    '/v1/maintenance/cleanup',
    {
      // Only the cleanup token: the API token cannot delete, and this one cannot render.
      onRequest: requireBearer(() => ctx.config.cleanupToken, 'CLEANUP_TOKEN', ctx.authFailures),
      // The body is optional: no body means a real (not dry) run.
      preValidation: async (request) => {
        request.body ??= { dryRun: false };
      },
      schema: {
        summary: 'Remove expired renders',
        description:
          'Deletes the files and jobs of renders past their expiry, skipping any still queued or running. With dryRun it only counts.',
        tags: ['maintenance'],
        security: [{ cleanupToken: [] }],
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { dryRun: { type: 'boolean', default: false } },
        },
        response: {
          200: {
            description: 'What was (or, with dryRun, would be) removed.',
            type: 'object',
            additionalProperties: false,
            required: ['scanned', 'deletedFiles', 'deletedJobs', 'freedBytes', 'dryRun'],
            properties: {
              scanned: { type: 'integer', description: 'Expired renders looked at.' },
              deletedFiles: { type: 'integer' },
              deletedJobs: { type: 'integer' },
              freedBytes: { type: 'integer' },
              dryRun: { type: 'boolean' },
            },
          },
          ...problemResponses(400, 401, 429),
        },
      },
    },
    async (request) => ctx.cleanup.run({ dryRun: request.body?.dryRun ?? false }),
  );
};
