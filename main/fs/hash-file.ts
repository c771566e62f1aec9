// SHA-256 of a file, read as a stream: a large video never sits in memory whole. One copy for
// receipts, verification, inspect facts and source revisions.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

export interface FileDigest {
  bytes: number;
  sha256: string;
}

export async function hashFile(file: string, signal?: AbortSignal): Promise<FileDigest> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(file, { signal })) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).byteLength;
  }
  return { bytes, sha256: hash.digest('hex') };
}

export async function sha256File(file: string, signal?: AbortSignal): Promise<string> {
  return (await hashFile(file, signal)).sha256;
}
