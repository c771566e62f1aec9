import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureWritableDir } from './ensure-dir.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kino-ensure-dir-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('ensureWritableDir', () => {
  it('makes missing parents and accepts an existing folder', async () => {
    const deep = path.join(dir, 'a', 'b', 'c');
    await ensureWritableDir(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    await ensureWritableDir(deep);
  });

  // Node's recursive mkdir never returns for this one (issue 12): it must fail at once.
  it('refuses a location under /proc instead of looping', async () => {
    if (process.platform !== 'linux') return;
    await expect(ensureWritableDir('/proc/nope/deeper')).rejects.toThrow(/^cannot write to \/proc\/nope/);
  }, 5000);

  it('refuses a path through a file, and a folder it cannot write', async () => {
    writeFileSync(path.join(dir, 'file'), 'x');
    await expect(ensureWritableDir(path.join(dir, 'file', 'sub'))).rejects.toThrow(/a parent is a file/);
    if (process.getuid?.() === 0) return; // root writes anywhere
    const locked = path.join(dir, 'locked');
    await ensureWritableDir(locked);
    chmodSync(locked, 0o500);
    await expect(ensureWritableDir(path.join(locked, 'x'))).rejects.toThrow(/permission denied/);
  });
});
