// Reading and saving the composition's entry file for GET and PUT /source. A save lands whole or
// not at all: the bytes go to a fresh temp file beside the file, which then replaces it by rename.
import { createHash, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, readFile, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

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

/**
 * Replaces `file` with `bytes`, keeping its mode. A symlinked source is written through: its target
 * is replaced and the link stays. The temp file is created exclusively and without following links,
 * so nothing planted at its name (a symlink to elsewhere) is written through. Returns the path written.
 */
export async function writeSourceAtomically(file: string, bytes: Buffer): Promise<string> {
  const target = await realpath(file).catch(() => file);
  const mode = ((await stat(target).catch(() => undefined))?.mode ?? 0o644) & 0o7777;
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString('hex')}.saving`,
  );
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o600,
  );
  try {
    try {
      await handle.writeFile(bytes);
      // The creation mode is masked by the umask; the file's own mode is set as it was.
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return target;
}
