// The inputs of a project, for the browser-mode Home list: code compositions (.ts files that
// default-export a video), JSON specs (a `kinoSpec` object), and of either the templates (a spec
// that declares `variables`, code that exports a template()), each with its kind.
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { InputKind } from '../../shared/studio/bridge.ts';

const SKIPPED_FOLDERS = new Set(['node_modules', 'build', 'dist', '.git', 'assets', 'media-src']);
const MAX_FILES = 200;
/** A spec larger than this is not parsed for the list (a data file, most likely). */
const MAX_SPEC_BYTES = 2 * 1024 * 1024;

export interface ProjectComposition {
  path: string;
  /** Relative to the project root, with forward slashes. */
  relative: string;
  kind: InputKind;
}

const CODE_FILE = /\.tsx?$/;
const NOT_CODE = /\.(test|d)\.tsx?$/;

async function walk(dir: string, depth: number, found: string[]): Promise<void> {
  if (depth > 3 || found.length >= MAX_FILES) return;
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && !SKIPPED_FOLDERS.has(entry.name)) await walk(full, depth + 1, found);
    else if (
      entry.isFile() &&
      ((CODE_FILE.test(entry.name) && !NOT_CODE.test(entry.name)) || entry.name.endsWith('.json'))
    ) {
      found.push(full);
    }
  }
}

/** What `file` is as an input, or undefined when it is none (a config, a data file, a helper module). */
export async function inputKindOf(file: string): Promise<InputKind | undefined> {
  if (file.endsWith('.json')) {
    if (((await stat(file).catch(() => undefined))?.size ?? Infinity) > MAX_SPEC_BYTES) return undefined;
    try {
      const data = JSON.parse(await readFile(file, 'utf8')) as unknown;
      if (typeof data !== 'object' || data === null || !('kinoSpec' in data)) return undefined;
      return 'variables' in data ? 'template' : 'spec';
    } catch {
      return undefined;
    }
  }
  const text = await readFile(file, 'utf8').catch(() => '');
  if (!/export\s+default/.test(text) || !/from\s+['"]kino['"]/.test(text)) return undefined;
  return /export\s+default\s+template\s*\(/.test(text) ? 'template' : 'composition';
}

export async function listProjectCompositions(root: string): Promise<ProjectComposition[]> {
  const files: string[] = [];
  await walk(root, 0, files);
  const inputs: ProjectComposition[] = [];
  for (const file of files) {
    const kind = await inputKindOf(file);
    if (kind)
      inputs.push({ path: file, relative: path.relative(root, file).split(path.sep).join('/'), kind });
  }
  return inputs;
}
