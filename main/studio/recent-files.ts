// The compositions opened lately, most recent first, kept beside the settings. Paths are stored
// resolved, so the same file opened by two spellings is one entry; whether each still exists is
// checked when the list is read, so a moved file shows as missing rather than vanishing.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { RecentFile } from '../../shared/studio/bridge.ts';
import { readJsonOrUndefined, writePrivateFileAtomically } from './settings-store.ts';

const EntrySchema = z.object({
  path: z
    .string()
    .min(1)
    .max(4096)
    .refine((p) => path.isAbsolute(p)),
  openedAt: z.iso.datetime(),
});
type Entry = z.infer<typeof EntrySchema>;

/** Windows and macOS compare names without case by default: one file, one entry. */
function sameFile(a: string, b: string): boolean {
  return process.platform === 'linux' ? a === b : a.toLowerCase() === b.toLowerCase();
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

export class RecentFiles {
  readonly #file: string;
  readonly #limit: number;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(file: string, limit = 10) {
    this.#file = file;
    this.#limit = limit;
  }

  async list(): Promise<RecentFile[]> {
    const entries = await this.#read();
    return Promise.all(entries.map(async (entry) => ({ ...entry, exists: await isFile(entry.path) })));
  }

  add(file: string): Promise<void> {
    const resolved = path.resolve(file);
    return this.#change((entries) => [
      { path: resolved, openedAt: new Date().toISOString() },
      ...entries.filter((entry) => !sameFile(entry.path, resolved)),
    ]);
  }

  remove(file: string): Promise<void> {
    const resolved = path.resolve(file);
    return this.#change((entries) => entries.filter((entry) => !sameFile(entry.path, resolved)));
  }

  /** A missing or corrupt file, or a bad entry in it, reads as nothing rather than failing. */
  async #read(): Promise<Entry[]> {
    const stored = await readJsonOrUndefined(this.#file);
    if (!Array.isArray(stored)) return [];
    return stored.flatMap((item) => {
      const parsed = EntrySchema.safeParse(item);
      return parsed.success ? [parsed.data] : [];
    });
  }

  #change(edit: (entries: Entry[]) => Entry[]): Promise<void> {
    const run = this.#queue.then(async () => {
      const next = edit(await this.#read()).slice(0, this.#limit);
      await writePrivateFileAtomically(this.#file, JSON.stringify(next, null, 2) + '\n');
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
