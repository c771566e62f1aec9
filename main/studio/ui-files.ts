// Where the built studio UI is. An installed app ships it in dist/renderer; a source checkout builds
// it on first use (and again when the UI's sources are newer than the build).
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const STUDIO_UI_DIR = path.join(REPO_ROOT, 'dist', 'renderer');
/** Monaco's Kino type libraries, generated with the UI build (see main/composition/builder-types.ts). */
export const PREBUILT_TYPES = path.join(REPO_ROOT, 'dist', 'studio-types.json');
/** Written last by the build: its time says when the build finished. */
export const BUILD_STAMP = '.kino-build-stamp';
const UI_SOURCES = ['renderer', 'shared', 'vite.config.ts'].map((entry) => path.join(REPO_ROOT, entry));

async function newestChange(entry: string): Promise<number> {
  const info = await stat(entry).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.mtimeMs;
  const children = await readdir(entry);
  const times = await Promise.all(children.map((child) => newestChange(path.join(entry, child))));
  return Math.max(info.mtimeMs, ...times);
}

/** Whether dist/renderer is missing or older than the UI's sources (only a checkout has them). */
export async function studioUiIsStale(dir = STUDIO_UI_DIR): Promise<boolean> {
  const built = await stat(path.join(dir, BUILD_STAMP)).catch(() => undefined);
  if (!built) return true;
  const sourcesThere = await stat(path.join(REPO_ROOT, 'renderer', 'studio')).catch(() => undefined);
  if (!sourcesThere) return false; // an installed app: what shipped is what there is
  const sources = Math.max(...(await Promise.all(UI_SOURCES.map(newestChange))));
  return sources > built.mtimeMs;
}
