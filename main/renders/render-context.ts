// The render service without HTTP: the data dir (locked to one process), the secrets, the durable
// job store, the storage backend, the render runner and the cleanup. The API server serves it over
// HTTP; `kino mcp` serves the same service over stdio.
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { Logger } from 'pino';
import { Cleanup } from '../jobs/cleanup.ts';
import { WebhookDispatcher } from '../jobs/webhook-dispatcher.ts';
import { jobView } from './job-view.ts';
import { lockDataDir } from '../fs/pid-lock.ts';
import { loadOrCreateSecret } from '../storage/secrets.ts';
import type { StoredSecret } from '../storage/secrets.ts';
import { redactRedisUrl } from '../jobs/render-queue.ts';
import { openJobStores, openRunner, openStorage } from './job-backend.ts';
import { redisSecrets } from './shared-secrets.ts';
import { WindowLimiter, authFailureLimiter } from '../http/window-limiter.ts';
import { ConfigError, effectiveBaseUrl } from './config.ts';
import type { ServerConfig } from './config.ts';
import type { ApiContext } from './context.ts';
import { KeyRegistry } from './key-registry.ts';
import { hiddenServerPaths } from './hidden-server-paths.ts';

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
  // On Redis, every API instance must sign and accept alike: generated secrets are shared there.
  const shared = config.queue ? redisSecrets(config.queue) : undefined;
  const secret = (name: string, generate?: () => string) =>
    shared ? shared.get(name, generate) : loadOrCreateSecret(config.dataDir, name, generate);
  let apiTokenSecret: StoredSecret;
  let signingSecret: string;
  let webhookSecret: string;
  try {
    apiTokenSecret = config.apiToken ? { value: config.apiToken, created: false } : await secret('api-token');
    signingSecret = config.signingSecret ?? (await secret('signing-secret')).value;
    webhookSecret =
      config.webhookSecret ??
      (await secret('webhook-secret', () => `whsec_${randomBytes(32).toString('base64')}`)).value;
  } catch (error) {
    await unlockDataDir();
    if (!config.queue) throw error;
    throw new ConfigError(
      `cannot reach Redis at ${redactRedisUrl(config.queue.redisUrl)} (QUEUE_BACKEND=redis): ${(error as Error).message}`,
    );
  } finally {
    await shared?.close();
  }

  const stores = openJobStores(config, log.child({ component: 'store' }));
  const storage = openStorage(config);
  const runner = openRunner(config, { store: stores, storage, log: log.child({ component: 'runner' }), now });
  const cleanup = new Cleanup({ store: stores, storage, log: log.child({ component: 'cleanup' }), now });
  let baseUrl = config.baseUrl ?? effectiveBaseUrl(config, config.port);
  const ctx: ApiContext = {
    config,
    store: stores,
    idempotency: stores,
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
    hiddenPaths: hiddenServerPaths(config),
    log,
    now,
  };
  const webhooks = new WebhookDispatcher({
    store: stores,
    secret: webhookSecret,
    retryScheduleMs: config.webhookRetryScheduleMs,
    allowPrivate: config.webhookAllowPrivate,
    body: (job) => jobView(job, ctx),
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
        await stores.close();
        await unlockDataDir();
      })();
      return stopping;
    },
  };
}
