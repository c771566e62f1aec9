// /studio/api/authoring/*: Generate and Edit with words over HTTP (the desktop app has the same calls
// over IPC). A job runs in its own process; the UI polls it. Every route needs the workspace token.
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import { AuthoringJobRequestSchema } from '../../shared/studio/authoring.ts';
import { Problem } from '../http/problem.ts';
import type { WorkspaceExtensionContext } from '../workspace/server.ts';
import type { StudioAuthoring } from './authoring-jobs.ts';
import { StudioInputError } from './errors.ts';
import { guarded } from './host-api-routes.ts';

/** The status each refusal answers with (any other StudioInputError is a 400). */
const STATUS_BY_CODE: Record<string, number> = {
  no_ai_provider: 503,
  authoring_busy: 409,
  unknown_job: 404,
  briefing_pending: 409,
};

export const JobParams = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^[0-9a-f-]{36}$' } },
  required: ['id'],
  additionalProperties: false,
} as const;

/** The changed spec travels back in an edit's answer: the body limit is the spec's. */
export const AUTHORING_BODY_LIMIT = 1024 * 1024;

function answer<T>(work: () => T): Promise<T> {
  return guarded(async () => {
    try {
      return work();
    } catch (error) {
      const status = error instanceof StudioInputError ? STATUS_BY_CODE[error.code] : undefined;
      if (status && error instanceof StudioInputError) throw new Problem(status, error.code, error.message);
      throw error;
    }
  });
}

export function authoringRoutes(
  server: FastifyInstance,
  options: { authoring: StudioAuthoring; ctx: WorkspaceExtensionContext },
): void {
  const app = server.withTypeProvider<JsonSchemaToTsProvider>();
  const { authoring, ctx } = options;

  app.get('/studio/api/authoring', async () => authoring.availability());

  app.post(
    '/studio/api/authoring/jobs',
    { schema: { body: AuthoringJobRequestSchema }, bodyLimit: AUTHORING_BODY_LIMIT },
    async (request, reply) => {
      // Both kinds work for the open composition's project: its assets, its specs/ folder.
      const job = await answer(() => authoring.start(request.body, { projectFile: ctx.source }));
      return reply.code(202).send(job);
    },
  );

  app.get('/studio/api/authoring/jobs/:id', { schema: { params: JobParams } }, async (request) =>
    answer(() => authoring.view(request.params.id)),
  );

  app.get('/studio/api/authoring/jobs/:id/briefing', { schema: { params: JobParams } }, async (request) =>
    answer(() => authoring.briefing(request.params.id)),
  );

  app.delete('/studio/api/authoring/jobs/:id', { schema: { params: JobParams } }, async (request) =>
    answer(() => authoring.cancel(request.params.id)),
  );
}
