import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RecentFiles } from './recent-files.ts';

let dir: string;
let store: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kino-recent-'));
  store = path.join(dir, 'recent.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

async function touch(name: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, '');
  return file;
}

describe('RecentFiles', () => {
  it('lists the most recently opened first, once each', async () => {
    const [a, b] = [await touch('a.ts'), await touch('b.ts')];
    const recent = new RecentFiles(store);
    await recent.add(a);
    await recent.add(b);
    await recent.add(path.join(dir, 'sub', '..', 'a.ts'));
    const list = await recent.list();
    expect(list.map((entry) => entry.path)).toEqual([a, b]);
    expect(list.every((entry) => entry.exists && !Number.isNaN(Date.parse(entry.openedAt)))).toBe(true);
  });

  it('keeps at most `limit` entries', async () => {
    const recent = new RecentFiles(store, 3);
    for (const name of ['1.ts', '2.ts', '3.ts', '4.ts']) await recent.add(await touch(name));
    expect((await recent.list()).map((entry) => path.basename(entry.path))).toEqual(['4.ts', '3.ts', '2.ts']);
  });

  it('marks a file that is gone, and removes an entry on request', async () => {
    const [a, b] = [await touch('a.ts'), await touch('b.ts')];
    const recent = new RecentFiles(store);
    await recent.add(a);
    await recent.add(b);
    await rm(a);
    expect((await recent.list()).map((entry) => entry.exists)).toEqual([true, false]);
    await recent.remove(a);
    expect((await recent.list()).map((entry) => entry.path)).toEqual([b]);
  });

  it('reads a corrupt file as empty and drops bad entries', async () => {
    await writeFile(store, 'nope');
    expect(await new RecentFiles(store).list()).toEqual([]);
    const a = await touch('a.ts');
    await writeFile(
      store,
      JSON.stringify([
        { path: 'relative.ts', openedAt: '2026-01-01T00:00:00Z' },
        { path: a, openedAt: '2026-01-01T00:00:00Z' },
        7,
      ]),
    );
    expect((await new RecentFiles(store).list()).map((entry) => entry.path)).toEqual([a]);
  });

  it('keeps every add of a burst', async () => {
    const recent = new RecentFiles(store);
    const files = await Promise.all(['a.ts', 'b.ts', 'c.ts'].map(touch));
    await Promise.all(files.map((file) => recent.add(file)));
    expect((await recent.list()).map((entry) => entry.path).sort()).toEqual([...files].sort());
  });
});
