// /media?src=<source>: a composition's media, found exactly as the renderer finds it. "asset:" and
// relative sources must stay inside the project (no `..`, absolute paths or symlinks out); remote
// URLs are fetched by this server under the project's media policy (allowHosts, size, timeout) into
// the render cache and served from here, so the page never talks to another origin and its canvas
// is never tainted.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentTypeFor } from '../http/content-type.ts';
import { Problem } from '../http/problem.ts';
import { serveFile, StoredFileMissing } from '../http/serve-file.ts';
import { MediaError } from '../media/media-error.ts';
import type { MediaErrorCode } from '../media/media-error.ts';
import { resolveMediaSource } from '../media/source.ts';
import type { MediaContext } from '../engine/project-context.ts';

const REFUSED: ReadonlySet<MediaErrorCode> = new Set([
  'media_outside_project',
  'media_private_file',
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

/**
 * What a composition loads through /media; sources, configs and secrets (.env) are never served.
 * ".ts" is MPEG-TS to the type database, but a TypeScript source here (and no browser plays MPEG-TS).
 * Chart data is served as CSV only: a JSON file may be a config (kino.json, package.json, keys).
 */
const SERVED_TYPES =
  /^(?:(image|video|audio|font)\/(?!mp2t$)|(text\/vtt|application\/x-subrip|text\/csv)(;|$))/;

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
  let root: string;
  try {
    ({ path: file, root } = await resolveMediaSource(src, options.media));
  } catch (error) {
    if (!(error instanceof MediaError)) throw error;
    throw new Problem(statusFor(error.code), error.code, error.message);
  }
  const remote = /^https?:/i.test(src);
  const contentType = contentTypeFor(file);
  // A download is cached under its URL's extension, if it has one: only project files are judged by name.
  if (!remote && !SERVED_TYPES.test(contentType)) {
    throw new Problem(
      403,
      'not_media',
      `media source "${src}" is not an image, video, audio or font file (${contentType}); only media is served`,
    );
  }
  // Downloaded remote media sits in the render cache; only project files are worth watching.
  if (!remote) options.onServed?.(file);
  // Assets change under a running preview: the page revalidates after every reload, and an unchanged
  // file costs a 304 rather than its bytes.
  try {
    await serveFile(request, reply, {
      path: file,
      insideRoot: root,
      contentType,
      cacheControl: 'no-cache',
      headers: { 'content-security-policy': DATA_ONLY_POLICY },
    });
  } catch (error) {
    if (!(error instanceof StoredFileMissing)) throw error;
    throw new Problem(404, 'missing_asset', `media source "${src}" is no longer there`);
  }
}
