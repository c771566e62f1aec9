// `kino serve` / `npm start`: the render API as a long-running process, stopped gracefully by
// SIGTERM or SIGINT (running renders finish, or are queued again for the next start).
import { ConfigError, loadServerConfig } from '../renders/config.ts';
import { createApiServer } from './server.ts';
import { firstStopSignal } from './stop-signals.ts';
import type { ApiServerOptions } from './server.ts';

export interface ServeOptions {
  port?: number;
  host?: string;
  /** The /mcp routes, mounted when MCP_ENABLED. */
  mcpRoutes?: ApiServerOptions['mcpRoutes'];
}

export async function serve(options: ServeOptions = {}): Promise<number> {
  const config = loadServerConfig(process.env);
  if (options.port !== undefined) config.port = options.port;
  if (options.host !== undefined) config.host = options.host;
  const server = await createApiServer(config, { mcpRoutes: options.mcpRoutes });
  const baseUrl = await server.listen();
  if (server.generatedApiToken) {
    // Shown once, on the terminal only (never in the structured log): it is kept in the data dir.
    process.stderr.write(
      `\nKino generated an API token (kept in ${config.queue ? `Redis, shared by every API on ${config.queue.prefix}` : `${config.dataDir}/api-token`}; set API_TOKEN to choose your own):\n\n  ${server.generatedApiToken}\n\n`,
    );
  }
  process.stderr.write(`Kino render API on ${baseUrl} (docs: ${baseUrl}/v1/docs)\n`);
  if (config.mcpEnabled) process.stderr.write(`MCP (Streamable HTTP) on ${baseUrl}/mcp\n`);
  const signal = await firstStopSignal(
    'Kino render API: stopping now; running renders resume on the next start',
  );
  const running = server.ctx.runner.runningCount;
  server.app.log.info(
    { signal, runningRenders: running, graceMs: config.shutdownGraceMs },
    'shutting down: no new requests or renders; running renders finish or are queued again',
  );
  await server.close();
  process.stderr.write('Kino render API stopped\n');
  return 0;
}

export { ConfigError };
