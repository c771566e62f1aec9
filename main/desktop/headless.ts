// `--headless`: the render API with no window, through the very function `kino serve` runs, so it
// logs, authenticates and shuts down gracefully (SIGINT/SIGTERM) exactly as the server does.
import path from 'node:path';
import { serve } from '../api/serve.ts';

export interface HeadlessInput {
  apiPort: number | undefined;
  env: NodeJS.ProcessEnv;
  /** The API port from the app's settings. */
  settingsPort: number;
  userDataDir: string;
}

/**
 * --api-port, else PORT (as for `kino serve`), else the app's setting. DATA_DIR, else the app's own
 * folder: a double-clicked app starts in "/", where serve's default ./.kino cannot be written.
 */
export function headlessPlan(input: HeadlessInput): {
  port: number | undefined;
  dataDir: string | undefined;
} {
  return {
    port: input.apiPort ?? (input.env.PORT ? undefined : input.settingsPort),
    dataDir: input.env.DATA_DIR ? undefined : path.join(input.userDataDir, 'api'),
  };
}

/** Serves until a stop signal; resolves to the exit code. */
export async function runHeadless(input: HeadlessInput): Promise<number> {
  const plan = headlessPlan(input);
  if (plan.dataDir) process.env.DATA_DIR = plan.dataDir;
  return serve({ port: plan.port });
}
