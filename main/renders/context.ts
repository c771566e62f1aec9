// What the routes share: configuration, the job store and idempotency keys, storage, the runner,
// links and the clock.
import type { Logger } from 'pino';
import type { HiddenPath } from '../http/hidden-paths.ts';
import type { WindowLimiter } from '../http/window-limiter.ts';
import type { Cleanup } from '../jobs/cleanup.ts';
import type { RenderRunner } from '../jobs/render-runner.ts';
import type { IdempotencyStore } from '../jobs/idempotency-store.ts';
import type { JobStore } from '../jobs/job-store.ts';
import type { RenderStorage } from '../storage/storage.ts';
import type { ServerConfig } from './config.ts';
import type { LinkContext } from './job-view.ts';
import type { KeyRegistry } from './key-registry.ts';

export interface ApiContext {
  config: ServerConfig;
  store: JobStore;
  idempotency: IdempotencyStore;
  storage: RenderStorage;
  runner: RenderRunner;
  cleanup: Cleanup;
  keys: KeyRegistry;
  apiToken: string;
  /** Counts failed bearer-token checks per address (AUTH_FAILURE_LIMIT); undefined when off. */
  authFailures: WindowLimiter | undefined;
  /** Counts prompt and edit renders per token (AI_RATE_LIMIT); undefined when off. */
  aiRequests: WindowLimiter | undefined;
  links: () => LinkContext;
  /** Server folders a remote caller's messages name otherwise (job errors, MCP tool errors). */
  hiddenPaths: readonly HiddenPath[];
  log: Logger;
  now: () => number;
}

export interface RouteOptions {
  ctx: ApiContext;
}
