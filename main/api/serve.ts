// `kino serve` / `npm start`: the render API as a long-running process, stopped gracefully by
// SIGTERM or SIGINT (running renders finish, or are queued again for the next start).
import { ConfigError, loadServerConfig } from './config.ts';
import { createApiServer } from './server.ts';

export interface ServeOptions {
  port?: number;
  host?: string;
}

export async function serve(options: ServeOptions = {}): Promise<number> {
  const config = loadServerConfig(process.env);
  if (options.port !== undefined) config.port = options.port;
  if (options.host !== undefined) config.host = options.host;
  const server = await createApiServer(config);
  const baseUrl = await server.listen();
  if (server.generatedApiToken) {
    // Shown once, on the terminal only (never in the structured log): it is kept in the data dir.
    process.stderr.write(
      `\nKino generated an API token (kept in ${config.dataDir}/api-token; set API_TOKEN to choose your own):\n\n  ${server.generatedApiToken}\n\n`,
    );
  }
  process.stderr.write(`Kino render API on ${baseUrl} (docs: ${baseUrl}/v1/docs)\n`);
  const signal = await new Promise<NodeJS.Signals>((resolve) => {
    const stop = (received: NodeJS.Signals) => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve(received);
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
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
