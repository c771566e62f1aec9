// GET /v1/healthz (the process answers) and GET /v1/readyz (it can do its job: storage is
// writable, ffmpeg runs, the queue takes work).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { FastifyPluginAsync } from 'fastify';
import { ffmpegPath } from '../../ffmpeg/binaries.ts';
import type { RouteOptions } from '../../renders/context.ts';
import { S3StorageError } from '../../storage/s3-storage.ts';
import { sendProblem } from '../../http/problem.ts';

const run = promisify(execFile);
/** A passing ffmpeg check is reused this long; a failing one is retried on the next probe. */
const FFMPEG_CHECK_TTL_MS = 60_000;

type CheckResult = 'ok' | string;

const ChecksSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ok', 'ready'] },
    checks: {
      type: 'object',
      additionalProperties: false,
      properties: { storage: { type: 'string' }, ffmpeg: { type: 'string' }, queue: { type: 'string' } },
    },
  },
} as const;

export const healthRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx }) => {
  let ffmpegOkAt = -Infinity;
  async function checkFfmpeg(): Promise<CheckResult> {
    if (Date.now() - ffmpegOkAt < FFMPEG_CHECK_TTL_MS) return 'ok';
    try {
      await run(ffmpegPath(), ['-hide_banner', '-version'], { timeout: 10_000 });
      ffmpegOkAt = Date.now();
      return 'ok';
    } catch (error) {
      return `ffmpeg does not run: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
  }
  async function checkStorage(): Promise<CheckResult> {
    try {
      await ctx.storage.checkWritable();
      return 'ok';
    } catch (error) {
      // S3's reasons are written for the operator (the bucket, the credentials); a local error's code.
      if (error instanceof S3StorageError) return error.message;
      return `storage is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
    }
  }

  app.get(
    '/v1/healthz',
    {
      config: { rateLimit: false },
      schema: {
        summary: 'Liveness',
        tags: ['health'],
        response: { 200: { description: 'Alive.', ...ChecksSchema } },
      },
    },
    async () => ({ status: 'ok', checks: {} }),
  );

  app.get(
    '/v1/readyz',
    {
      config: { rateLimit: false },
      schema: {
        summary: 'Readiness',
        description:
          'Ready when storage is writable, ffmpeg runs and the queue takes work (and is not full); else 503 naming what failed.',
        tags: ['health'],
        response: {
          200: { description: 'Ready.', ...ChecksSchema },
          503: {
            description: 'Not ready.',
            content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const [storage, ffmpeg] = await Promise.all([checkStorage(), checkFfmpeg()]);
      // On Redis the store is another server: unreachable is not ready, not a 500.
      const queued = await ctx.store.countByStatus('queued').catch(() => undefined);
      const queue: CheckResult = !ctx.runner.accepting
        ? 'the queue is not taking work (starting or stopping)'
        : queued === undefined
          ? 'the job store does not answer (QUEUE_BACKEND=redis: is Redis up at REDIS_URL?)'
          : queued >= ctx.config.maxQueueDepth
            ? `the queue is full: ${queued} renders waiting (MAX_QUEUE_DEPTH ${ctx.config.maxQueueDepth})`
            : 'ok';
      const checks = { storage, ffmpeg, queue };
      const failed = Object.entries(checks).filter(([, result]) => result !== 'ok');
      if (failed.length === 0) return { status: 'ready', checks };
      return sendProblem(
        request,
        reply,
        503,
        'not_ready',
        failed.map(([name, why]) => `${name}: ${why}`).join('; '),
      );
    },
  );
};
