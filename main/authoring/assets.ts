// The project's assets as a model should name them ("asset:photos/beach.jpg"), so an authored spec
// uses media that exists rather than invented URLs.
import { readdir } from 'node:fs/promises';
import path from 'node:path';

const MAX_ASSETS = 200;

export async function listAssets(assetsDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > 4 || found.length >= MAX_ASSETS) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || found.length >= MAX_ASSETS) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full, depth + 1);
      else if (entry.isFile())
        found.push(`asset:${path.relative(assetsDir, full).split(path.sep).join('/')}`);
    }
  };
  await walk(assetsDir, 0);
  return found;
}
