// The project's images and videos, for the variables form's media fields: each as the `asset:` source
// a spec names it by. Only files the media gate lets a spec use (no dotfiles, no config), under the
// project's assets folder, a bounded walk.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ProjectAsset } from '../../shared/studio/bridge.ts';
import { contentTypeFor } from '../http/content-type.ts';
import { refusedProjectFile } from '../media/project-file-gate.ts';

const MAX_ASSETS = 500;
const MAX_DEPTH = 4;

async function walk(dir: string, base: string, depth: number, found: ProjectAsset[]): Promise<void> {
  if (depth > MAX_DEPTH || found.length >= MAX_ASSETS) return;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.') || found.length >= MAX_ASSETS) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      await walk(full, base, depth + 1, found);
      continue;
    }
    if (!entry.isFile()) continue;
    const relative = path.relative(base, full).split(path.sep).join('/');
    const type = contentTypeFor(entry.name);
    const kind = type.startsWith('image/') ? 'image' : type.startsWith('video/') ? 'clip' : undefined;
    if (kind && !refusedProjectFile(relative)) found.push({ src: `asset:${relative}`, kind });
  }
}

/** The images and videos in `assetsDir`, sorted by path; at most 500. */
export async function listProjectAssets(assetsDir: string): Promise<ProjectAsset[]> {
  const found: ProjectAsset[] = [];
  await walk(assetsDir, assetsDir, 0, found);
  return found;
}
