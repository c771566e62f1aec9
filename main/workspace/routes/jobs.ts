// POST /jobs: one frame, review, inspect or render of the composition, answered when it is done —
// or, with Accept: application/x-ndjson, streamed as progress lines and a last result or problem.
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import type { WorkspaceContext } from '../context.ts';
import { JobBodySchema } from '../../../shared/protocol/workspace.ts';
import { streamJob, wantsJobStream } from './job-stream.ts';

/** Job bodies are small; anything larger is refused before it is parsed. */
export const MAX_JOB_BODY_BYTES = 64 * 1024;

export function jobRoutes(app: FastifyInstance, ctx: WorkspaceContext): void {
  app
    .withTypeProvider<JsonSchemaToTsProvider>()
    .post(
      '/jobs',
      { schema: { body: JobBodySchema }, bodyLimit: MAX_JOB_BODY_BYTES },
      async (request, reply) => {
        const job = request.body;
        // A client that goes away cancels its job, waiting or running.
        const gone = new AbortController();
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) gone.abort();
        });
        if (!wantsJobStream(request)) return ctx.runner.submit(job, gone.signal);
        return streamJob(request, reply, (onLine) =>
          ctx.runner.submit(job, gone.signal, (progress) => onLine({ type: 'progress', ...progress })),
        );
      },
    );
}
