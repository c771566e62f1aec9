// A `kino worker`'s health endpoint, for probes (Kubernetes, Compose): GET /healthz answers 200 while
// the process runs; GET /readyz answers 200 only while the worker takes renders and its Redis and
// storage answered their last check, else 503 with the reason. It serves nothing else.
import Fastify from 'fastify';
import { installProblemHandlers } from '../http/problem.ts';
import type { WorkerReadiness } from './worker-readiness.ts';

/** Probes send no body: one that comes anyway is refused early. */
const MAX_BODY_BYTES = 1024;

export interface WorkerHealthServer {
  /** Where it listens: http://host:port. */
  url: string;
  close(): Promise<void>;
}

export class WorkerHealthListenError extends Error {
  override name = 'WorkerHealthListenError';
}

export async function startWorkerHealthServer(
  readiness: WorkerReadiness,
  where: { host: string; port: number },
): Promise<WorkerHealthServer> {
  const app = Fastify({ logger: false, bodyLimit: MAX_BODY_BYTES, forceCloseConnections: true });
  installProblemHandlers(app, MAX_BODY_BYTES);
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const { ready, reason, checks } = readiness.answer();
    // A probe's answer must not be cached by anything between.
    reply.header('cache-control', 'no-store');
    if (ready) return { status: 'ready', checks };
    return reply.code(503).send({ status: 'not_ready', reason, checks });
  });
  try {
    await app.listen({ host: where.host, port: where.port });
  } catch (error) {
    await app.close().catch(() => undefined);
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new WorkerHealthListenError(
      `cannot listen on ${where.host}:${where.port} for the worker's health endpoint (${code}): choose another WORKER_HEALTH_PORT or WORKER_HEALTH_HOST`,
    );
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : where.port;
  const host = where.host.includes(':') ? `[${where.host}]` : where.host;
  return { url: `http://${host}:${port}`, close: () => app.close() };
}
