// GET /v1/files/{id}/{kind}: downloads (the video, the poster, the render receipt). Public files are
// open; private ones need the signed token from the job's downloadUrl (or receiptUrl), bound to that
// one file and its expiry.
import type { FastifyPluginAsync } from 'fastify';
import { serveFile, StoredFileMissing } from '../../http/serve-file.ts';
import { FILE_KIND_PATTERN } from '../../storage/signed-link.ts';
import type { FileKind } from '../../storage/signed-link.ts';
import { storedFileOf } from '../../jobs/job-store.ts';
import { verifyDownloadToken } from '../../storage/signed-link.ts';
import { downloadName } from '../../storage/storage.ts';
import type { RouteOptions } from '../../renders/context.ts';
import { findLiveJob } from '../../renders/job-lookup.ts';
import { Problem, problemResponses } from '../../http/problem.ts';

const binary = { schema: { type: 'string', format: 'binary' } };
const fileContent = {
  'video/mp4': binary,
  'video/webm': binary,
  'video/quicktime': binary,
  'image/gif': binary,
  'image/png': binary,
  'application/json': { schema: { type: 'object', description: 'The render receipt.' } },
};

/** The name a file downloads as: <id>.mp4, <id>.poster.png, <id>.render.json. */
export const fileRoutes: FastifyPluginAsync<RouteOptions> = async (app, { ctx }) => {
  // GET and HEAD share the handler, so HEAD reports the real Content-Length (Fastify's own HEAD
  // route would send the length of an empty body).
  app.route<{ Params: { id: string; kind: FileKind }; Querystring: { token?: string } }>({
    method: ['GET', 'HEAD'],
    url: '/v1/files/:id/:kind',
    schema: {
      summary: 'Download a render file',
      description:
        "Streams the video, the poster or the render receipt (JSON) with Range support, or with S3 storage redirects (302) to the object: to S3_PUBLIC_BASE_URL for public files, else to a presigned GET that expires with the render. Private files need the `token` from the job's downloadUrl or receiptUrl; public files need nothing.",
      tags: ['files'],
      params: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'kind'],
        properties: {
          id: { type: 'string', minLength: 1, maxLength: 100 },
          kind: {
            type: 'string',
            pattern: FILE_KIND_PATTERN,
            description:
              'video, poster or receipt; for output n > 0 of options.outputs, video-n, poster-n, receipt-n.',
          },
        },
      },
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          token: { type: 'string', maxLength: 200, description: 'The signed token of a private file.' },
        },
      },
      response: {
        200: {
          description: 'The file.',
          content: fileContent,
        },
        206: { description: 'The requested byte range (Content-Range).', content: fileContent },
        302: {
          description: 'S3 storage: the file is at the Location (a presigned GET, or the public base URL).',
          headers: { Location: { type: 'string', description: 'Where to fetch the file.' } },
          type: 'null',
        },
        304: { description: 'Not modified (If-None-Match).', type: 'null' },
        416: { description: 'The range is outside the file (Content-Range: bytes */size).', type: 'null' },
        ...problemResponses(400, 401, 403, 404, 410, 414, 429, 503),
      },
    },
    handler: async (request, reply) => {
      const { id, kind } = request.params;
      const now = ctx.now();
      const job = await findLiveJob(ctx, id);
      if (job.visibility === 'private') {
        const token = request.query.token;
        if (token === undefined) {
          throw new Problem(
            401,
            'unauthorized',
            'this file is private: use the signed downloadUrl from the render job',
          );
        }
        const check = verifyDownloadToken(ctx.links().signingSecret, token, { id, kind }, now);
        if (check === 'expired') throw new Problem(410, 'expired', 'this download link has expired');
        if (check !== 'valid') {
          throw new Problem(403, 'forbidden', 'the download token is not valid for this file');
        }
      }
      const stored = storedFileOf(job, kind);
      if (job.status !== 'succeeded' || !stored) {
        throw new Problem(
          404,
          'not_found',
          job.status === 'succeeded'
            ? `render ${id} has no ${kind}`
            : `render ${id} has no files yet (status ${job.status})`,
        );
      }
      const ref = { id, kind, extension: stored.extension };
      const delivery = await ctx.storage.deliver(ref, {
        visibility: job.visibility,
        expiresAt: job.expiresAt,
        now,
      });
      if (delivery.kind === 'redirect') return reply.redirect(delivery.url, 302);
      const maxAge = Math.max(0, Math.floor((job.expiresAt - now) / 1000));
      try {
        return await serveFile(request, reply, {
          path: delivery.path,
          contentType: stored.contentType,
          etag: 'sha256' in stored ? stored.sha256 : `${id}-${kind}-${stored.bytes}`,
          filename: downloadName(ref),
          cacheControl: `${job.visibility === 'public' ? 'public' : 'private'}, max-age=${maxAge}, immutable`,
        });
      } catch (error) {
        if (error instanceof StoredFileMissing) {
          throw new Problem(410, 'expired', `render ${id}'s ${kind} has been deleted`);
        }
        throw error;
      }
    },
  });
};
