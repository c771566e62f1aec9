// Creates a folder and its missing parents one level at a time. Node's own recursive mkdir loops
// forever under /proc (mkdir "/proc/nope" answers ENOENT, and it retries the parent, which exists),
// so a render to "/proc/nope/x.mp4" hung at full CPU instead of failing.
import { constants } from 'node:fs';
import { access, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';

/** A folder that cannot be made or written, with a message fit for one line of a CLI. */
export class FolderNotWritable extends Error {
  override name = 'FolderNotWritable';
  readonly code: string;
  constructor(message: string, code: string) {
    super(message);
    this.code = code;
  }
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'read-only file system',
  ENOENT: 'that location cannot hold folders',
  ENOTDIR: 'a parent is a file',
  ENOSPC: 'no space left',
};

function refused(folder: string, code: string): FolderNotWritable {
  return new FolderNotWritable(`cannot write to ${folder}: ${REASONS[code] ?? code}`, code);
}

/** Makes `folder` (and missing parents) and checks it is writable; throws FolderNotWritable if not. */
export async function ensureWritableDir(folder: string, options: { mode?: number } = {}): Promise<void> {
  const target = path.resolve(folder);
  const missing: string[] = [];
  for (let current = target; ; current = path.dirname(current)) {
    const info = await stat(current).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw refused(current, error.code ?? 'error');
    });
    if (info) {
      if (!info.isDirectory()) throw refused(current, 'ENOTDIR');
      break;
    }
    missing.unshift(current);
    if (path.dirname(current) === current) break;
  }
  for (const dir of missing) {
    await mkdir(dir, options.mode === undefined ? {} : { mode: options.mode }).catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw refused(dir, error.code ?? 'error');
      },
    );
  }
  await access(target, constants.W_OK).catch((error: NodeJS.ErrnoException) => {
    throw refused(target, error.code ?? 'EACCES');
  });
}
