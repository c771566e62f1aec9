// GET /studio/exports/<key>/<file>: an exported video, for the Export pane's player. A <video> cannot
// send the X-Kino-Token header, so it takes the preview key in the path (as the live preview does),
// and serves only a file named plainly in this workspace's renders folder, opened inside it, with
// byte ranges (Chromium seeks a <video> only through them).
import path from 'node:path';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import { tokensEqual } from '../http/auth.ts';
import { contentTypeFor } from '../http/content-type.ts';
import { Problem } from '../http/problem.ts';
import { StoredFileMissing, serveFile } from '../http/serve-file.ts';
import { EXPORTS_PREFIX, EXPORT_FILE_NAME } from '../../shared/studio/export-url.ts';

export function studioExportRoutes(app: FastifyInstance, resultsDir: string, previewKey: string): void {
  const rendersDir = path.join(resultsDir, 'renders');
  app.withTypeProvider<JsonSchemaToTsProvider>().get(
    `${EXPORTS_PREFIX}:key/:name`,
    {
      schema: {
        params: {
          type: 'object',
          properties: {
            key: { type: 'string', maxLength: 64 },
            name: { type: 'string', maxLength: 256 },
          },
          required: ['key', 'name'],
        },
      },
    },
    async (request, reply) => {
      const { key, name } = request.params;
      const missing = () => new Problem(404, 'not_found', 'no such export in this workspace');
      if (!tokensEqual(key, previewKey) || !EXPORT_FILE_NAME.test(name)) throw missing();
      try {
        return await serveFile(request, reply, {
          path: path.join(rendersDir, name),
          insideRoot: rendersDir,
          contentType: contentTypeFor(name),
          cacheControl: 'no-cache',
          headers: { 'x-content-type-options': 'nosniff' },
        });
      } catch (error) {
        if (error instanceof StoredFileMissing) throw missing();
        throw error;
      }
    },
  );
}
