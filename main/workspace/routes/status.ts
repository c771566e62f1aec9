// GET /status: the source's revision, whether it compiles, the worker and the queue.
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import { WorkspaceStatusSchema } from '../../../shared/protocol/workspace.ts';
import type { WorkspaceContext } from '../context.ts';
import { BACKEND } from '../job-runner.ts';

export function statusRoutes(app: FastifyInstance, ctx: WorkspaceContext): void {
  app
    .withTypeProvider<JsonSchemaToTsProvider>()
    .get('/status', { schema: { response: { 200: WorkspaceStatusSchema } } }, async () => {
      const revision = await ctx.tracker.current();
      const queue = ctx.runner.depth;
      return {
        source: ctx.source,
        sourceRevision: revision.id,
        compiles: revision.compileProblems === undefined,
        compileProblems: revision.compileProblems ?? [],
        backend: BACKEND,
        worker: {
          state: ctx.worker.state,
          pid: ctx.worker.pid ?? null,
          revision: ctx.worker.revision ?? null,
          lastCrash: ctx.worker.lastCrash ?? null,
        },
        queue: { depth: queue.running + queue.waiting, ...queue },
        resultsDir: ctx.resultsDir,
      };
    });
}
