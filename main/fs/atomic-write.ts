// Writing a file whole or not at all: the bytes go to a fresh temp file beside it, which then
// replaces it by rename, so a reader (or a crash) never sees half a file. The temp file is created
// exclusively and without following links, so nothing planted at its name (a symlink to elsewhere)
// is written through. A symlinked file is written through on purpose: its target is replaced and the
// link stays. (write-file-atomic opens its temp file with plain 'w', following links, hence our own.)
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, realpath, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { ensureWritableDir } from './ensure-dir.ts';

export interface AtomicWriteOptions {
  /** The file's mode; default: the mode it had, else 0o666 less the umask. */
  mode?: number;
  /** Create the folder (and its parents) with this mode when it is missing. */
  createDirMode?: number;
}

/** Replaces `file` with `data`; returns the path written (the link's target for a symlink). */
export async function writeFileAtomically(
  file: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<string> {
  if (options.createDirMode !== undefined) {
    await ensureWritableDir(path.dirname(file), { mode: options.createDirMode });
  }
  const target = await realpath(file).catch(() => file);
  const mode = options.mode ?? ((await stat(target).catch(() => undefined))?.mode ?? 0) & 0o7777;
  const temp = path.join(
    path.dirname(target),
    `.${path.basename(target)}.${randomBytes(6).toString('hex')}.partial`,
  );
  const handle = await open(
    temp,
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    mode || 0o666,
  );
  try {
    try {
      await handle.writeFile(data);
      // The creation mode is masked by the umask; an explicit or inherited mode is set as it is.
      if (mode) await handle.chmod(mode);
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
