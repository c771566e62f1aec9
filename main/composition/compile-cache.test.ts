// Compiles kept on disk: an unchanged composition is not compiled again (esbuild never starts), and
// any change to a file of its graph, or a file written just before the compile, compiles afresh.
// (Waits 2 s once: files must be older than that to be trusted.)
import { mkdir, mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Esbuild from 'esbuild';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const builds = vi.hoisted(() => ({ count: 0 }));
vi.mock('esbuild', async (importOriginal) => {
  const esbuild = await importOriginal<typeof Esbuild>();
  return {
    ...esbuild,
    build: (async (options) => {
      builds.count++;
      return esbuild.build(options);
    }) as typeof esbuild.build,
  };
});

const { compileComposition } = await import('./compile.ts');

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
let dir: string;
let outDir: string;
let cacheDir: string;
const cacheBefore = process.env.KINO_CACHE_DIR;

beforeAll(async () => {
  // Inside the repo (in the git-ignored .kino/) so the composition can import the repo's npm packages.
  await mkdir(path.join(repoRoot, '.kino'), { recursive: true });
  dir = await mkdtemp(path.join(repoRoot, '.kino', 'compile-cache-test-'));
  outDir = await mkdtemp(path.join(tmpdir(), 'kino-compile-cache-out-'));
  cacheDir = await mkdtemp(path.join(tmpdir(), 'kino-compile-cache-'));
  process.env.KINO_CACHE_DIR = cacheDir;
});

afterAll(async () => {
  if (cacheBefore === undefined) delete process.env.KINO_CACHE_DIR;
  else process.env.KINO_CACHE_DIR = cacheBefore;
  for (const folder of [dir, outDir, cacheDir]) await rm(folder, { recursive: true, force: true });
});

beforeEach(() => {
  builds.count = 0;
});

async function write(name: string, source: string): Promise<string> {
  const file = path.join(dir, name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, source);
  return file;
}

const composition = (name: string, lib: string) =>
  [
    "import { scene, text, video } from 'kino';",
    `import { title } from './lib/${lib}.ts';`,
    `export default video({}, [scene({ duration: 1 }, [text(title + ' ${name}')])]);`,
  ].join('\n');

/** Files written early, then left alone past the cache's "may still be changing" window (2 s). */
let same: string;
let changed: string;
let pruning: string;
beforeAll(async () => {
  await write('lib/title.ts', "export const title = 'Hello';\n");
  await write('lib/other.ts', "export const title = 'Hello';\n");
  same = await write('same.ts', composition('same', 'title'));
  changed = await write('changed.ts', composition('changed', 'other'));
  pruning = await write('pruning.ts', composition('pruning', 'title'));
  await new Promise((resolve) => setTimeout(resolve, 2100));
});

async function compiled(entry: string) {
  const result = await compileComposition(entry, { outDir });
  const text = await readFile(result.bundlePath, 'utf8');
  await rm(result.bundlePath);
  return { ...result, text };
}

describe('the compile cache', () => {
  it('gives an unchanged composition the same bundle and graph without compiling, under a new name', async () => {
    const first = await compiled(same);
    const second = await compiled(same);
    expect(builds.count).toBe(1);
    expect(second.bundlePath).not.toBe(first.bundlePath);
    expect(second.text).toBe(first.text);
    expect({ ...second, bundlePath: '', text: '' }).toEqual({ ...first, bundlePath: '', text: '' });
    expect(first.inputs).toContain(path.join(dir, 'lib', 'title.ts'));
  });

  it('compiles again when a local import changes', async () => {
    const before = await compiled(changed);
    await compiled(changed);
    expect(builds.count).toBe(1);
    await write('lib/other.ts', "export const title = 'Howdy';\n"); // the same size
    const after = await compiled(changed);
    expect(builds.count).toBe(2);
    expect(before.text).toContain('"Hello"');
    expect(after.text).toContain('"Howdy"');
  });

  it('keeps nothing for files written just before the compile (they may still be changing)', async () => {
    const entry = await write('fresh.ts', composition('fresh', 'title'));
    const cached = async () => (await readdir(cacheDir, { recursive: true })).length;
    const filesBefore = await cached();
    await compiled(entry);
    await compiled(entry);
    expect(builds.count).toBe(2);
    expect(await cached()).toBe(filesBefore);
  });

  it('keeps 64 compositions at most, dropping the oldest', async () => {
    const old = new Date(Date.now() - 3_600_000);
    const kept = path.join(cacheDir, 'compositions');
    for (let i = 0; i < 70; i++) {
      const file = path.join(kept, `old-${String(i).padStart(2, '0')}.json`);
      await writeFile(file, '{}');
      await utimes(file, old, new Date(old.getTime() + i * 1000));
    }
    await compiled(pruning);
    const left = (await readdir(kept)).filter((name) => name.endsWith('.json')).sort();
    expect(left).toHaveLength(64);
    expect(left.filter((name) => name.startsWith('old-'))).toHaveLength(64 - 3); // same, changed, pruning
    expect(left.find((name) => name.startsWith('old-'))).toBe('old-09.json'); // 70 + 3: the 9 oldest went
  });

  it('keeps nothing for a compile that fails', async () => {
    const entry = await write(
      'broken.ts',
      "import { nothing } from './missing.ts';\nexport default nothing;\n",
    );
    await expect(compileComposition(entry, { outDir })).rejects.toThrow(/missing/);
    await expect(compileComposition(entry, { outDir })).rejects.toThrow(/missing/);
    expect(builds.count).toBe(2);
  });
});
