import type { FastifyInstance } from 'fastify';
import type { WorkspaceContext } from '../context.ts';
import { BACKEND } from '../job-runner.ts';

const StatusSchema = {
  type: 'object',
  properties: {
    source: { type: 'string' },
    sourceRevision: { type: 'string' },
    compiles: { type: 'boolean' },
    /** Where the source does not compile (empty when it does): for a UI to mark the lines. */
    compileProblems: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          file: { type: 'string' },
          line: { type: 'integer' },
          column: { type: 'integer' },
          message: { type: 'string' },
        },
      },
    },
    backend: { type: 'string' },
    worker: {
      type: 'object',
      properties: {
        state: { type: 'string', enum: ['none', 'starting', 'ready', 'busy', 'retired'] },
        pid: { type: ['integer', 'null'] },
        revision: { type: ['string', 'null'] },
        lastCrash: {
          type: ['object', 'null'],
          properties: {
            pid: { type: 'integer' },
            code: { type: ['integer', 'null'] },
            signal: { type: ['string', 'null'] },
            during: { type: 'string' },
            stderr: { type: 'string' },
          },
        },
      },
    },
    queue: {
      type: 'object',
      properties: {
        depth: { type: 'integer' },
        running: { type: 'integer' },
        waiting: { type: 'integer' },
        limit: { type: 'integer' },
      },
    },
    resultsDir: { type: 'string' },
  },
} as const;

export function statusRoutes(app: FastifyInstance, ctx: WorkspaceContext): void {
  app.get('/status', { schema: { response: { 200: StatusSchema } } }, async () => {
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
