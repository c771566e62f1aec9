// Streams a file with Content-Length, an ETag and byte ranges: stored renders (render API) and project
// files (preview media, fonts). The file is opened before the headers go out and read through that
// descriptor, so a cleanup that deletes it mid-download cannot cut the response short. Chromium seeks
// a <video> only when the server answers Range requests.
import { open } from 'node:fs/promises';
import { openInside } from '../fs/open-inside.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';

export interface ServedFile {
  path: string;
  /**
   * When set, the file is served only if the descriptor opened is inside this folder (checked after
   * the open, so swapping a parent directory for a symlink cannot redirect it); else it is missing.
   */
  insideRoot?: string;
  contentType: string;
  /**
   * A strong validator for the content (its sha256 when known). Without one, a weak validator from
   * the file's size and modification time: files that change under a running preview revalidate.
   */
  etag?: string;
  /** Name offered to save the file as (Content-Disposition). */
  filename?: string;
  cacheControl: string;
  /** More response headers, e.g. a Content-Security-Policy for files that are data, not pages. */
  headers?: Record<string, string>;
}

export class StoredFileMissing extends Error {
  override name = 'StoredFileMissing';
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** If-None-Match: "*", or a list of entity tags compared weakly (RFC 9110 §13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

export async function serveFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: ServedFile,
): Promise<FastifyReply> {
  const handle = file.insideRoot
    ? (await openInside(file.insideRoot, file.path))?.handle
    : await open(file.path, 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
  if (!handle) throw new StoredFileMissing(file.path);
  let handedOff = false;
  try {
    const { size, mtimeMs } = await handle.stat();
    const etag = file.etag
      ? `"${file.etag}"`
      : `W/"${size.toString(36)}-${Math.round(mtimeMs * 1000).toString(36)}"`;
    reply
      .headers(file.headers ?? {})
      .header('content-type', file.contentType)
      .header('accept-ranges', 'bytes')
      .header('etag', etag)
      .header('cache-control', file.cacheControl);
    if (file.filename) reply.header('content-disposition', `inline; filename="${file.filename}"`);
    if (matchesEtag(request.headers['if-none-match'], etag)) return reply.code(304).send();

    let start = 0;
    let end = size - 1;
    const rangeHeader = request.headers.range;
    // A Range applies only while the client's copy is this one (If-Range; a weak tag never matches).
    const ifRange = request.headers['if-range'];
    if (rangeHeader && (ifRange === undefined || (ifRange === etag && !etag.startsWith('W/')))) {
      const ranges = parseRange(size, rangeHeader, { combine: true });
      if (ranges === -1) {
        return reply.code(416).header('content-range', `bytes */${size}`).send();
      }
      // One byte range is served as a 206; several (rare for media) or another unit get the whole file.
      if (ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1) {
        start = ranges[0]!.start;
        end = ranges[0]!.end;
        reply.code(206).header('content-range', `bytes ${start}-${end}/${size}`);
      }
    }
    reply.header('content-length', String(size === 0 ? 0 : end - start + 1));
    if (size === 0 || request.method === 'HEAD') return reply.send();
    const stream = handle.createReadStream({ start, end, autoClose: true });
    handedOff = true;
    return reply.send(stream);
  } finally {
    if (!handedOff) await handle.close();
  }
}
