// The bundled examples the welcome screen offers: the compositions in examples/compositions/, and a
// copy of one as a standalone project (its own kino.json and assets) for "New from example".
import { constants, readFileSync, readdirSync } from 'node:fs';
import { copyFile, lstat, mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExampleInfo } from '../../shared/studio/bridge.ts';
import { StudioInputError } from './errors.ts';

export const EXAMPLES_DIR = fileURLToPath(new URL('../../examples/', import.meta.url));
const COMPOSITIONS_DIR = path.join(EXAMPLES_DIR, 'compositions');
const ASSETS_DIR = path.join(EXAMPLES_DIR, 'assets');

/** "brand-intro" → "Brand intro", for a file without a "Title: description" opening comment. */
function titleFromId(id: string): string {
  const words = id.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The file's opening `//` comment, joined into one line. */
function openingComment(text: string): string {
  const lines: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*\/\/\s?(.*)$/.exec(line);
    if (!match) break;
    lines.push(match[1]!.trim());
  }
  return lines.join(' ').trim();
}

export function describeExample(id: string, source: string): ExampleInfo {
  const comment = openingComment(source);
  const colon = comment.indexOf(': ');
  if (colon > 0 && colon <= 60) {
    return { id, title: comment.slice(0, colon), description: comment.slice(colon + 2) };
  }
  return { id, title: titleFromId(id), description: comment };
}

/** Sorted by id, so the list (and the menu built from it) is the same on every run. */
export function listExamples(): ExampleInfo[] {
  return readdirSync(COMPOSITIONS_DIR)
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => name.slice(0, -'.ts'.length))
    .sort()
    .map((id) => describeExample(id, readFileSync(path.join(COMPOSITIONS_DIR, `${id}.ts`), 'utf8')));
}

/** Files under `dir`, relative to it, with "/" separators; only regular files are taken. */
async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) found.push(...(await filesUnder(path.join(dir, entry.name), relative)));
    else if (entry.isFile()) found.push(relative);
  }
  return found.sort();
}

/** The examples' kino.json narrowed to one composition, so the copy names nothing it lacks. */
async function projectConfigFor(example: ExampleInfo): Promise<string> {
  const config = JSON.parse(await readFile(path.join(EXAMPLES_DIR, 'kino.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const narrowed = {
    ...config,
    name: example.title,
    compositions: { [example.id]: `compositions/${example.id}.ts` },
  };
  return JSON.stringify(narrowed, null, 2) + '\n';
}

async function exists(file: string): Promise<boolean> {
  return (await lstat(file).catch(() => undefined)) !== undefined;
}

/**
 * Copies example `id` into `folder` (created when missing) as a project that renders on its own:
 * kino.json, compositions/<id>.ts and assets/. Never overwrites: any of those files already there
 * refuses the whole copy. Returns the composition's absolute path.
 */
export async function copyExample(id: string, folder: string): Promise<string> {
  const example = listExamples().find((candidate) => candidate.id === id);
  if (!example) throw new StudioInputError('unknown_example', `there is no example named "${id}"`);
  const root = path.resolve(folder);
  const found = await stat(root).catch(() => undefined);
  if (found && !found.isDirectory()) {
    throw new StudioInputError('not_a_folder', `${root} is a file, not a folder; choose a folder`);
  }
  const composition = path.join('compositions', `${id}.ts`);
  const assets = (await filesUnder(ASSETS_DIR)).map((file) => path.join('assets', ...file.split('/')));
  const targets = ['kino.json', composition, ...assets];
  for (const target of targets) {
    if (await exists(path.join(root, target))) {
      throw new StudioInputError(
        'target_exists',
        `${path.join(root, target)} already exists; choose an empty folder so nothing is overwritten`,
      );
    }
  }
  const config = await projectConfigFor(example);
  const copy = async (from: string, to: string) => {
    await mkdir(path.dirname(to), { recursive: true });
    // COPYFILE_EXCL: a file that appeared since the check above is still never overwritten.
    await copyFile(from, to, constants.COPYFILE_EXCL);
  };
  for (const asset of assets) await copy(path.join(EXAMPLES_DIR, asset), path.join(root, asset));
  await copy(path.join(EXAMPLES_DIR, composition), path.join(root, composition));
  await writeFile(path.join(root, 'kino.json'), config, { flag: 'wx' });
  return path.join(root, composition);
}
