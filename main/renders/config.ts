// The render API's configuration: environment variables with embedded defaults, checked once at
// start so a typo fails loudly instead of running with a surprise.
import type { QueueSettings } from '../jobs/render-queue.ts';
import { MAX_RASTER_THREADS } from '../engine/raster-threads.ts';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_AUTHORING_LIMITS } from '../authoring/author-spec.ts';
import type { AuthoringLimits } from '../authoring/author-spec.ts';
import { AiConfigError, readAiSettings } from '../authoring/providers.ts';
import type { AiSettings } from '../authoring/providers.ts';
import { defaultProjectDir } from '../project/load.ts';
import type { S3Settings } from '../storage/s3-storage.ts';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS, webhookUrlProblem } from '../jobs/webhook-dispatcher.ts';

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** "90s", "15m", "24h", "7d" (and "500ms"); "0" means zero. */
export const DURATION_PATTERN = /^(\d+)(ms|s|m|h|d)$/;
/** A render's ttl in a request: a positive whole number of seconds, minutes, hours or days. */
export const TTL_PATTERN = '^[1-9][0-9]{0,8}(s|m|h|d)$';

export function parseDuration(text: string): number | undefined {
  if (text === '0') return 0;
  const match = DURATION_PATTERN.exec(text);
  if (!match) return undefined;
  return Number(match[1]) * DURATION_UNITS_MS[match[2] as keyof typeof DURATION_UNITS_MS];
}

const BYTE_UNITS = {
  b: 1,
  kb: 1000,
  kib: 1024,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** "1048576", "512KiB", "1MiB", "2MB". */
export function parseBytes(text: string): number | undefined {
  const match = /^(\d+)\s*([a-z]*)$/i.exec(text.trim());
  if (!match) return undefined;
  const unit = (match[2] || 'b').toLowerCase() as keyof typeof BYTE_UNITS;
  return unit in BYTE_UNITS ? Number(match[1]) * BYTE_UNITS[unit] : undefined;
}

export interface RateLimit {
  max: number;
  windowMs: number;
}

/** "600/min", "20/s", "5000/h", or "0" (off). */
export function parseRateLimit(text: string): RateLimit | null | undefined {
  if (text === '0') return null;
  const match = /^(\d+)\/(s|sec|min|m|h|hour)$/.exec(text);
  if (!match || Number(match[1]) === 0) return undefined;
  const windowMs = { s: 1000, sec: 1000, m: 60_000, min: 60_000, h: 3_600_000, hour: 3_600_000 }[match[2]!]!;
  return { max: Number(match[1]), windowMs };
}

/** Frames × width × height: about 10 minutes of 4K at 60 fps, or 80 minutes of 1080p at 30 fps. */
export const DEFAULT_MAX_RENDER_PIXELS = 300_000_000_000;

const durationVar = (fallback: string, { allowZero }: { allowZero: boolean }) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseDuration(text);
      if (ms === undefined || (!allowZero && ms === 0)) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a duration like "90s", "15m", "24h" or "7d"${allowZero ? ', or 0' : ''}, got "${text}"`,
        });
        return z.NEVER;
      }
      return ms;
    });

const rateVar = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const limit = parseRateLimit(text);
      if (limit === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a rate like "600/min", "20/s" or "5000/h", or 0 to turn it off, got "${text}"`,
        });
        return z.NEVER;
      }
      return limit;
    });

const booleanVar = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
      error: 'expected true or false',
    })
    .optional()
    .transform((text) => (text === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(text)));

const wholeVar = (fallback: number, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'expected a whole number')
    .optional()
    .transform((text) => (text === undefined ? fallback : Number(text)))
    .pipe(z.number().int().min(min).max(max));

const secretVar = (name: string) =>
  z.string().min(16, `${name} must be at least 16 characters (use a long random value)`).optional();

const EnvSchema = z.object({
  PORT: wholeVar(8080, 0, 65535),
  HOST: z.string().min(1).default('127.0.0.1'),
  BASE_URL: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL like https://render.example.com' })
    .optional(),
  DATA_DIR: z.string().min(1).default('./.kino'),
  API_TOKEN: secretVar('API_TOKEN'),
  CLEANUP_TOKEN: secretVar('CLEANUP_TOKEN'),
  SIGNING_SECRET: secretVar('SIGNING_SECRET'),
  RENDER_PROJECT: z.string().min(1).optional(),
  // Renders this process runs at once: 1 by default; on Redis the API runs none unless it is set.
  RENDER_CONCURRENCY: z
    .string()
    .regex(/^\d+$/, 'expected a whole number')
    .optional()
    .transform((text) => (text === undefined ? undefined : Number(text)))
    .pipe(z.number().int().min(0).max(64).optional()),
  QUEUE_BACKEND: z
    .enum(['sqlite', 'redis'], { error: 'expected "sqlite" (one machine) or "redis" (shared by workers)' })
    .default('sqlite'),
  REDIS_URL: z
    .url({
      protocol: /^rediss?$/,
      error: 'expected a Redis URL like redis://:password@redis.internal:6379/0',
    })
    .optional(),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'expected 1–64 letters, digits, "_", "." or "-"')
    .default('kino'),
  QUEUE_LOCK: durationVar('30s', { allowZero: false }),
  CHUNK_MIN_FRAMES: wholeVar(300, 0, 100_000_000),
  // Read again by each render (main/engine/raster-threads.ts); checked here so a bad value stops the
  // server at start rather than failing every render.
  RENDER_THREADS: wholeVar(1, 1, MAX_RASTER_THREADS),
  RENDER_CORES: wholeVar(1, 1, MAX_RASTER_THREADS),
  RENDER_MAX_ATTEMPTS: wholeVar(2, 1, 20),
  STORAGE_BACKEND: z.enum(['local', 's3'], { error: 'expected "local" or "s3"' }).default('local'),
  S3_BUCKET: z.string().min(3).max(63).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL like https://minio.example.com:9000' })
    .optional(),
  S3_FORCE_PATH_STYLE: booleanVar(false),
  S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9!_.*'()/-]*$/, "expected a key prefix of letters, digits and !_.*'()/-")
    .default(''),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_PUBLIC_BASE_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  LOCAL_STORAGE_DIR: z.string().min(1).optional(),
  FILE_TTL: durationVar('24h', { allowZero: false }),
  MAX_TTL: durationVar('30d', { allowZero: false }),
  CLEANUP_INTERVAL: durationVar('15m', { allowZero: true }),
  SHUTDOWN_GRACE: durationVar('25s', { allowZero: true }),
  RENDER_TIMEOUT: durationVar('30m', { allowZero: true }),
  TRUST_PROXY: booleanVar(false),
  PUBLIC_BY_DEFAULT: booleanVar(false),
  DOCS_ENABLED: booleanVar(true),
  MAX_BODY: z
    .string()
    .default('1MiB')
    .transform((text, ctx) => {
      const bytes = parseBytes(text);
      if (bytes === undefined || bytes < 1024) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a size like "1MiB" or "262144" (at least 1KiB), got "${text}"`,
        });
        return z.NEVER;
      }
      return bytes;
    }),
  RATE_LIMIT: rateVar('600/min'),
  AUTH_FAILURE_LIMIT: rateVar('20/min'),
  REQUEST_TIMEOUT: durationVar('30s', { allowZero: false }),
  MAX_QUEUED_PER_TOKEN: wholeVar(100, 1, 1_000_000),
  MAX_QUEUE_DEPTH: wholeVar(500, 1, 10_000_000),
  MAX_RENDER_PIXELS: z
    .string()
    .regex(/^\d+$/, 'expected a whole number of pixels (frames × width × height), like 300000000000')
    .default(String(DEFAULT_MAX_RENDER_PIXELS))
    .transform(Number)
    .pipe(z.number().min(1_000_000, 'must be at least 1000000').max(Number.MAX_SAFE_INTEGER)),
  AI_MAX_REPAIRS: wholeVar(2, 0, 5),
  AI_TIME_BUDGET: durationVar('3m', { allowZero: false }),
  AI_REQUEST_TIMEOUT: durationVar('90s', { allowZero: false }),
  AI_RATE_LIMIT: rateVar('60/h'),
  WEBHOOK_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
  WEBHOOK_SECRET: z
    .string()
    .regex(
      /^(whsec_)?[A-Za-z0-9+/]{24,}={0,2}$/,
      'expected a Standard Webhooks secret: "whsec_" and base64 (24+ characters)',
    )
    .optional(),
  WEBHOOK_ALLOW_PRIVATE: booleanVar(false),
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined) return DEFAULT_WEBHOOK_RETRY_SCHEDULE_MS;
      if (text === '0') return [];
      const delays = text.split(',').map((part) => parseDuration(part.trim()));
      if (delays.length > 20 || delays.some((ms) => ms === undefined)) {
        ctx.addIssue({
          code: 'custom',
          message: `expected up to 20 comma-separated durations like "5s,5m,30m,2h", or 0 for no retries, got "${text}"`,
        });
        return z.NEVER;
      }
      return delays as number[];
    }),
  MCP_ENABLED: booleanVar(false),
  MCP_WAIT_SECONDS: wholeVar(120, 0, 3600),
  MCP_ALLOWED_ORIGINS: z
    .string()
    .optional()
    .transform((text) =>
      (text ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)$/i, {
          error:
            'expected host names without scheme or port, comma-separated, e.g. "app.example.com,localhost"',
        }),
      ),
    ),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface ServerConfig {
  port: number;
  host: string;
  /** Absolute base for download URLs; undefined = derived from the bound address once listening. */
  baseUrl: string | undefined;
  dataDir: string;
  apiToken: string | undefined;
  cleanupToken: string | undefined;
  signingSecret: string | undefined;
  renderProject: string;
  renderConcurrency: number;
  renderMaxAttempts: number;
  storageBackend: 'local' | 's3';
  /** QUEUE_BACKEND=redis: the shared store and queue; undefined for SQLite and the in-process runner. */
  queue: QueueSettings | undefined;
  /** Renders of more frames may be split across free workers (Redis only); 0 = never. */
  chunkMinFrames: number;
  /** STORAGE_BACKEND=s3: the bucket and how to reach it (the secret key included: never logged). */
  s3: S3Settings | undefined;
  localStorageDir: string;
  fileTtlMs: number;
  maxTtlMs: number;
  cleanupIntervalMs: number;
  shutdownGraceMs: number;
  renderTimeoutMs: number;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (for rate limits and logs). */
  trustProxy: boolean;
  publicByDefault: boolean;
  docsEnabled: boolean;
  maxBodyBytes: number;
  rateLimit: RateLimit | null;
  /** Failed authentications allowed per client address and window; null: not limited. */
  authFailureLimit: RateLimit | null;
  /** Time allowed to receive a whole request, headers and body (REQUEST_TIMEOUT). */
  requestTimeoutMs: number;
  /** Queued renders one token may have waiting (429 beyond). */
  maxQueuedPerToken: number;
  /** Queued renders in all (503, and readyz not ready, when reached). */
  maxQueueDepth: number;
  /** The largest render accepted, as frames × width × height. */
  maxRenderPixels: number;
  /** The AI providers configured (keys included: never logged or answered). */
  ai: AiSettings;
  aiLimits: AuthoringLimits;
  /** Prompt and edit renders per token and window; null: not limited. */
  aiRateLimit: RateLimit | null;
  /** Where a job's end is sent when its request names no webhook. */
  webhookUrl: string | undefined;
  /** Signs webhook deliveries; generated into DATA_DIR/webhook-secret when unset. */
  webhookSecret: string | undefined;
  /** Plain http and private addresses for webhooks (tests, intranets): dangerous. */
  webhookAllowPrivate: boolean;
  /** Delays before each webhook retry. */
  webhookRetryScheduleMs: number[];
  /** Streamable HTTP MCP at /mcp (MCP_ENABLED). */
  mcpEnabled: boolean;
  /** How long an MCP render tool waits for its render before it answers with the job to poll. */
  mcpWaitMs: number;
  /** Browser origins (host names) allowed to call /mcp besides BASE_URL's own. */
  mcpAllowedOrigins: string[];
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function s3Settings(e: z.infer<typeof EnvSchema>): S3Settings | undefined {
  if (e.STORAGE_BACKEND !== 's3') return undefined;
  if (!e.S3_BUCKET) throw new ConfigError('invalid configuration: STORAGE_BACKEND=s3 needs S3_BUCKET');
  if ((e.S3_ACCESS_KEY_ID === undefined) !== (e.S3_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(
      'invalid configuration: set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (the AWS default credential chain)',
    );
  }
  return {
    bucket: e.S3_BUCKET,
    region: e.S3_REGION,
    endpoint: e.S3_ENDPOINT,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
    prefix: e.S3_PREFIX.replace(/^\/+|\/+$/g, ''),
    accessKeyId: e.S3_ACCESS_KEY_ID,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY,
    publicBaseUrl: e.S3_PUBLIC_BASE_URL?.replace(/\/+$/, ''),
  };
}

/** Reads the configuration from `env`; relative paths resolve against `cwd`. */
function queueSettings(e: z.infer<typeof EnvSchema>): QueueSettings | undefined {
  if (e.QUEUE_BACKEND !== 'redis') return undefined;
  if (!e.REDIS_URL) {
    throw new ConfigError('invalid configuration: QUEUE_BACKEND=redis needs REDIS_URL (redis://host:6379)');
  }
  return { redisUrl: e.REDIS_URL, prefix: e.QUEUE_PREFIX, lockMs: e.QUEUE_LOCK };
}

export function loadServerConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): ServerConfig {
  // An empty variable reads as unset, as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(
    Object.keys(EnvSchema.shape)
      .filter((name) => env[name] !== undefined && env[name] !== '')
      .map((name) => [name, env[name]]),
  );
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  if (e.FILE_TTL > e.MAX_TTL) {
    throw new ConfigError(
      'invalid configuration: FILE_TTL is longer than MAX_TTL; raise MAX_TTL or lower FILE_TTL',
    );
  }
  let ai: AiSettings;
  try {
    ai = readAiSettings(env);
  } catch (error) {
    if (error instanceof AiConfigError) throw new ConfigError(`invalid configuration: ${error.message}`);
    throw error;
  }
  const webhookProblem = e.WEBHOOK_URL && webhookUrlProblem(e.WEBHOOK_URL, e.WEBHOOK_ALLOW_PRIVATE);
  if (webhookProblem) throw new ConfigError(`invalid configuration: WEBHOOK_URL: ${webhookProblem}`);
  const dataDir = path.resolve(cwd, e.DATA_DIR);
  const queue = queueSettings(e);
  if (!queue && e.RENDER_CONCURRENCY === 0) {
    throw new ConfigError(
      'invalid configuration: RENDER_CONCURRENCY=0 leaves nothing to run renders; it is for an API on QUEUE_BACKEND=redis, where workers run them',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    baseUrl: e.BASE_URL?.replace(/\/+$/, ''),
    dataDir,
    apiToken: e.API_TOKEN,
    cleanupToken: e.CLEANUP_TOKEN,
    signingSecret: e.SIGNING_SECRET,
    renderProject: e.RENDER_PROJECT ? path.resolve(cwd, e.RENDER_PROJECT) : defaultProjectDir(),
    renderConcurrency: e.RENDER_CONCURRENCY ?? (queue ? 0 : 1),
    renderMaxAttempts: e.RENDER_MAX_ATTEMPTS,
    storageBackend: e.STORAGE_BACKEND,
    queue,
    chunkMinFrames: e.CHUNK_MIN_FRAMES,
    s3: s3Settings(e),
    localStorageDir: e.LOCAL_STORAGE_DIR
      ? path.resolve(cwd, e.LOCAL_STORAGE_DIR)
      : path.join(dataDir, 'files'),
    fileTtlMs: e.FILE_TTL,
    maxTtlMs: e.MAX_TTL,
    cleanupIntervalMs: e.CLEANUP_INTERVAL,
    shutdownGraceMs: e.SHUTDOWN_GRACE,
    renderTimeoutMs: e.RENDER_TIMEOUT,
    trustProxy: e.TRUST_PROXY,
    publicByDefault: e.PUBLIC_BY_DEFAULT,
    docsEnabled: e.DOCS_ENABLED,
    maxBodyBytes: e.MAX_BODY,
    rateLimit: e.RATE_LIMIT,
    authFailureLimit: e.AUTH_FAILURE_LIMIT,
    requestTimeoutMs: e.REQUEST_TIMEOUT,
    maxQueuedPerToken: e.MAX_QUEUED_PER_TOKEN,
    maxQueueDepth: e.MAX_QUEUE_DEPTH,
    maxRenderPixels: e.MAX_RENDER_PIXELS,
    ai,
    aiLimits: {
      ...DEFAULT_AUTHORING_LIMITS,
      maxRepairs: e.AI_MAX_REPAIRS,
      budgetMs: e.AI_TIME_BUDGET,
      requestTimeoutMs: e.AI_REQUEST_TIMEOUT,
      maxRenderPixels: e.MAX_RENDER_PIXELS,
    },
    aiRateLimit: e.AI_RATE_LIMIT,
    webhookUrl: e.WEBHOOK_URL,
    webhookSecret: e.WEBHOOK_SECRET,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    webhookRetryScheduleMs: e.WEBHOOK_RETRY_SCHEDULE,
    mcpEnabled: e.MCP_ENABLED,
    mcpWaitMs: e.MCP_WAIT_SECONDS * 1000,
    mcpAllowedOrigins: e.MCP_ALLOWED_ORIGINS,
    logLevel: e.LOG_LEVEL,
  };
}

/** The base URL clients see: BASE_URL, else the bound address (a wildcard host reads as localhost). */
export function effectiveBaseUrl(config: ServerConfig, boundPort: number): string {
  if (config.baseUrl) return config.baseUrl;
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const host = wildcard ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  return `http://${host}:${boundPort}`;
}
