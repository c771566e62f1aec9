import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSessionDescriptor } from './descriptor.ts';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kino-descriptor-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function writeDescriptor(name: string, body: unknown, mode = 0o600): string {
  const file = path.join(dir, name);
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
  chmodSync(file, mode);
  return file;
}

describe('readSessionDescriptor', () => {
  it('reads a private descriptor', async () => {
    const file = writeDescriptor('d.json', { endpoint: 'http://127.0.0.1:4000', token: 't0k', pid: 7 });
    expect(await readSessionDescriptor(file)).toMatchObject({
      endpoint: 'http://127.0.0.1:4000',
      token: 't0k',
      pid: 7,
    });
  });

  it('refuses a FIFO put in its place at once, instead of waiting for a writer', async () => {
    const fifo = path.join(dir, 'fifo.json');
    try {
      execFileSync('mkfifo', ['-m', '600', fifo]);
    } catch {
      console.warn('SKIPPED: mkfifo is not available, the FIFO descriptor case is not checked');
      return;
    }
    await expect(readSessionDescriptor(fifo)).rejects.toThrow(/is not a file/);
  }, 5000);

  it('refuses a symlink, a file others can read and one far too large', async () => {
    const real = writeDescriptor('real.json', { endpoint: 'http://127.0.0.1:4000', token: 't' });
    symlinkSync(real, path.join(dir, 'link.json'));
    await expect(readSessionDescriptor(path.join(dir, 'link.json'))).rejects.toThrow(/symlink/);
    const open = writeDescriptor('open.json', { endpoint: 'http://127.0.0.1:4000', token: 't' }, 0o644);
    await expect(readSessionDescriptor(open)).rejects.toThrow(/readable by other users/);
    const huge = writeDescriptor('huge.json', `{"token":"t","pad":"${'x'.repeat(100_000)}"}`);
    await expect(readSessionDescriptor(huge)).rejects.toThrow(/too large/);
  });
});
