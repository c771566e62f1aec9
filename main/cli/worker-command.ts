// `kino worker`: takes renders from the shared Redis queue until SIGTERM or SIGINT, then drains:
// it takes no new render, lets the running ones finish within SHUTDOWN_GRACE, hands the rest back
// to the queue for another worker, and exits 0. It starts only when Redis answers and storage takes
// a file: a worker that could not store would render each render in full and throw it away.
import { pino } from 'pino';
import { ConfigError, loadServerConfig } from '../renders/config.ts';
import { openQueueWorker, openStorage } from '../renders/job-backend.ts';
import { firstStopSignal } from '../api/stop-signals.ts';
import { loadWorkerHealthConfig } from '../renders/worker-health-config.ts';
import { redactRedisUrl } from '../jobs/render-queue.ts';
import { checkWorkerDependencies, describeProblems } from '../jobs/worker-checks.ts';
import { startWorkerHealthServer } from '../jobs/worker-health-server.ts';
import type { WorkerHealthServer } from '../jobs/worker-health-server.ts';
import { WorkerReadiness } from '../jobs/worker-readiness.ts';

export interface WorkerCommandOptions {
  /** Renders at once (default RENDER_CONCURRENCY, else 1). */
  concurrency?: number | undefined;
}

/** Redis or storage did not answer at start: the worker took nothing. */
export class WorkerStartError extends Error {
  override name = 'WorkerStartError';
}

export async function runWorker(options: WorkerCommandOptions = {}): Promise<number> {
  const config = loadServerConfig(process.env);
  if (!config.queue) {
    throw new ConfigError(
      'kino worker takes renders from the shared queue: set QUEUE_BACKEND=redis and REDIS_URL (see the README, "Scale out")',
    );
  }
  const healthAt = loadWorkerHealthConfig(process.env);
  const { redisUrl } = config.queue;
  const concurrency = options.concurrency ?? (config.renderConcurrency || 1);
  const log = pino({ level: config.logLevel, base: { component: 'worker' } });
  const storage = openStorage(config);
  const check = () => checkWorkerDependencies(redisUrl, storage);
  const problems = await check();
  const failed = describeProblems(problems);
  if (failed) throw new WorkerStartError(`worker not started: ${failed}`);

  const readiness = new WorkerReadiness(check, problems, log.child({ component: 'readiness' }));
  let health: WorkerHealthServer | undefined;
  try {
    if (healthAt) {
      health = await startWorkerHealthServer(readiness, healthAt);
      readiness.watch();
    }
    const worker = openQueueWorker(config, { storage, log, concurrency });
    await worker.start();
    readiness.taking();
    process.stderr.write(
      `Kino worker ${worker.id}: taking renders from ${redactRedisUrl(redisUrl)}, ${concurrency} at a time${health ? `; health on ${health.url}/healthz and /readyz` : ''}\n`,
    );
    const signal = await firstStopSignal('Kino worker: stopping now; its renders go back to the queue');
    readiness.draining();
    log.info(
      { signal, runningRenders: worker.busy, graceMs: config.shutdownGraceMs },
      'draining: no new renders; running ones finish or go back to the queue',
    );
    await worker.stop(config.shutdownGraceMs);
  } finally {
    await readiness.stop();
    await health?.close();
  }
  process.stderr.write('Kino worker stopped\n');
  return 0;
}
