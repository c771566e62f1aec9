// Streams a local file to the page, with byte ranges: Chromium seeks <video> only when the server
// answers Range requests.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import rangeParser from 'range-parser';

const CONTENT_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.svg': 'image/svg+xml',
  '.mp4': 'video/mp4',
  '.m4v': 'video/mp4',
  '.mov': 'video/quicktime',
  '.webm': 'video/webm',
  '.mkv': 'video/x-matroska',
  '.m4a': 'audio/mp4',
  '.mp3': 'audio/mpeg',
  '.wav': 'audio/wav',
  '.ogg': 'audio/ogg',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

export function contentTypeFor(file: string): string {
  return CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export async function serveFile(
  request: IncomingMessage,
  response: ServerResponse,
  file: string,
  contentType = contentTypeFor(file),
): Promise<void> {
  const { size, mtimeMs } = await stat(file);
  // Assets change under a running preview: the page revalidates after every reload, and an
  // unchanged file costs a 304 rather than its bytes.
  const etag = `W/"${size.toString(36)}-${Math.round(mtimeMs * 1000).toString(36)}"`;
  const headers: Record<string, string | number> = {
    'content-type': contentType,
    'accept-ranges': 'bytes',
    'cache-control': 'no-cache',
    etag,
    // Project files are data, never a document of this origin (an SVG opened directly runs no script).
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox",
  };
  if (request.headers['if-none-match'] === etag && !request.headers.range) {
    response.writeHead(304, headers).end();
    return;
  }
  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = request.headers.range;
  if (range) {
    const parsed = rangeParser(size, range, { combine: true });
    if (parsed === -1) {
      response.writeHead(416, { ...headers, 'content-range': `bytes */${size}` }).end();
      return;
    }
    // A malformed or multi-part request gets the whole file, which HTTP allows.
    if (parsed !== -2 && parsed.type === 'bytes' && parsed.length === 1) {
      start = parsed[0]!.start;
      end = parsed[0]!.end;
      status = 206;
      headers['content-range'] = `bytes ${start}-${end}/${size}`;
    }
  }
  headers['content-length'] = size === 0 ? 0 : end - start + 1;
  response.writeHead(status, headers);
  if (request.method === 'HEAD' || size === 0) {
    response.end();
    return;
  }
  const stream = createReadStream(file, { start, end });
  stream.on('error', () => response.destroy());
  response.on('close', () => stream.destroy());
  stream.pipe(response);
}
