import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openInside } from './open-inside.ts';

let dir: string;
let root: string;
let outside: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kino-open-inside-'));
  root = path.join(dir, 'results');
  outside = path.join(dir, 'outside');
  mkdirSync(path.join(root, 'd'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'd', 'file.txt'), 'inside');
  writeFileSync(path.join(outside, 'file.txt'), 'SECRET');
});

afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function readOpened(file: string): Promise<string | undefined> {
  const opened = await openInside(root, file);
  if (!opened) return undefined;
  try {
    return await opened.handle.readFile('utf8');
  } finally {
    await opened.handle.close();
  }
}

describe('openInside', () => {
  it('opens a file inside the root, through inside symlinks too', async () => {
    symlinkSync(path.join(root, 'd'), path.join(root, 'alias'));
    expect(await readOpened(path.join(root, 'd', 'file.txt'))).toBe('inside');
    expect(await readOpened(path.join(root, 'alias', 'file.txt'))).toBe('inside');
  });

  it('refuses a file outside, a symlink out, a relative path, a folder and the root itself', async () => {
    symlinkSync(outside, path.join(root, 'out'));
    symlinkSync(path.join(outside, 'file.txt'), path.join(root, 'link.txt'));
    expect(await readOpened(path.join(outside, 'file.txt'))).toBeUndefined();
    expect(await readOpened(path.join(root, 'out', 'file.txt'))).toBeUndefined();
    expect(await readOpened(path.join(root, 'link.txt'))).toBeUndefined();
    expect(await readOpened(path.join(root, 'd', '..', '..', 'outside', 'file.txt'))).toBeUndefined();
    expect(await readOpened('results/d/file.txt')).toBeUndefined();
    expect(await readOpened(path.join(root, 'd'))).toBeUndefined();
    expect(await readOpened(root)).toBeUndefined();
    expect(await readOpened(path.join(root, 'missing.txt'))).toBeUndefined();
  });

  it('does not block on a FIFO planted at the path', async () => {
    const fifo = path.join(root, 'd', 'fifo');
    try {
      execFileSync('mkfifo', [fifo]);
    } catch {
      console.warn('SKIPPED: mkfifo is not available, the FIFO case is not checked');
      return;
    }
    expect(await readOpened(fifo)).toBeUndefined();
  });

  // The attack from issue 12: a directory inside the root is swapped with a symlink to an outside
  // directory, over and over, while files are opened through it. A check made before the open
  // (then a stat of the path, which follows the swapped parent) served the outside file.
  it('never opens an outside file while a parent directory is swapped with a symlink', async () => {
    symlinkSync(outside, path.join(root, 'd.link'));
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const [real, stash, link] = ['d', 'd.real', 'd.link'].map((n) => require('node:path').join(process.argv[1], n));
         for (;;) {
           try { fs.renameSync(real, stash); fs.renameSync(link, real); fs.renameSync(real, link); fs.renameSync(stash, real); } catch {}
         }`,
        root,
      ],
      { stdio: 'ignore' },
    );
    const seen = { inside: 0, outside: 0, refused: 0 };
    try {
      const deadline = Date.now() + 4000;
      for (let i = 0; i < 4000 && Date.now() < deadline; i++) {
        const text = await readOpened(path.join(root, 'd', 'file.txt'));
        if (text === 'SECRET') seen.outside++;
        else if (text === 'inside') seen.inside++;
        else seen.refused++;
      }
    } finally {
      swapper.kill('SIGKILL');
    }
    expect(seen.outside, JSON.stringify(seen)).toBe(0);
    expect(seen.inside + seen.refused, JSON.stringify(seen)).toBeGreaterThan(100);
  });
});
