// `kino mcp`: the MCP server over stdio, for an MCP client to start as a child process. It runs the
// render service in this process (the job store and renders under --out, renders in worker
// processes), needs no server and no token, and keeps stdout for the protocol: logs go to stderr.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { pino } from 'pino';
import { loadServerConfig } from '../renders/config.ts';
import { openRenderContext } from '../renders/render-context.ts';
import { findProjectRoot } from '../project/load.ts';
import { KinoInputError } from '../project/input-error.ts';
import { randomToken } from '../storage/secrets.ts';
import { ensureWritableDir } from '../fs/ensure-dir.ts';
import { DataDirInUseError } from '../fs/pid-lock.ts';
import { storedFileOf } from '../jobs/job-store.ts';
import { OneAtATime } from './host.ts';
import type { McpHost } from './host.ts';
import { kinoMcpServerFactory } from './kino-mcp-server.ts';

export interface McpStdioOptions {
  /** Where renders, frames and the job store go (default ./kino-out). */
  out: string;
  /** The render project; default RENDER_PROJECT, else the project around the current folder, else Kino's examples. */
  project?: string | undefined;
}

async function projectDir(option: string | undefined): Promise<string | undefined> {
  if (option) return path.resolve(option);
  if (process.env.RENDER_PROJECT) return undefined; // the config reads it
  return findProjectRoot(process.cwd());
}

/** Serves until the client closes stdin (or a stop signal); resolves to the exit code. */
export async function serveMcpStdio(options: McpStdioOptions): Promise<number> {
  const out = path.resolve(options.out);
  await ensureWritableDir(out);
  const project = await projectDir(options.project);
  const config = loadServerConfig({
    // Renders stay until the user deletes them: nothing cleans the out folder behind their back.
    FILE_TTL: '3650d',
    MAX_TTL: '3650d',
    LOG_LEVEL: 'warn',
    ...process.env,
    // The local service has no HTTP side: no token to keep, nothing listening.
    API_TOKEN: randomToken(24),
    DATA_DIR: path.join(out, '.kino'),
    // Renders land in --out on this machine, whatever the environment's API storage is.
    STORAGE_BACKEND: 'local',
    LOCAL_STORAGE_DIR: out,
    ...(project ? { RENDER_PROJECT: project } : {}),
  });
  const log = pino({ level: config.logLevel, base: { component: 'kino-mcp' } }, pino.destination(2));
  const framesDir = path.join(out, 'frames');
  await mkdir(framesDir, { recursive: true });

  const service = await openRenderContext(config, log).catch((error: unknown) => {
    if (error instanceof DataDirInUseError) {
      throw new KinoInputError(
        `another kino process renders into ${out}; give this one its own folder with --out`,
      );
    }
    throw error;
  });
  await service.start({ cleanup: false });
  let closing = false;
  const host: McpHost = {
    transport: 'stdio',
    service: service.ctx,
    waitMs: config.mcpWaitMs,
    locate: async (job, kind) => {
      const stored = storedFileOf(job, kind);
      const delivery = await service.ctx.storage.deliver(
        { id: job.id, kind, extension: stored!.extension },
        { visibility: job.visibility, expiresAt: job.expiresAt, now: Date.now() },
      );
      return delivery.kind === 'local' ? delivery.path : delivery.url;
    },
    framesDir,
    looks: new OneAtATime(),
    closing: () => closing,
    log,
  };
  const handle = serveStdio(kinoMcpServerFactory(host), {
    onerror: (error) => log.warn({ err: error }, 'MCP stdio error'),
  });
  process.stderr.write(`Kino MCP server on stdio: project ${config.renderProject}, renders in ${out}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.stdin.once('end', stop);
    process.stdin.once('close', stop);
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  closing = true;
  await handle.close().catch(() => undefined);
  await service.stop();
  return 0;
}
