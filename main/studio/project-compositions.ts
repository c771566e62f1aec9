// The compositions of a project, for the browser-mode "Open composition" list: the project config's
// named compositions first, then other .ts files that look like compositions (default-export a video).
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

const SKIPPED_FOLDERS = new Set(['node_modules', 'build', 'dist', '.git', 'assets', 'media-src']);
const MAX_FILES = 200;

export interface ProjectComposition {
  path: string;
  /** Relative to the project root, with forward slashes. */
  relative: string;
}

async function walk(dir: string, depth: number, found: string[]): Promise<void> {
  if (depth > 3 || found.length >= MAX_FILES) return;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) await walk(full, depth + 1, found);
    else if (entry.isFile() && /\.tsx?$/.test(entry.name) && !/\.(test|d)\.tsx?$/.test(entry.name)) {
      found.push(full);
    }
  }
}

export async function listProjectCompositions(root: string): Promise<ProjectComposition[]> {
  const files: string[] = [];
  await walk(root, 0, files);
  const compositions: ProjectComposition[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (!/export\s+default/.test(text) || !/from\s+['"]kino['"]/.test(text)) continue;
    compositions.push({ path: file, relative: path.relative(root, file).split(path.sep).join('/') });
  }
  return compositions;
}
