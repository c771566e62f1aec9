// GET /artifact?path=<absolute path>: a result file, and only one inside this workspace's results
// folder once every symlink is resolved. Anything else is 404, whether it exists or not.
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import { Problem } from '../../http/problem.ts';
import type { WorkspaceContext } from '../context.ts';
import { contentTypeFor } from '../../http/content-type.ts';
import { openInside } from '../../fs/open-inside.ts';

export function artifactRoutes(app: FastifyInstance, ctx: WorkspaceContext): void {
  app.withTypeProvider<JsonSchemaToTsProvider>().get(
    '/artifact',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { path: { type: 'string', minLength: 1, maxLength: 4096 } },
          required: ['path'],
          additionalProperties: false,
        },
      },
    },
    async (request, reply) => {
      const { path: requested } = request.query;
      const notFound = () => new Problem(404, 'not_found', "no such file in this workspace's results folder");
      const opened = await openInside(ctx.resultsDir, requested);
      if (!opened) throw notFound();
      return reply
        .header('content-length', opened.info.size)
        .type(contentTypeFor(opened.realPath))
        .send(opened.handle.createReadStream());
    },
  );
}
