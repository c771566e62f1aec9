// Secrets the server generates for itself when none is configured (the API token, the signing
// secret): created once with owner-only permissions in the data directory, then reused.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export interface StoredSecret {
  value: string;
  /** True when this call created it (the first start), so it can be shown once. */
  created: boolean;
}

/** A random URL-safe string with `bytes` bytes of entropy. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export async function loadOrCreateSecret(
  dataDir: string,
  name: string,
  generate: () => string = () => randomToken(),
): Promise<StoredSecret> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, name);
  const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (existing !== undefined && existing.trim() !== '') return { value: existing.trim(), created: false };
  const value = generate();
  try {
    // 'wx' fails if another process created it first; then theirs wins and is read back.
    await writeFile(file, value + '\n', { mode: 0o600, flag: 'wx' });
    return { value, created: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return { value: (await readFile(file, 'utf8')).trim(), created: false };
  }
}
