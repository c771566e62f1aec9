// Facts about a file (its hash, its probed size) computed once per version of the file: the workspace
// inspects the same composition again on every edit, and re-hashing a 50 MB clip each time would make
// that slow. A version is (path, size, mtime); an edited or replaced file gets new facts.
import { stat } from 'node:fs/promises';
import { sha256File } from '../fs/hash-file.ts';

export interface FileVersion {
  path: string;
  bytes: number;
  mtimeMs: number;
}

/** Enough for every asset of a few large projects; the oldest entries go first beyond it. */
const MAX_ENTRIES = 4096;
const cache = new Map<string, Promise<unknown>>();

export async function fileVersion(path: string): Promise<FileVersion> {
  const info = await stat(path);
  return { path, bytes: info.size, mtimeMs: info.mtimeMs };
}

/**
 * `compute` for this version of the file under `kind`, reusing an earlier result. Failures are not
 * kept: the next call tries again (the file may have been fixed without its mtime changing).
 */
export function perFileVersion<T>(kind: string, version: FileVersion, compute: () => Promise<T>): Promise<T> {
  const key = `${kind}\0${version.path}\0${version.bytes}\0${version.mtimeMs}`;
  const known = cache.get(key);
  if (known) return known as Promise<T>;
  const pending = compute();
  cache.set(key, pending);
  pending.catch(() => cache.delete(key));
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return pending;
}

/** The file's hash for this version; an aborted hash is not cached (see perFileVersion). */
export function cachedSha256(version: FileVersion, signal?: AbortSignal): Promise<string> {
  return perFileVersion('sha256', version, () => sha256File(version.path, signal));
}
