// One server per data directory: a second process on the same DATA_DIR would take the first's
// running jobs for interrupted ones and run them twice.
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

/** Whether a process with this pid is running (EPERM: it is, under another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the data directory's lock; the returned function releases it. */
export function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  return acquirePidLock(
    path.join(dataDir, 'server.pid'),
    (pid) => `another Kino server (pid ${pid}) is using ${dataDir}; stop it or set a different DATA_DIR`,
    `could not lock ${dataDir}: another server keeps taking it`,
  );
}

/**
 * Takes an exclusive lock held as a file with the holder's pid; a lock whose process is gone is
 * taken over. The returned function releases it. `inUse` words the refusal when a live process
 * holds it.
 */
export async function acquirePidLock(
  file: string,
  inUse: (pid: number) => string,
  contended: string,
): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      // Written aside, then linked into place: the lock never exists without its pid in it, so a
      // second server starting at the same moment cannot read it empty and take it for stale.
      const pending = `${file}.${process.pid}.tmp`;
      await writeFile(pending, String(process.pid), { mode: 0o600 });
      try {
        await link(pending, file);
      } finally {
        await rm(pending, { force: true });
      }
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
        throw new DataDirInUseError(inUse(pid));
      }
      // The process that held it is gone (a crash): the lock is stale.
      await rm(file, { force: true });
    }
  }
  throw new DataDirInUseError(contended);
}
