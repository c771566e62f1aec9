// /media?src=<source>: a composition's media, found exactly as the renderer finds it. "asset:" and
// relative sources must stay inside the project (no `..`, absolute paths or symlinks out); remote
// URLs are fetched by this server under the project's media policy (allowHosts, size, timeout) into
// the render cache and served from here, so the page never talks to another origin and its canvas
// is never tainted.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentTypeFor } from '../http/content-type.ts';
import { Problem } from '../http/problem.ts';
import { serveFile } from '../http/serve-file.ts';
import { MediaError } from '../media/media-error.ts';
import type { MediaErrorCode } from '../media/media-error.ts';
import { resolveMediaSource } from '../media/source.ts';
import type { MediaContext } from '../engine/project-context.ts';

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

/** Project files are data, never a document of this origin (an SVG opened directly runs no script). */
const DATA_ONLY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export async function serveMedia(
  request: FastifyRequest,
  reply: FastifyReply,
  src: string | undefined,
  options: MediaRouteOptions,
): Promise<void> {
  if (!src) throw new Problem(400, 'bad_request', 'expected ?src=<media source>');
  let file: string;
  try {
    file = (await resolveMediaSource(src, options.media)).path;
  } catch (error) {
    if (!(error instanceof MediaError)) throw error;
    throw new Problem(statusFor(error.code), error.code, error.message);
  }
  // Downloaded remote media sits in the render cache; only project files are worth watching.
  if (!/^https?:/i.test(src)) options.onServed?.(file);
  // Assets change under a running preview: the page revalidates after every reload, and an unchanged
  // file costs a 304 rather than its bytes.
  await serveFile(request, reply, {
    path: file,
    contentType: contentTypeFor(file),
    cacheControl: 'no-cache',
    headers: { 'content-security-policy': DATA_ONLY_POLICY },
  });
}
