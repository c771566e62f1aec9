import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ensureExecutable,
  ffmpegPath,
  ffprobePath,
  locateTool,
  MissingBinaryError,
  toolVersions,
} from './binaries.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'kino-bin-'));
  dirs.push(dir);
  return dir;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function writeScript(dir: string, mode: number): string {
  const path = join(dir, 'fake-tool');
  writeFileSync(path, '#!/bin/sh\necho tool-ran\n', { mode });
  return path;
}

const canMakeImmutable = (() => {
  if (process.getuid?.() !== 0) return false;
  const dir = mkdtempSync(join(tmpdir(), 'kino-chattr-'));
  const file = join(dir, 'probe');
  writeFileSync(file, '');
  const ok = spawnSync('chattr', ['+i', file]).status === 0;
  if (ok) spawnSync('chattr', ['-i', file]);
  rmSync(dir, { recursive: true, force: true });
  return ok;
})();

afterEach(() => {
  for (const dir of dirs.splice(0)) {
    spawnSync('chattr', ['-R', '-i', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('bundled binaries', () => {
  it('finds runnable ffmpeg and ffprobe and reports their versions', async () => {
    expect(isExecutable(ffmpegPath())).toBe(true);
    expect(isExecutable(ffprobePath())).toBe(true);
    const versions = await toolVersions();
    expect(execFileSync(ffmpegPath(), ['-version']).toString()).toContain(
      `ffmpeg version ${versions.ffmpeg}`,
    );
    expect(execFileSync(ffprobePath(), ['-version']).toString()).toContain(
      `ffprobe version ${versions.ffprobe}`,
    );
  });

  it('lets FFMPEG_PATH override the bundled binary', () => {
    const dir = tempDir();
    const copy = join(dir, 'my-ffmpeg');
    copyFileSync(ffmpegPath(), copy);
    expect(locateTool('ffmpeg', { FFMPEG_PATH: copy }, join(dir, 'cache'))).toBe(copy);
  });

  it('says which variable to fix when the override points nowhere', () => {
    const missing = join(tempDir(), 'nope', 'ffprobe');
    expect(() => locateTool('ffprobe', { FFPROBE_PATH: missing })).toThrow(MissingBinaryError);
    expect(() => locateTool('ffprobe', { FFPROBE_PATH: missing })).toThrow(
      /FFPROBE_PATH points to .*nope\/ffprobe/,
    );
  });
});

describe('ensureExecutable', () => {
  it('adds the execute bit that a skipped install script would have set', () => {
    const dir = tempDir();
    const tool = writeScript(dir, 0o644);
    expect(isExecutable(tool)).toBe(false);
    expect(ensureExecutable(tool, join(dir, 'cache'))).toBe(tool);
    expect(statSync(tool).mode & 0o111).not.toBe(0);
    expect(execFileSync(tool).toString()).toBe('tool-ran\n');
  });

  it.skipIf(!canMakeImmutable)('copies the binary to the cache with mode 0755 when chmod is refused', () => {
    const dir = tempDir();
    const tool = writeScript(dir, 0o644);
    execFileSync('chattr', ['+i', tool]);
    const cache = join(dir, 'cache');
    const runnable = ensureExecutable(tool, cache);
    expect(runnable.startsWith(cache)).toBe(true);
    expect(statSync(runnable).mode & 0o777).toBe(0o755);
    expect(execFileSync(runnable).toString()).toBe('tool-ran\n');
    // A second call reuses the copy.
    expect(ensureExecutable(tool, cache)).toBe(runnable);
  });
});
