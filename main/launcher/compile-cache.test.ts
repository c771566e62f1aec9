// Where `kino` keeps Node's compile cache, and that a run fills it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// Plain JavaScript without a declaration file: imported by URL and typed here.
const { compileCacheDir } = (await import(new URL('./compile-cache.mjs', import.meta.url).href)) as {
  compileCacheDir(env?: NodeJS.ProcessEnv): string;
};

const KINO_BIN = fileURLToPath(new URL('../cli/kino.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'kino-compile-cache-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('compileCacheDir', () => {
  it('is compile/ in KINO_CACHE_DIR, else in the XDG cache, else in ~/.cache/kino', () => {
    expect(compileCacheDir({ KINO_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' })).toBe('/c/compile');
    expect(compileCacheDir({ XDG_CACHE_HOME: '/x' })).toBe('/x/kino/compile');
    expect(compileCacheDir({})).toBe(join(homedir(), '.cache', 'kino', 'compile'));
  });
});

describe('kino', () => {
  it('keeps the compiled modules in the cache, and runs the same from it', () => {
    const { NODE_COMPILE_CACHE: _, NODE_DISABLE_COMPILE_CACHE: __, ...inherited } = process.env;
    const env = { ...inherited, KINO_BUNDLE: '0', KINO_CACHE_DIR: join(work, 'cache') };
    const schema = () =>
      spawnSync(process.execPath, [KINO_BIN, 'schema'], { env, cwd: work, encoding: 'utf8' });
    const first = schema();
    expect(first.status).toBe(0);
    // Node keeps one folder per Node version and architecture, with a file per module in it.
    const [versionDir, ...others] = readdirSync(join(work, 'cache', 'compile'));
    expect(others).toEqual([]);
    expect(readdirSync(join(work, 'cache', 'compile', versionDir!)).length).toBeGreaterThan(50);
    const second = schema();
    expect([second.status, second.stdout, second.stderr]).toEqual([0, first.stdout, first.stderr]);
  });
});
