// A scaled-out Kino for the tests: a real redis-server, `kino serve` processes on QUEUE_BACKEND=redis
// and `kino worker` processes, all on loopback, sharing one local storage folder (one host). Each
// test gets its own key prefix, so tests never see each other's jobs; everything stops after it.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { hasRedisServer, useRedisServer } from '../main/jobs/redis-server.fixture.ts';
import type { RedisTestServer } from '../main/jobs/redis-server.fixture.ts';
import { removeDataDir, serverEnv, startKinoProcess, useApiServers } from './api-server.ts';
import type { RunningApi, StartApiOptions } from './api-server.ts';

export { hasRedisServer };

export interface RunningWorker {
  process: ChildProcess;
  dataDir: string;
  output(): string;
  /** The renders (ids) this worker started, in order, from its log. */
  started(): string[];
  /** Sends `signal` and resolves with the exit code (null when killed by a signal). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

let serial = 0;

export function useQueueCluster(suite: string, baseEnv: Record<string, string> = {}) {
  const redis = useRedisServer(suite);
  const servers = useApiServers();
  const workers = new Set<RunningWorker>();
  const dirs = new Set<string>();
  let env: Record<string, string> = {};
  let storageDir = '';

  /** The environment every process of this test shares. */
  const shared = () => {
    if (!storageDir) {
      storageDir = mkdtempSync(join(tmpdir(), 'kino-queue-files-'));
      dirs.add(storageDir);
      env = {
        QUEUE_BACKEND: 'redis',
        REDIS_URL: redis()!.url,
        QUEUE_PREFIX: `kino-test-${process.pid}-${++serial}`,
        QUEUE_LOCK: '3s',
        LOCAL_STORAGE_DIR: storageDir,
        RATE_LIMIT: '0',
        ...baseEnv,
      };
    }
    return env;
  };

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail') {
      for (const worker of workers)
        console.error(`--- kino worker (${worker.dataDir}):\n${worker.output().slice(-6000)}`);
    }
    for (const worker of workers) await worker.stop('SIGKILL');
    workers.clear();
    for (const dir of dirs) removeDataDir(dir);
    dirs.clear();
    storageDir = '';
  });

  return {
    get redis(): RedisTestServer {
      return redis()!;
    },
    /** The shared environment (for a test that adds a process of its own). */
    env: () => shared(),
    startApi(options: StartApiOptions = {}): Promise<RunningApi> {
      return servers.start({ ...options, env: { ...shared(), ...options.env } });
    },
    killApi: servers.kill,
    async startWorker(extra: Record<string, string> = {}, args: string[] = []): Promise<RunningWorker> {
      const dataDir = mkdtempSync(join(tmpdir(), 'kino-worker-'));
      dirs.add(dataDir);
      const { child, output, exited } = await startKinoProcess(
        ['worker', ...args],
        serverEnv(dataDir, { ...shared(), ...extra }),
        /taking renders from/,
      );
      const worker: RunningWorker = {
        process: child,
        dataDir,
        output,
        started: () =>
          [...output().matchAll(/"jobId":"(rnd_[^"]+)"[^\n]*"msg":"render started"/g)].map((m) => m[1]!),
        async stop(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
        exited,
      };
      workers.add(worker);
      return worker;
    },
  };
}
