// /media?src=<source>: a composition's media, found exactly as the renderer finds it. "asset:" and
// relative sources must stay inside the project (no `..`, absolute paths or symlinks out); remote
// URLs are fetched by this server under the project's media policy (allowHosts, size, timeout) into
// the render cache and served from here, so the page never talks to another origin and its canvas
// is never tainted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MediaError } from '../media/media-error.ts';
import type { MediaErrorCode } from '../media/media-error.ts';
import { resolveMediaSource } from '../media/source.ts';
import type { MediaContext } from '../engine/project-context.ts';
import { serveFile } from './serve-file.ts';

const REFUSED: ReadonlySet<MediaErrorCode> = new Set([
  'media_outside_project',
  'media_absolute_path',
  'media_unsupported_scheme',
  'media_host_not_allowed',
  'media_address_not_allowed',
]);

function statusFor(code: MediaErrorCode): number {
  if (REFUSED.has(code)) return 403;
  if (code === 'missing_asset' || code === 'media_not_a_file') return 404;
  return 502; // a remote fetch or a read went wrong
}

export interface MediaRouteOptions {
  media: MediaContext;
  /** Told about every local file served, so edits to it reload the page. */
  onServed?: (file: string) => void;
}

export async function serveMedia(
  request: IncomingMessage,
  response: ServerResponse,
  url: URL,
  options: MediaRouteOptions,
): Promise<void> {
  const src = url.searchParams.get('src');
  if (!src) {
    sendJson(response, 400, { code: 'bad_request', message: 'expected ?src=<media source>' });
    return;
  }
  let file: string;
  try {
    file = (await resolveMediaSource(src, options.media)).path;
  } catch (error) {
    if (!(error instanceof MediaError)) throw error;
    sendJson(response, statusFor(error.code), { code: error.code, message: error.message });
    return;
  }
  // Downloaded remote media sits in the render cache; only project files are worth watching.
  if (!/^https?:/i.test(src)) options.onServed?.(file);
  await serveFile(request, response, file);
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response
    .writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
    .end(JSON.stringify(body));
}
