// The render API inside the studio's own process, for the desktop app's optional embedded API and
// `--headless`: the same config loader and server `kino serve` runs, bound to 127.0.0.1 only, with
// its data (queue, files, generated token) in the studio's data folder rather than ./.kino.
import type { DestinationStream } from 'pino';
import path from 'node:path';
import { loadServerConfig } from '../renders/config.ts';
import { createApiServer } from '../api/server.ts';
import { StudioInputError } from './errors.ts';

export interface EmbeddedApiOptions {
  /** Port on 127.0.0.1; 0 takes a free one. */
  port: number;
  /** The API's DATA_DIR. */
  dataDir: string;
  /** Read as `kino serve` reads it (API_TOKEN, RENDER_PROJECT, LOG_LEVEL...); default process.env. */
  env?: NodeJS.ProcessEnv;
  logDestination?: DestinationStream;
}

export interface EmbeddedApi {
  url: string;
  port: number;
  /** Where the generated API token is kept; undefined when API_TOKEN chose it. */
  tokenFile: string | undefined;
  /** Stops taking requests; running renders finish (up to SHUTDOWN_GRACE) or resume next start. */
  close(): Promise<void>;
}

export async function startEmbeddedApi(options: EmbeddedApiOptions): Promise<EmbeddedApi> {
  const env = options.env ?? process.env;
  // Loopback only, whatever HOST says: the desktop user did not ask to serve the network.
  const config = loadServerConfig({ ...env, DATA_DIR: options.dataDir, HOST: '127.0.0.1', BASE_URL: '' });
  config.port = options.port;
  const server = await createApiServer(config, { logDestination: options.logDestination });
  let url: string;
  try {
    url = await server.listen();
  } catch (error) {
    await server.close().catch(() => undefined);
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new StudioInputError(
        'api_port_in_use',
        `port ${options.port} on 127.0.0.1 is already in use; choose another API port in Settings`,
      );
    }
    throw error;
  }
  return {
    url,
    port: Number(new URL(url).port),
    tokenFile: config.apiToken ? undefined : path.join(config.dataDir, 'api-token'),
    close: () => server.close(),
  };
}
