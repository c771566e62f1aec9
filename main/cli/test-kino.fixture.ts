// Test fixture: the real `kino` command in a child process, as a user runs it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const KINO_BIN = fileURLToPath(new URL('./kino.mjs', import.meta.url));

export interface KinoRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `kino <args>` with exactly the environment given, so a test decides what it inherits;
 * `nodeArgs` go to Node before the script (`--import` a hook, say).
 */
export function runKino(
  args: readonly string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string; nodeArgs?: readonly string[] },
): Promise<KinoRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), KINO_BIN, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
