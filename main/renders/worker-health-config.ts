// The settings only `kino worker` reads: where its health endpoint listens. Checked at start like the
// API's configuration (config.ts), so a typo stops the worker in one line rather than leaving the
// probes failing against nothing.
import { z } from 'zod';
import { ConfigError } from './config.ts';

const WorkerHealthSchema = z.object({
  WORKER_HEALTH_PORT: z
    .string()
    .regex(/^\d+$/, 'expected a port number (0 for any free port), or leave it unset to listen on none')
    .optional()
    .transform((text) => (text === undefined ? undefined : Number(text)))
    .pipe(z.number().int().min(0).max(65535).optional()),
  WORKER_HEALTH_HOST: z.string().min(1).default('127.0.0.1'),
});

/** Where the health endpoint listens; undefined: WORKER_HEALTH_PORT is unset, so it listens nowhere. */
export interface WorkerHealthConfig {
  host: string;
  port: number;
}

export function loadWorkerHealthConfig(env: NodeJS.ProcessEnv): WorkerHealthConfig | undefined {
  // An empty variable reads as unset, as in config.ts.
  const given = (value: string | undefined) => (value === '' ? undefined : value);
  const parsed = WorkerHealthSchema.safeParse({
    WORKER_HEALTH_PORT: given(env.WORKER_HEALTH_PORT),
    WORKER_HEALTH_HOST: given(env.WORKER_HEALTH_HOST),
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  const { WORKER_HEALTH_PORT: port, WORKER_HEALTH_HOST: host } = parsed.data;
  return port === undefined ? undefined : { host, port };
}
