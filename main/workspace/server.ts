// The workspace: a loopback HTTP server for one composition source file, its worker process, its
// source revision and its descriptor.
import { rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { installProblemHandlers, sendProblem } from '../http/problem.ts';
import { projectForFile } from '../project/load.ts';
import { randomToken } from '../storage/secrets.ts';
import type { WorkspaceContext } from './context.ts';
import { DataDirInUseError, acquirePidLock } from '../fs/pid-lock.ts';
import type { RenderProject } from '../project/load.ts';
import {
  prepareWorkspaceDir,
  removeDescriptor,
  runningWorkspace,
  workspacePaths,
  writeDescriptor,
} from './descriptor.ts';
import type { WorkspaceDescriptor, WorkspacePaths } from './descriptor.ts';
import { workspaceGuard } from '../http/loopback-guard.ts';
import { WorkspaceJobRunner } from './job-runner.ts';
import { WorkspaceError } from './workspace-error.ts';
import { artifactRoutes } from './routes/artifact.ts';
import { jobRoutes, MAX_JOB_BODY_BYTES } from './routes/jobs.ts';
import { sourceRoutes } from './routes/source.ts';
import { statusRoutes } from './routes/status.ts';
import { SourceRevisionTracker } from './source-revision.ts';
import { SourceWatch } from './source-watch.ts';
import { CompositionProcessHost } from './composition-process-host.ts';

export const DEFAULT_TIMEOUT_SECONDS = 300;

export interface WorkspaceOptions {
  source: string;
  startupTimeoutSeconds?: number;
  requestTimeoutSeconds?: number;
  /** Port to bind on 127.0.0.1; default a free one. */
  port?: number;
  /** More routes on the same server (the studio UI and its host API), registered after the guard. */
  extensions?: WorkspaceExtension[];
}

/** What an extension gets: the routes' shared context plus the server's token and bound port. */
export interface WorkspaceExtensionContext extends WorkspaceContext {
  token: string;
  port: () => number;
}

export interface WorkspaceExtension {
  register(app: FastifyInstance, ctx: WorkspaceExtensionContext): void;
  /** Paths served without the token (still Host- and Origin-checked): static UI files only. */
  isPublic?(pathname: string): boolean;
  close?(): Promise<void>;
}

export interface RunningWorkspace {
  app: FastifyInstance;
  endpoint: string;
  descriptorPath: string;
  descriptor: WorkspaceDescriptor;
  resultsDir: string;
  /** Stops the server and the worker and removes the descriptor (results stay). */
  close(): Promise<void>;
}

export async function startWorkspace(options: WorkspaceOptions): Promise<RunningWorkspace> {
  const source = path.resolve(options.source);
  if (!(await stat(source).catch(() => undefined))?.isFile()) {
    throw new WorkspaceError(404, 'source_missing', `${source} does not exist or is not a file`);
  }
  const project = await projectForFile(source);
  const paths = workspacePaths(project.root, source);
  await prepareWorkspaceDir(paths);
  // One workspace per source file: an exclusive pid lock, so two started at once cannot both run.
  const release = await acquirePidLock(
    path.join(paths.dir, 'workspace.pid'),
    (pid) => `pid ${pid}`,
    'another workspace keeps taking the lock',
  ).catch(async (error: unknown) => {
    if (!(error instanceof DataDirInUseError)) throw error;
    const other = await runningWorkspace(paths.descriptor);
    throw new WorkspaceError(
      409,
      'workspace_running',
      `a workspace for ${source} is already running (${error.message}${other ? `, ${other.endpoint}` : ''}); use it (kino session ${paths.descriptor} status), or stop it first`,
    );
  });
  try {
    return await serveWorkspace(source, project, paths, options, release);
  } catch (error) {
    await release();
    throw error;
  }
}

async function serveWorkspace(
  source: string,
  project: RenderProject,
  paths: WorkspacePaths,
  options: WorkspaceOptions,
  release: () => Promise<void>,
): Promise<RunningWorkspace> {
  const startupTimeoutSeconds = options.startupTimeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const requestTimeoutSeconds = options.requestTimeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const tracker = new SourceRevisionTracker(source, project, () => projectForFile(source));
  const worker = new CompositionProcessHost({
    source,
    stagingDir: paths.staging,
    startupTimeoutMs: startupTimeoutSeconds * 1000,
  });
  const runner = new WorkspaceJobRunner({
    tracker,
    worker,
    resultsDir: paths.results,
    requestTimeoutMs: requestTimeoutSeconds * 1000,
  });
  const ctx: WorkspaceContext = { source, resultsDir: paths.results, tracker, worker, runner };

  const watch = new SourceWatch(() => scheduleRefresh());
  let refreshTimer: NodeJS.Timeout | undefined;
  const refresh = async () => {
    const revision = await tracker.current();
    watch.sync([...revision.files, tracker.project.assetsDir]);
    if (worker.revision !== undefined && worker.revision !== revision.id) worker.retireSoon();
    // A capture of the old source is stopped now, not finished only to be discarded.
    runner.sourceChanged(revision.id);
  };
  // Editors save in bursts (write, rename, chmod): settle before fingerprinting.
  const scheduleRefresh = () => {
    clearTimeout(refreshTimer);
    refreshTimer = setTimeout(() => void refresh().catch(() => undefined), 50);
  };
  await refresh();

  const token = randomToken();
  let port = 0;
  const app = Fastify({
    logger: false,
    bodyLimit: MAX_JOB_BODY_BYTES,
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Renders can take minutes; the request time-out is enforced on the worker, not the socket.
    requestTimeout: 0,
    ajv: {
      customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: false, allErrors: true },
    },
    frameworkErrors: (error, request, reply) => {
      const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
      void sendProblem(request, reply, status, 'bad_url', 'the URL is malformed');
    },
  });
  installProblemHandlers(app, MAX_JOB_BODY_BYTES);
  const extensions = options.extensions ?? [];
  app.addHook(
    'onRequest',
    workspaceGuard(token, () => port, {
      isPublic: (pathname) => extensions.some((extension) => extension.isPublic?.(pathname) ?? false),
    }),
  );
  statusRoutes(app, ctx);
  sourceRoutes(app, ctx);
  jobRoutes(app, ctx);
  artifactRoutes(app, ctx);
  for (const extension of extensions) extension.register(app, { ...ctx, token, port: () => port });

  await app.listen({ host: '127.0.0.1', port: options.port ?? 0 });
  port = (app.server.address() as AddressInfo).port;
  const endpoint = `http://127.0.0.1:${port}`;
  const descriptor: WorkspaceDescriptor = {
    endpoint,
    token,
    pid: process.pid,
    source,
    startupTimeoutSeconds,
    requestTimeoutSeconds,
    createdAt: new Date().toISOString(),
  };
  await writeDescriptor(paths.descriptor, descriptor);

  let closing: Promise<void> | undefined;
  return {
    app,
    endpoint,
    descriptorPath: paths.descriptor,
    descriptor,
    resultsDir: paths.results,
    close() {
      closing ??= (async () => {
        clearTimeout(refreshTimer);
        // Requests in flight or waiting are answered now (503), so the server closes at once.
        runner.close();
        worker.stop();
        await removeDescriptor(paths.descriptor, process.pid);
        // Compiled bundles are scratch; results stay for whoever reads them later.
        await rm(paths.staging, { recursive: true, force: true }).catch(() => undefined);
        await watch.close();
        // Extensions first: their long-lived responses (event streams) would hold app.close() open.
        await Promise.all(extensions.map((extension) => extension.close?.()));
        await app.close();
        await release();
      })();
      return closing;
    },
  };
}
