// `npm run bench:api`: latency of the render API (`kino serve` in its own process) under a fixed
// request rate while a render runs, against the same load with no render running, and with render
// creation mixed in. Prints a table, the CPU each party used during each window (to tell a slow
// server from a CPU-starved one), and writes the figures to bench-results/api-bench.json.
// Flags: --duration <seconds> per measured run (default 20), --log-level <pino level> (default warn).
//
// The parts, in api-bench/: settings.ts (flags, rates, the renders asked for), server.ts (`kino
// serve`), render-client.ts (the renders created and queued), load.ts (autocannon), proc.ts and
// cpu-watch.ts (CPU accounting), measure.ts (one run), report.ts (the printed tables).
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { fire, getLoad, postLoad, stopAllLoads } from './api-bench/load.ts';
import type { RunFigures } from './api-bench/measure.ts';
import { measure } from './api-bench/measure.ts';
import { descendants, isRenderWorker } from './api-bench/proc.ts';
import { RenderClient } from './api-bench/render-client.ts';
import { report } from './api-bench/report.ts';
import type { Server } from './api-bench/server.ts';
import { isRunning, startServer } from './api-bench/server.ts';
import {
  CONNECTIONS,
  GET_RATE,
  LONG_RENDER,
  MIXED_GET_RATE,
  MIXED_POST_RATE,
  TARGET_P99_MS,
  WARMUP_SECONDS,
  parseFlags,
} from './api-bench/settings.ts';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { duration: DURATION, logLevel: LOG_LEVEL } = parseFlags();
const TOKEN = randomBytes(18).toString('base64url');

const dataDir = mkdtempSync(join(tmpdir(), 'kino-api-bench-'));
let server: Server | undefined;
let client: RenderClient | undefined;

const aborter = new AbortController();
let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) {
    server?.child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(130);
  }
  interrupted = true;
  console.error('\ninterrupted: canceling renders and stopping the server (Ctrl+C again to force)');
  stopAllLoads();
  aborter.abort();
});
// Last resort when the bench dies some other way: do not leave a server behind.
process.on('exit', () => {
  if (server && isRunning(server)) server.child.kill('SIGTERM');
});

async function cleanup(): Promise<void> {
  if (server) {
    if (isRunning(server)) {
      const counts = await client!.cancelAll();
      console.log(
        `\ncleanup: canceled ${counts.canceled} renders (${counts.alreadyDone} had ended${counts.failed ? `, ${counts.failed} failed to cancel` : ''})`,
      );
      server.child.kill('SIGTERM');
    }
    await Promise.race([server.exited, sleep(20_000)]);
    if (isRunning(server)) server.child.kill('SIGKILL');
  }
  rmSync(dataDir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  const signal = aborter.signal;
  server = await startServer({ repo, dataDir, token: TOKEN, logLevel: LOG_LEVEL });
  const renders = (client = new RenderClient(server.baseUrl, TOKEN));
  const serverPid = server.child.pid!;
  console.log(
    `Kino API benchmark (${process.version}, ${cpus().length} cores, load avg ${loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')})`,
  );
  console.log(
    `server ${server.baseUrl} (pid ${server.child.pid}), RENDER_CONCURRENCY=1, RATE_LIMIT=0, LOG_LEVEL=${LOG_LEVEL}; ${DURATION} s per run, ${CONNECTIONS} connections`,
  );
  console.log(
    'latencies: every response time as autocannon measured it (write to full response), exact percentiles;\n' +
      'note autocannon paces a rate by letting each connection send its per-second quota back to back, then wait.\n',
  );

  await renders.topUpLongRenders(DURATION);
  const target = await renders.waitForRunning(signal);
  console.log(`render ${target} (product-launch, standard) is running; warming up for ${WARMUP_SECONDS} s…`);
  await Promise.all([
    fire(getLoad(renders, target, GET_RATE, WARMUP_SECONDS)),
    fire(postLoad(renders, 10, WARMUP_SECONDS)),
  ]);
  signal.throwIfAborted();

  const runs: RunFigures[] = [];
  console.log(`(a) GET /v1/renders/{id} at ${GET_RATE} req/s while a render runs…`);
  await renders.topUpLongRenders(DURATION);
  const aTarget = await renders.waitForRunning(signal);
  runs.push(
    await measure(renders, serverPid, 'a', aTarget, { get: getLoad(renders, aTarget, GET_RATE, DURATION) }),
  );
  signal.throwIfAborted();

  console.log(`(b) POST /v1/renders at ${MIXED_POST_RATE} req/s with GET at ${MIXED_GET_RATE} req/s…`);
  await renders.topUpLongRenders(DURATION);
  const bTarget = await renders.waitForRunning(signal);
  runs.push(
    await measure(renders, serverPid, 'b', bTarget, {
      get: getLoad(renders, bTarget, MIXED_GET_RATE, DURATION),
      post: postLoad(renders, MIXED_POST_RATE, DURATION),
    }),
  );
  signal.throwIfAborted();

  const rendered = await renders.longRenderSeconds();
  console.log('(c) canceling every render, then GET at the same rate with nothing rendering…');
  const counts = await renders.cancelAll();
  console.log(`    canceled ${counts.canceled} renders (${counts.alreadyDone} had ended)`);
  const quietBy = Date.now() + 15_000;
  while (Date.now() < quietBy && [...descendants(serverPid).keys()].some(isRenderWorker))
    await sleep(200, undefined, { signal });
  await sleep(1000, undefined, { signal });
  runs.push(
    await measure(renders, serverPid, 'c', aTarget, { get: getLoad(renders, aTarget, GET_RATE, DURATION) }),
  );
  signal.throwIfAborted();

  console.log('');
  report(runs);
  const a = runs[0]!;
  const met = a.get.p99 < TARGET_P99_MS && a.get.non2xx === 0 && a.get.errors === 0;
  console.log(
    `\ntarget: p99 < ${TARGET_P99_MS} ms for GET at ${GET_RATE} req/s while a render runs — ${met ? 'met' : 'NOT met'} (p99 ${a.get.p99} ms${a.render.wholeWindow ? '' : '; a render did NOT run for the whole window'})`,
  );

  const outDir = join(repo, 'bench-results');
  mkdirSync(outDir, { recursive: true });
  const outFile = join(outDir, 'api-bench.json');
  writeFileSync(
    outFile,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        node: process.version,
        cores: cpus().length,
        settings: {
          durationSeconds: DURATION,
          connections: CONNECTIONS,
          getRate: GET_RATE,
          mixed: { getRate: MIXED_GET_RATE, postRate: MIXED_POST_RATE },
          logLevel: LOG_LEVEL,
          renderConcurrency: 1,
          longRender: LONG_RENDER,
          warmupSeconds: WARMUP_SECONDS,
        },
        longRenderSeconds: rendered,
        target: {
          p99Ms: TARGET_P99_MS,
          measuredP99Ms: a.get.p99,
          met,
          renderRanWholeWindow: a.render.wholeWindow,
        },
        runs,
      },
      null,
      2,
    ) + '\n',
  );
  if (rendered.length)
    console.log(
      `product-launch (standard) renders that finished meanwhile took ${rendered.join(', ')} s each`,
    );
  console.log(`figures written to ${outFile}`);
}

try {
  await main();
} catch (error) {
  if (!interrupted) {
    console.error(
      error instanceof Error ? `${error.message}${error.cause ? ` (${String(error.cause)})` : ''}` : error,
    );
    if (server) {
      const { exitCode, signalCode } = server.child;
      console.error(
        `server ${exitCode === null && signalCode === null ? 'still running' : `exited (${exitCode ?? signalCode})`}; output (tail):\n${server.tail()}`,
      );
    }
    process.exitCode = 1;
  }
} finally {
  await cleanup();
  if (interrupted) process.exitCode = 130;
}
