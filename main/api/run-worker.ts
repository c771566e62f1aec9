// `kino worker`: takes renders from the shared Redis queue until SIGTERM or SIGINT, then drains:
// it takes no new render, lets the running ones finish within SHUTDOWN_GRACE, hands the rest back
// to the queue for another worker, and exits 0.
import { pino } from 'pino';
import { ConfigError, loadServerConfig } from './config.ts';
import { openQueueWorker, openStorage } from './job-backend.ts';
import { firstStopSignal } from './stop-signals.ts';
import { redactRedisUrl } from '../jobs/render-queue.ts';

export interface WorkerCommandOptions {
  /** Renders at once (default RENDER_CONCURRENCY, else 1). */
  concurrency?: number | undefined;
}

export async function runWorker(options: WorkerCommandOptions = {}): Promise<number> {
  const config = loadServerConfig(process.env);
  if (!config.queue) {
    throw new ConfigError(
      'kino worker takes renders from the shared queue: set QUEUE_BACKEND=redis and REDIS_URL (see the README, "Scale out")',
    );
  }
  const concurrency = options.concurrency ?? (config.renderConcurrency || 1);
  const log = pino({ level: config.logLevel, base: { component: 'worker' } });
  const storage = openStorage(config);
  const worker = openQueueWorker(config, { storage, log, concurrency });
  await worker.start();
  process.stderr.write(
    `Kino worker ${worker.id}: taking renders from ${redactRedisUrl(config.queue.redisUrl)}, ${concurrency} at a time\n`,
  );
  const signal = await firstStopSignal('Kino worker: stopping now; its renders go back to the queue');
  log.info(
    { signal, runningRenders: worker.busy, graceMs: config.shutdownGraceMs },
    'draining: no new renders; running ones finish or go back to the queue',
  );
  await worker.stop(config.shutdownGraceMs);
  process.stderr.write('Kino worker stopped\n');
  return 0;
}
