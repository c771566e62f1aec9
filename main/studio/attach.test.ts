import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { attachToWorkspace } from './attach.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'kino-attach-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('attachToWorkspace', () => {
  it('refuses a missing descriptor, or one whose process is gone, saying how to start one', async () => {
    await expect(attachToWorkspace(path.join(dir, 'session.json'))).rejects.toThrow(
      /names no running workspace: start one with "kino workspace <file\.ts>"/,
    );
    const stale = path.join(dir, 'stale.json');
    // pid 2^22 + 1 is above Linux's pid_max: no such process.
    writeFileSync(
      stale,
      JSON.stringify({ endpoint: 'http://127.0.0.1:1', token: 't', pid: 4194305, source: '/x.ts' }),
    );
    await expect(attachToWorkspace(stale)).rejects.toMatchObject({ code: 'workspace_not_running' });
  });
});
