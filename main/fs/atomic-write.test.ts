import { lstat, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomically } from './atomic-write.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'kino-atomic-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomically', () => {
  it('writes a new file and leaves no temp file beside it', async () => {
    const file = path.join(dir, 'receipt.json');
    await writeFileAtomically(file, '{"ok":true}\n');
    expect(await readFile(file, 'utf8')).toBe('{"ok":true}\n');
    expect(await readdir(dir)).toEqual(['receipt.json']);
  });

  it('keeps the mode of the file it replaces, and sets an explicit one', async () => {
    const kept = path.join(dir, 'composition.ts');
    await writeFile(kept, 'old', { mode: 0o640 });
    await writeFileAtomically(kept, 'new');
    expect((await stat(kept)).mode & 0o777).toBe(0o640);
    const secret = path.join(dir, 'nested', 'settings.json');
    await writeFileAtomically(secret, '{}', { mode: 0o600, createDirMode: 0o700 });
    expect((await stat(secret)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(secret))).mode & 0o777).toBe(0o700);
  });

  it('writes through a symlink: the target changes and the link stays', async () => {
    const target = path.join(dir, 'real.ts');
    const link = path.join(dir, 'link.ts');
    await writeFile(target, 'old');
    await symlink(target, link);
    expect(await writeFileAtomically(link, 'new')).toBe(
      await import('node:fs/promises').then((fs) => fs.realpath(target)),
    );
    expect(await readFile(target, 'utf8')).toBe('new');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
  });

  it('leaves the old file whole and no temp file when the write fails', async () => {
    const file = path.join(dir, 'missing-folder', 'x.json');
    await expect(writeFileAtomically(file, 'x')).rejects.toThrow(/ENOENT/);
    const kept = path.join(dir, 'kept.json');
    await writeFile(kept, 'whole');
    // A directory in the file's place cannot be replaced by rename: the old content stays.
    await expect(writeFileAtomically(dir, 'x')).rejects.toThrow();
    expect(await readFile(kept, 'utf8')).toBe('whole');
    expect((await readdir(dir)).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });
});
