// The files a result names inside the results folder: a result that is not handed out (stale, or
// its client went away) takes its files with it, so nothing in the folder looks claimed.
import { rm } from 'node:fs/promises';
import path from 'node:path';

/** Strings anywhere in `value` that name a path inside `resultsDir`. */
export function resultFiles(value: unknown, resultsDir: string, found: string[] = []): string[] {
  if (typeof value === 'string') {
    if (value.startsWith(resultsDir + path.sep)) found.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) resultFiles(item, resultsDir, found);
  } else if (value && typeof value === 'object') {
    for (const item of Object.values(value)) resultFiles(item, resultsDir, found);
  }
  return found;
}

/** Removes them, files and folders (a review's samples) alike; a removal that fails is not an answer. */
export async function removeResultFiles(value: unknown, resultsDir: string): Promise<void> {
  await Promise.all(
    [...new Set(resultFiles(value, resultsDir))].map((file) =>
      rm(file, { recursive: true, force: true }).catch(() => undefined),
    ),
  );
}
