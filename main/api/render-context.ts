// The render service without HTTP: the data dir (locked to one process), the secrets, the durable
// job store, the storage backend, the render runner and the cleanup. The API server serves it over
// HTTP; `kino mcp` serves the same service over stdio.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { Cleanup } from '../jobs/cleanup.ts';
import { JobRunner } from '../jobs/job-runner.ts';
import { JobStore } from '../jobs/job-store.ts';
import { WebhookDispatcher } from '../jobs/webhook-dispatcher.ts';
import { jobView } from './job-view.ts';
import { lockDataDir } from '../fs/pid-lock.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { S3Storage } from '../storage/s3-storage.ts';
import { loadOrCreateSecret } from '../storage/secrets.ts';
import { WindowLimiter, authFailureLimiter } from '../http/window-limiter.ts';
import { effectiveBaseUrl } from './config.ts';
import type { ServerConfig } from './config.ts';
import type { ApiContext } from './context.ts';
import { KeyRegistry } from './key-registry.ts';

export interface RenderContext {
  ctx: ApiContext;
  /** Set when this start generated the API token, so it can be shown once. */
  generatedApiToken: string | undefined;
  /** Where links point, once the listening port is known. */
  setBaseUrl(url: string): void;
  /** Settles jobs a dead process left running and starts taking work (and the cleanup timer, if any). */
  start(options?: { cleanup: boolean }): Promise<void>;
  /**
   * Stops taking work, waits for running renders (up to SHUTDOWN_GRACE) and for `alongside` (the
   * HTTP side closing, which may still read the store), then closes the store and unlocks.
   */
  stop(alongside?: () => Promise<void>): Promise<void>;
}

export async function openRenderContext(
  config: ServerConfig,
  log: Logger,
  now: () => number = Date.now,
): Promise<RenderContext> {
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const unlockDataDir = await lockDataDir(config.dataDir);
  const apiTokenSecret = config.apiToken
    ? { value: config.apiToken, created: false }
    : await loadOrCreateSecret(config.dataDir, 'api-token');
  const signingSecret =
    config.signingSecret ?? (await loadOrCreateSecret(config.dataDir, 'signing-secret')).value;

  const store = new JobStore(path.join(config.dataDir, 'jobs.sqlite'));
  const storage =
    config.storageBackend === 's3' ? new S3Storage(config.s3!) : new LocalStorage(config.localStorageDir);
  const runner = new JobRunner({
    store,
    storage,
    concurrency: config.renderConcurrency,
    maxAttempts: config.renderMaxAttempts,
    renderProject: config.renderProject,
    workRoot: path.join(config.dataDir, 'work'),
    timeoutMs: config.renderTimeoutMs,
    log: log.child({ component: 'runner' }),
    now,
    authoring: ({ provider, model }) => {
      const settings = config.ai.providers.find((candidate) => candidate.name === provider);
      return settings && { provider: { ...settings, model }, limits: config.aiLimits };
    },
  });
  const cleanup = new Cleanup({ store, storage, log: log.child({ component: 'cleanup' }), now });
  const webhookSecret =
    config.webhookSecret ??
    (
      await loadOrCreateSecret(
        config.dataDir,
        'webhook-secret',
        () => `whsec_${randomBytes(32).toString('base64')}`,
      )
    ).value;
  let baseUrl = config.baseUrl ?? effectiveBaseUrl(config, config.port);
  const ctx: ApiContext = {
    config,
    store,
    storage,
    runner,
    cleanup,
    keys: new KeyRegistry(config.renderProject),
    apiToken: apiTokenSecret.value,
    authFailures: config.authFailureLimit ? authFailureLimiter(config.authFailureLimit, now) : undefined,
    aiRequests: config.aiRateLimit
      ? new WindowLimiter(config.aiRateLimit, {
          code: 'rate_limited',
          describe: ({ max, windowMs }) =>
            `too many prompt and edit renders: at most ${max} per ${windowMs / 1000}s for each token (AI_RATE_LIMIT)`,
          now,
        })
      : undefined,
    links: () => ({ baseUrl, signingSecret }),
    log,
    now,
  };
  const webhooks = new WebhookDispatcher({
    store,
    secret: webhookSecret,
    retryScheduleMs: config.webhookRetryScheduleMs,
    allowPrivate: config.webhookAllowPrivate,
    body: (job) => jobView(job, ctx.links()),
    log: log.child({ component: 'webhooks' }),
    now,
  });
  let stopping: Promise<void> | undefined;
  return {
    ctx,
    generatedApiToken: apiTokenSecret.created ? apiTokenSecret.value : undefined,
    setBaseUrl(url) {
      baseUrl = url;
    },
    async start(options = { cleanup: true }) {
      await runner.start();
      webhooks.start();
      if (options.cleanup) cleanup.startTimer(config.cleanupIntervalMs);
    },
    stop(alongside) {
      stopping ??= (async () => {
        const renders = runner.stop(config.shutdownGraceMs);
        await alongside?.();
        await renders;
        await webhooks.stop();
        await cleanup.stop();
        store.close();
        await unlockDataDir();
      })();
      return stopping;
    },
  };
}
