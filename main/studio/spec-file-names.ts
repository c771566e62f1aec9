// Where a generated spec goes: specs/<slug>.json in the project, the slug made from the video's title
// (else the prompt), and never a file that is already there: the next free "-2", "-3", … is taken,
// created exclusively so that two generates at once cannot both take the same name.
import { mkdir, realpath, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StudioInputError } from './errors.ts';

export const SPECS_FOLDER = 'specs';
const MAX_SLUG_CHARS = 40;
const MAX_TRIES = 100;

/** "Café opening: 3 scenes!" → "cafe-opening-3-scenes"; nothing usable → "generated". */
export function specSlug(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (words.length <= MAX_SLUG_CHARS) return words || 'generated';
  const cut = words.slice(0, MAX_SLUG_CHARS + 1);
  const atWord = cut.lastIndexOf('-');
  return (atWord > 0 ? cut.slice(0, atWord) : cut.slice(0, MAX_SLUG_CHARS)).replace(/-+$/, '');
}

/** The n-th candidate name: slug.json, slug-2.json, slug-3.json, … */
export function candidateName(slug: string, n: number): string {
  return n === 1 ? `${slug}.json` : `${slug}-${n}.json`;
}

/**
 * Writes `text` as a new file in `<root>/specs/`, under the first free name for `slug`. Refuses a
 * specs folder that leads outside the project (a symlink).
 */
export async function writeNewSpec(root: string, slug: string, text: string): Promise<string> {
  const folder = path.join(root, SPECS_FOLDER);
  await mkdir(folder, { recursive: true });
  const [realRoot, realFolder] = await Promise.all([realpath(root), realpath(folder)]);
  if (realFolder !== path.join(realRoot, SPECS_FOLDER)) {
    throw new StudioInputError('outside_project', `${folder} leads outside the project`);
  }
  for (let n = 1; n <= MAX_TRIES; n++) {
    const file = path.join(folder, candidateName(slug, n));
    try {
      await writeFile(file, text, { flag: 'wx' });
      return file;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new StudioInputError(
    'no_free_name',
    `${SPECS_FOLDER}/ already has ${slug}.json up to ${candidateName(slug, MAX_TRIES)}`,
  );
}
