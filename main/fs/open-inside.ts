// Opens a file for reading and proves that what was opened lies inside a root folder. Checking a
// path and then opening it races with anyone who can swap a directory for a symlink in between
// (renameat2 RENAME_EXCHANGE in a loop wins often), so the check is made on the open descriptor:
// on Linux the kernel names the descriptor's real path in /proc/self/fd; elsewhere the descriptor's
// device and inode must match the file its resolved path names after the open.
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open, readlink, realpath, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';

export interface OpenedInside {
  handle: FileHandle;
  /** The real path of the opened file. */
  realPath: string;
  info: Stats;
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel !== '' && !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

async function descriptorPath(handle: FileHandle, file: string, info: Stats): Promise<string | undefined> {
  if (process.platform === 'linux') {
    return readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined);
  }
  const real = await realpath(file).catch(() => undefined);
  const named = real && (await stat(real).catch(() => undefined));
  return named && named.dev === info.dev && named.ino === info.ino ? real : undefined;
}

/**
 * The opened regular file at `file` when its real location is inside `root` (itself resolved),
 * else undefined. O_NONBLOCK keeps a FIFO planted at the path from blocking the open.
 */
export async function openInside(root: string, file: string): Promise<OpenedInside | undefined> {
  if (!path.isAbsolute(file)) return undefined;
  const realRoot = await realpath(root).catch(() => undefined);
  if (!realRoot) return undefined;
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return undefined;
  try {
    const info = await handle.stat();
    const realPath = info.isFile() ? await descriptorPath(handle, file, info) : undefined;
    if (realPath && isInside(realRoot, realPath)) return { handle, realPath, info };
  } catch {
    // Treated as outside: the caller answers "not found" either way.
  }
  await handle.close();
  return undefined;
}
