// `npm start` on a machine whose Node is older than 22.18 runs the server under a launcher that
// re-executes it with Node 24. A supervisor's SIGTERM reaches only the launcher: it must pass the
// signal on, so the server still shuts down gracefully instead of being orphaned.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KINO_BIN, REPO_ROOT } from './cli-helpers.ts';

const OLD_NODE = '/usr/bin/node';
const oldNodeVersion = existsSync(OLD_NODE)
  ? execFileSync(OLD_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim()
  : undefined;
const [major = 0, minor = 0] = (oldNodeVersion ?? '').split('.').map(Number);
const hasOldNode = oldNodeVersion !== undefined && (major < 22 || (major === 22 && minor < 18));
if (!hasOldNode) {
  console.warn(
    `SKIPPED launcher signal test: needs a Node older than 22.18 at ${OLD_NODE} (found ${oldNodeVersion ?? 'none'})`,
  );
}

describe.skipIf(!hasOldNode)('the Node 24 launcher', () => {
  it('passes SIGTERM on to the server it started, which stops gracefully', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kino-launcher-'));
    try {
      const launcher = spawn(OLD_NODE, [KINO_BIN, 'serve'], {
        cwd: REPO_ROOT,
        env: { ...process.env, PORT: '0', DATA_DIR: dataDir, BASE_URL: '', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      launcher.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      launcher.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => launcher.once('exit', (code) => resolve(code)));
      const started = Date.now();
      while (!output.includes('Kino render API on')) {
        expect(Date.now() - started, output).toBeLessThan(60_000);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(existsSync(join(dataDir, 'server.pid'))).toBe(true);
      launcher.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('Kino render API stopped');
      // The server released its data directory: it ran its shutdown, it was not orphaned.
      expect(existsSync(join(dataDir, 'server.pid'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
