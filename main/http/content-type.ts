// The Content-Type a served file goes out with, from its name (mime-types' database, with a charset
// for text), and application/octet-stream for anything it does not know: a browser then downloads
// it rather than guess and render it.
import path from 'node:path';
import { contentType } from 'mime-types';

export function contentTypeFor(file: string): string {
  return contentType(path.basename(file)) || 'application/octet-stream';
}
