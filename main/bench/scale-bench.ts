// `npm run bench:scale`: Kino scaled out on this machine. Starts a redis-server, one `kino serve` on
// QUEUE_BACKEND=redis (rendering nothing itself) and N `kino worker` processes, then prints:
//   - throughput for a batch of renders with N = 1 and N = 2 workers (renders per minute, frames
//     per second), each worker drawing on its share of the cores (RENDER_THREADS = cores / N);
//   - the wall time of one long render on 1 worker, against the same render split into chunks over
//     2 workers (CHUNK_MIN_FRAMES) and stitched.
// Figures go to bench-results/scale-bench.json. Flags: --renders <n> (batch size, default 6),
// --long-seconds <s> (the long render, default 24 s at 30 fps), --runs <n> (default 1).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { hasRedisServer, startRedisServer } from '../jobs/redis-server.fixture.ts';
import type { RedisTestServer } from '../jobs/redis-server.fixture.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const KINO_BIN = join(REPO_ROOT, 'main', 'cli', 'kino.mjs');
const TOKEN = 'bench-api-token-0123456789abcdef';
const CORES = availableParallelism();

const { values: flags } = parseArgs({
  options: {
    renders: { type: 'string', default: '6' },
    'long-seconds': { type: 'string', default: '24' },
    runs: { type: 'string', default: '1' },
  },
});
const BATCH = Number(flags.renders);
const LONG_SECONDS = Number(flags['long-seconds']);
const RUNS = Number(flags.runs);

/** A batch render: 4 s of animated text over a gradient at draft size (120 frames). */
const BATCH_SPEC = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 30,
  scenes: [
    {
      duration: '4s',
      background: { type: 'linear', colors: ['#1e1b4b', '#7c3aed'], angle: 35 },
      elements: [
        { type: 'text', text: 'Scale out', size: 120, animate: [{ preset: 'slideFadeIn' }] },
        {
          type: 'text',
          text: 'one queue, many workers',
          size: 48,
          y: '70%',
          animate: [{ preset: 'fadeIn' }],
        },
      ],
    },
  ],
};

/** The long render: a looping video clip, a soundtrack and text, LONG_SECONDS at draft size. */
function longSpec(seconds: number) {
  return {
    kinoSpec: 1,
    aspect: 'square',
    fps: 30,
    audio: [{ src: 'asset:music-loop.m4a', volume: 0.6, loop: true }],
    scenes: [
      {
        duration: `${seconds}s`,
        background: { type: 'video', src: 'asset:clip-waves.mp4', fit: 'cover', loop: true },
        elements: [{ type: 'text', text: 'Long render', size: 110, animate: [{ preset: 'pop' }] }],
      },
    ],
  };
}

interface Proc {
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

function startProcess(args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<Proc> {
  const child = spawn(process.execPath, [KINO_BIN, ...args], {
    cwd: REPO_ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kino ${args[0]} did not start:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve({
          child,
          output: () => output,
          async stop() {
            child.kill('SIGTERM');
            await exited;
          },
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`kino ${args[0]} exited:\n${output}`)));
  });
}

interface Cluster {
  baseUrl: string;
  stop(): Promise<void>;
}

let serial = 0;

async function startCluster(
  redis: RedisTestServer,
  workers: number,
  env: Record<string, string>,
): Promise<Cluster> {
  const root = mkdtempSync(join(tmpdir(), 'kino-scale-bench-'));
  const shared: NodeJS.ProcessEnv = {
    ...process.env,
    QUEUE_BACKEND: 'redis',
    REDIS_URL: redis.url,
    QUEUE_PREFIX: `bench-${process.pid}-${++serial}`,
    API_TOKEN: TOKEN,
    LOCAL_STORAGE_DIR: join(root, 'files'),
    RATE_LIMIT: '0',
    CLEANUP_INTERVAL: '0',
    LOG_LEVEL: 'warn',
    BASE_URL: '',
    ...env,
  };
  const api = await startProcess(
    ['serve'],
    { ...shared, PORT: '0', DATA_DIR: join(root, 'api') },
    /Kino render API on (http:\/\/\S+)/,
  );
  const baseUrl = /Kino render API on (http:\/\/\S+)/.exec(api.output())![1]!;
  const procs: Proc[] = [api];
  for (let i = 0; i < workers; i++) {
    procs.push(
      await startProcess(
        ['worker'],
        { ...shared, DATA_DIR: join(root, `worker-${i}`) },
        /taking renders from/,
      ),
    );
  }
  return {
    baseUrl,
    async stop() {
      for (const proc of procs.reverse()) await proc.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

async function submit(baseUrl: string, body: unknown): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/renders`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const job = (await response.json()) as { id: string };
  if (response.status !== 202)
    throw new Error(`POST /v1/renders answered ${response.status}: ${JSON.stringify(job)}`);
  return job.id;
}

async function waitAll(baseUrl: string, ids: string[]): Promise<number> {
  let frames = 0;
  for (const id of ids) {
    for (;;) {
      const response = await fetch(`${baseUrl}/v1/renders/${id}`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      const job = (await response.json()) as {
        status: string;
        progress: { framesTotal: number } | null;
        error: unknown;
      };
      if (job.status === 'succeeded') {
        frames += job.progress?.framesTotal ?? 0;
        break;
      }
      if (job.status === 'failed' || job.status === 'canceled') {
        throw new Error(`render ${id} ${job.status}: ${JSON.stringify(job.error)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return frames;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  if (!hasRedisServer) {
    process.stderr.write('bench:scale needs redis-server (apt-get install redis-server)\n');
    process.exitCode = 1;
    return;
  }
  const redis = await startRedisServer();
  const results: Record<string, unknown> = { cores: CORES, batch: BATCH, longSeconds: LONG_SECONDS };
  try {
    process.stdout.write(
      `Kino scale-out bench: ${CORES} cores, batch of ${BATCH} renders (120 frames each)\n\n`,
    );
    const throughput: Record<string, { seconds: number; rendersPerMinute: number; fps: number }> = {};
    for (const workers of [1, 2]) {
      const seconds: number[] = [];
      let frames = 0;
      for (let run = 0; run < RUNS; run++) {
        const threads = String(Math.max(1, Math.floor(CORES / workers)));
        const cluster = await startCluster(redis, workers, {
          RENDER_THREADS: threads,
          CHUNK_MIN_FRAMES: '0',
        });
        try {
          const started = performance.now();
          const ids = [];
          for (let i = 0; i < BATCH; i++)
            ids.push(await submit(cluster.baseUrl, { spec: BATCH_SPEC, options: { quality: 'draft' } }));
          frames = await waitAll(cluster.baseUrl, ids);
          seconds.push((performance.now() - started) / 1000);
        } finally {
          await cluster.stop();
        }
      }
      const wall = median(seconds);
      throughput[workers] = { seconds: wall, rendersPerMinute: (BATCH / wall) * 60, fps: frames / wall };
      process.stdout.write(
        `  ${workers} worker${workers === 1 ? ' ' : 's'}: ${wall.toFixed(1)} s for ${BATCH} renders = ${throughput[workers]!.rendersPerMinute.toFixed(1)} renders/min, ${throughput[workers]!.fps.toFixed(1)} frames/s\n`,
      );
    }
    results.throughput = throughput;

    const longFrames = LONG_SECONDS * 30;
    process.stdout.write(`\nOne long render (${longFrames} frames, soundtrack, video clip):\n`);
    const long: Record<string, number> = {};
    for (const [label, workers, env] of [
      ['1 worker, whole', 1, { CHUNK_MIN_FRAMES: '0' }],
      [
        '2 workers, chunked',
        2,
        { CHUNK_MIN_FRAMES: '300', RENDER_THREADS: String(Math.max(1, Math.floor(CORES / 2))) },
      ],
    ] as const) {
      const seconds: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const cluster = await startCluster(redis, workers, env);
        try {
          const started = performance.now();
          const id = await submit(cluster.baseUrl, {
            spec: longSpec(LONG_SECONDS),
            options: { quality: 'draft' },
          });
          await waitAll(cluster.baseUrl, [id]);
          seconds.push((performance.now() - started) / 1000);
        } finally {
          await cluster.stop();
        }
      }
      long[label] = median(seconds);
      process.stdout.write(`  ${label}: ${long[label]!.toFixed(1)} s\n`);
    }
    results.long = long;
    const ratio = long['2 workers, chunked']! / long['1 worker, whole']!;
    process.stdout.write(
      `  chunked / whole: ${ratio.toFixed(2)}× the wall time\n\n` +
        `On ${CORES} cores the workers share the same CPUs, so the gain is bounded by the cores:\n` +
        'a render that already keeps every core busy cannot go faster by splitting on one machine.\n' +
        'On N machines, throughput grows about N× (the queue and Redis cost milliseconds per render),\n' +
        'and a chunked render takes about (its time / N) + the stitch (a stream copy and the audio mix).\n',
    );
    mkdirSync(join(REPO_ROOT, 'bench-results'), { recursive: true });
    writeFileSync(
      join(REPO_ROOT, 'bench-results', 'scale-bench.json'),
      JSON.stringify(results, null, 2) + '\n',
    );
  } finally {
    await redis.close();
  }
}

await main();
