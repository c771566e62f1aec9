// GET /artifact?path=<absolute path>: a result file, and only one inside this workspace's results
// folder once every symlink is resolved. Anything else is 404, whether it exists or not.
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import { Problem } from '../../http/problem.ts';
import type { WorkspaceContext } from '../context.ts';
import { contentTypeFor } from '../../http/content-type.ts';

async function insideResults(requested: string, resultsDir: string): Promise<string | undefined> {
  if (!path.isAbsolute(requested)) return undefined;
  const [real, root] = await Promise.all([
    realpath(requested).catch(() => undefined),
    realpath(resultsDir).catch(() => undefined),
  ]);
  // The separator matters: /x/results-other is not inside /x/results.
  if (!real || !root || !real.startsWith(root + path.sep)) return undefined;
  const info = await stat(real).catch(() => undefined);
  return info?.isFile() ? real : undefined;
}

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
      const file = await insideResults(requested, ctx.resultsDir);
      if (!file) throw notFound();
      // Open the resolved path without following links and check it is still the file that was
      // judged to be inside: a swap between the check and the open cannot leak another file.
      const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
      if (!handle) throw notFound();
      const [opened, checked] = await Promise.all([handle.stat(), stat(file).catch(() => undefined)]);
      if (!checked || opened.ino !== checked.ino || opened.dev !== checked.dev || !opened.isFile()) {
        await handle.close();
        throw notFound();
      }
      return reply
        .header('content-length', opened.size)
        .type(contentTypeFor(file))
        .send(handle.createReadStream());
    },
  );
}
