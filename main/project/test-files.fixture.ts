// Temporary project folders for the project tests, removed after each test file.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** Returns a `tempDir()` whose folders are deleted when the calling test file ends. */
export function useTempDirs(prefix: string): () => Promise<string> {
  const created: string[] = [];
  afterAll(async () => {
    await Promise.all(created.map((dir) => rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await mkdtemp(path.join(tmpdir(), prefix));
    created.push(dir);
    return dir;
  };
}

/** Writes a file, creating its folders. */
export async function write(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
}
