// A real Redis server for the tests: Debian's redis-server on a free loopback port, in its own
// folder, with the append-only file on (as the deployment docs ask), so a restart keeps what was
// written. Tests that need it skip loudly when redis-server is missing; .ci/run installs it.
import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';

export const REDIS_SERVER = process.env.REDIS_SERVER_BIN ?? 'redis-server';
export const hasRedisServer = spawnSync(REDIS_SERVER, ['--version'], { stdio: 'ignore' }).status === 0;

/** Warns loudly when redis-server is missing, so a skipped suite is never silent. */
export function warnIfNoRedis(suite: string): void {
  if (hasRedisServer) return;
  console.warn(
    `\n*** SKIPPING ${suite}: ${REDIS_SERVER} is missing, so the Redis queue cannot be tested. ***\n` +
      '*** Install Debian redis-server (apt-get install redis-server) to run it. ***\n',
  );
}

export interface RedisTestServer {
  url: string;
  port: number;
  /** Stops the server (SIGTERM: it writes its append-only file) and starts it again on the port. */
  restart(): Promise<void>;
  /** Stops the server, keeping its files, until restart(). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function untilAnswers(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server exited: ${output()}`);
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    // Refused while it starts: the error is the answer, not news.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`redis-server did not answer: ${output()}`, { cause: error });
    } finally {
      client.disconnect();
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export async function startRedisServer(): Promise<RedisTestServer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'kino-redis-'));
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess;
  let output = '';
  const start = async () => {
    output = '';
    child = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        // BullMQ's requirement: keys must never be evicted.
        '--maxmemory-policy',
        'noeviction',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-4000)));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output = (output + chunk).slice(-4000)));
    await untilAnswers(url, child, () => output);
  };
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    url,
    port,
    async restart() {
      await stop();
      await start();
    },
    stop,
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A redis-server for the test file that calls this (when one is installed; a loud warning names
 * `suite` otherwise), started before its tests and stopped after them. Read it inside a test.
 */
export function useRedisServer(suite: string): () => RedisTestServer | undefined {
  warnIfNoRedis(suite);
  let redis: RedisTestServer | undefined;
  beforeAll(async () => {
    if (hasRedisServer) redis = await startRedisServer();
  }, 30_000);
  afterAll(async () => {
    await redis?.close();
  });
  return () => redis;
}
