import { readFile, stat } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { Problem } from '../../api/problem.ts';
import type { WorkspaceContext } from '../context.ts';

/** Larger entry files are refused: a composition that big belongs split into modules. */
export const MAX_SOURCE_BYTES = 256 * 1024;

const SourceSchema = {
  type: 'object',
  properties: {
    source: { type: 'string' },
    sourceRevision: { type: 'string' },
    bytes: { type: 'integer' },
    text: { type: 'string' },
  },
} as const;

export function sourceRoutes(app: FastifyInstance, ctx: WorkspaceContext): void {
  app.get('/source', { schema: { response: { 200: SourceSchema } } }, async () => {
    const info = await stat(ctx.source).catch(() => undefined);
    if (!info?.isFile()) throw new Problem(404, 'source_missing', `${ctx.source} no longer exists`);
    if (info.size > MAX_SOURCE_BYTES) {
      throw new Problem(
        413,
        'source_too_large',
        `${ctx.source} is ${info.size} bytes, over the ${MAX_SOURCE_BYTES / 1024} KiB the workspace serves; split the composition into modules`,
      );
    }
    const revision = await ctx.tracker.current();
    const text = await readFile(ctx.source, 'utf8');
    return { source: ctx.source, sourceRevision: revision.id, bytes: Buffer.byteLength(text), text };
  });
}
