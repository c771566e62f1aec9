// The server the API bench loads: `kino serve` in its own process, on a free port.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export interface Server {
  child: ChildProcess;
  baseUrl: string;
  exited: Promise<void>;
  /** The last 8000 characters the server wrote (stdout and stderr). */
  tail: () => string;
}

export interface ServerOptions {
  repo: string;
  dataDir: string;
  token: string;
  logLevel: string;
}

/**
 * `kino serve` as an operator runs it, in its own session: Ctrl+C reaches only the bench, which
 * cancels the renders first; and, like a service, the server gets its own scheduler autogroup.
 */
export async function startServer({ repo, dataDir, token, logLevel }: ServerOptions): Promise<Server> {
  const child = spawn(process.execPath, [join(repo, 'main', 'cli', 'kino.mjs'), 'serve'], {
    cwd: repo,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      API_TOKEN: token,
      CLEANUP_TOKEN: randomBytes(18).toString('base64url'),
      CLEANUP_INTERVAL: '0',
      RATE_LIMIT: '0',
      RENDER_CONCURRENCY: '1',
      SHUTDOWN_GRACE: '5s',
      LOG_LEVEL: logLevel,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kino serve did not start in 30 s:\n${output}`)), 30_000);
    const check = () => {
      const match = /Kino render API on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stderr!.on('data', check);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`kino serve exited before listening:\n${output}`));
    });
  });
  return { child, baseUrl, exited, tail: () => output };
}

/** Whether the server process is still alive (neither exited nor killed by a signal). */
export function isRunning(server: Server): boolean {
  return server.child.exitCode === null && server.child.signalCode === null;
}
