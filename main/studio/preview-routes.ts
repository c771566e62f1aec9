// The studio's live preview: a PreviewSite under /studio/preview/<key>/. Images, videos, fonts and
// module imports cannot send the X-Kino-Token header, so these read-only routes take a preview key in
// the path instead: derived from the token (HMAC), it opens nothing but the preview, and the token
// itself never appears in a URL.
import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { tokensEqual } from '../http/auth.ts';
import { Problem } from '../http/problem.ts';
import type { PreviewSite } from '../preview/preview-site.ts';

export const PREVIEW_PREFIX = '/studio/preview/';

export function previewKeyFor(token: string): string {
  return createHmac('sha256', token).update('kino-studio-preview').digest('hex').slice(0, 32);
}

export function studioPreviewRoutes(
  app: FastifyInstance,
  site: Pick<PreviewSite, 'serve'>,
  previewKey: string,
): void {
  app.get<{ Params: { key: string; '*': string } }>(`${PREVIEW_PREFIX}:key/*`, async (request, reply) => {
    if (!tokensEqual(request.params.key, previewKey)) {
      throw new Problem(404, 'not_found', 'no such preview: the studio page is out of date, reload it');
    }
    if (!(await site.serve(`/${request.params['*']}`, request, reply))) {
      throw new Problem(404, 'not_found', `no preview route /${request.params['*']}`);
    }
    return reply;
  });
}
