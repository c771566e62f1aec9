// Reading the composition's entry file for GET /source (PUT /source saves it with
// writeFileAtomically: whole or not at all, through a symlink, keeping the file's mode).
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';

export const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The file's bytes, or undefined when it is missing; `tooLarge` when it is over `maxBytes`. */
export async function readSourceBytes(
  file: string,
  maxBytes = Number.MAX_SAFE_INTEGER,
): Promise<{ bytes: Buffer } | { tooLarge: number } | undefined> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return undefined;
  if (info.size > maxBytes) return { tooLarge: info.size };
  const bytes = await readFile(file).catch(() => undefined);
  if (!bytes) return undefined;
  // It may have grown between the stat and the read.
  return bytes.length > maxBytes ? { tooLarge: bytes.length } : { bytes };
}
