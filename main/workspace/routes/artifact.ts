// GET /artifact?path=<absolute path>: a result file, and only one inside this workspace's results
// folder once every symlink is resolved. Anything else is 404, whether it exists or not.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Problem } from '../../api/problem.ts';
import type { WorkspaceContext } from '../context.ts';

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.mp4': 'video/mp4',
  '.gif': 'image/gif',
  '.webm': 'video/webm',
  '.mov': 'video/quicktime',
  '.json': 'application/json',
};

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
  app.get(
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
      const { path: requested } = request.query as { path: string };
      const file = await insideResults(requested, ctx.resultsDir);
      if (!file) {
        throw new Problem(404, 'not_found', "no such file in this workspace's results folder");
      }
      const { size } = await stat(file);
      return reply
        .header('content-length', size)
        .type(CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream')
        .send(createReadStream(file));
    },
  );
}
