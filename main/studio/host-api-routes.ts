// /studio/api/*: the desktop preload's calls over HTTP, for the studio in a browser (`kino studio`),
// plus what the UI reads about its session (the preview key, past exports, the types for Monaco, the
// project's images and videos for media variables).
// Every route needs the workspace token (the guard runs first).
import { spawn } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts';
import type { FastifyInstance } from 'fastify';
import { Problem } from '../http/problem.ts';
import { KinoInputError } from '../project/input-error.ts';
import { projectForFile } from '../project/load.ts';
import { WorkspaceError } from '../workspace/workspace-error.ts';
import type { WorkspaceExtensionContext } from '../workspace/server.ts';
import { builderTypeLibraries } from '../composition/builder-types.ts';
import { StudioInputError } from './errors.ts';
import { listExamples } from './examples.ts';
import type { WorkspaceConnection } from '../../shared/studio/bridge.ts';
import type { RecentFiles } from './recent-files.ts';
import type { StudioAuthoring } from './authoring-jobs.ts';
import type { SettingsStore } from './settings-store.ts';
import { listProjectAssets } from './project-assets.ts';
import { listProjectCompositions } from './project-compositions.ts';
import { studioLink } from './studio-link.ts';
import { PREBUILT_TYPES } from './ui-files.ts';

/** What the routes ask of the studio host (StudioHost in host.ts, which mounts these routes). */
export interface StudioHostApi {
  readonly mode: 'desktop' | 'browser';
  readonly appVersion: string;
  readonly recent: RecentFiles;
  readonly settings: SettingsStore;
  readonly authoring: StudioAuthoring;
  connection(): WorkspaceConnection | null;
  open(file: string): Promise<WorkspaceConnection>;
  newFromExample(exampleId: string, folder: string): Promise<WorkspaceConnection>;
  canReveal(file: string): Promise<boolean>;
}

interface HostApiOptions {
  host: StudioHostApi;
  ctx: WorkspaceExtensionContext;
  previewKey: string;
}

const PathBody = {
  type: 'object',
  properties: { path: { type: 'string', minLength: 1, maxLength: 4096 } },
  required: ['path'],
  additionalProperties: false,
} as const;

const ExampleBody = {
  type: 'object',
  properties: {
    exampleId: { type: 'string', minLength: 1, maxLength: 100 },
    folder: { type: 'string', minLength: 1, maxLength: 4096 },
  },
  required: ['exampleId', 'folder'],
  additionalProperties: false,
} as const;

/** Errors from the host's stores and the workspace, as the problem answers the UI shows. */
function asProblem(error: unknown): unknown {
  if (error instanceof Problem) return error;
  if (error instanceof StudioInputError) return new Problem(400, error.code, error.message);
  if (error instanceof WorkspaceError) return new Problem(error.status, error.code, error.message);
  if (error instanceof KinoInputError) return new Problem(400, 'invalid_project', error.message);
  // The workspace logs nothing: the one-line cause is the only trace the user gets.
  const message = error instanceof Error ? error.message : String(error);
  return new Problem(500, 'studio_failed', message.split('\n', 1)[0] ?? 'the studio failed');
}

export async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asProblem(error);
  }
}

/**
 * Opens a folder in the file manager. Never through a shell: on Windows `cmd /c start` would re-parse
 * `&` or `^` in a folder's name as commands.
 */
function showFolder(folder: string, onError: (error: Error) => void): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [folder]]
      : process.platform === 'win32'
        ? ['explorer.exe', [folder]]
        : ['xdg-open', [folder]];
  try {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true });
    child.on('error', onError);
    child.unref();
  } catch (error) {
    onError(error as Error);
  }
}

export function hostApiRoutes(server: FastifyInstance, options: HostApiOptions): void {
  const app = server.withTypeProvider<JsonSchemaToTsProvider>();
  const { host, ctx, previewKey } = options;
  const projectDir = () => guarded(async () => (await projectForFile(ctx.source)).root);

  app.get('/studio/api/session', async () => {
    const project = await guarded(() => projectForFile(ctx.source));
    return {
      mode: host.mode,
      appVersion: host.appVersion,
      source: ctx.source,
      projectRoot: project.root,
      projectFonts: project.fonts,
      resultsDir: ctx.resultsDir,
      previewKey,
    };
  });

  app.get('/studio/api/app', async () => ({ version: host.appVersion }));
  app.get('/studio/api/recent', async () => guarded(() => host.recent.list()));
  app.get('/studio/api/settings', async () => guarded(() => host.settings.read()));
  app.patch('/studio/api/settings', { schema: { body: { type: 'object' } } }, async (request) =>
    guarded(() => host.settings.update(request.body)),
  );
  app.get('/studio/api/examples', async () => listExamples());
  app.get('/studio/api/compositions', async () => listProjectCompositions(await projectDir()));
  app.get('/studio/api/assets', async () =>
    listProjectAssets((await guarded(() => projectForFile(ctx.source))).assetsDir),
  );
  app.get('/studio/api/types', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    // The build's copy when there is one (an installed app has no TypeScript to generate them).
    const prebuilt = await readFile(PREBUILT_TYPES, 'utf8').catch(() => undefined);
    return prebuilt ? (JSON.parse(prebuilt) as unknown) : builderTypeLibraries();
  });

  app.post('/studio/api/open', { schema: { body: PathBody } }, async (request) => {
    const given = request.body.path;
    const file = path.resolve(await projectDir(), given);
    // Already open here: nothing to load (a fragment-only navigation would not even reload).
    if (file === host.connection()?.source) return { kind: 'opened', source: file };
    const connection = await guarded(() => host.open(file));
    return {
      kind: 'navigate',
      url: studioLink(connection), // the browser opens the new workspace's studio
      source: connection.source,
    };
  });

  app.post('/studio/api/new-from-example', { schema: { body: ExampleBody } }, async (request) => {
    const { exampleId, folder } = request.body;
    const target = path.resolve(await projectDir(), folder);
    const connection = await guarded(() => host.newFromExample(exampleId, target));
    return {
      kind: 'navigate',
      url: studioLink(connection), // the browser opens the new workspace's studio
      source: connection.source,
    };
  });

  // Only the composition and this workspace's results can be revealed: the UI never names other files.
  app.post('/studio/api/reveal', { schema: { body: PathBody } }, async (request, reply) => {
    const file = request.body.path;
    const allowed = await host.canReveal(file);
    if (!allowed) {
      throw new Problem(403, 'reveal_refused', 'only the composition and its results can be revealed');
    }
    const folder = path.dirname(path.resolve(file));
    const failure = await new Promise<Error | undefined>((resolve) => {
      showFolder(folder, resolve);
      setTimeout(() => resolve(undefined), 300);
    });
    if (failure) {
      throw new Problem(
        503,
        'reveal_unavailable',
        `no file manager could be started on this machine (${failure.message}); the file is in ${folder}`,
      );
    }
    return reply.code(204).send();
  });

  app.get('/studio/api/exports', async () => {
    const dir = path.join(ctx.resultsDir, 'renders');
    const names = await readdir(dir).catch(() => [] as string[]);
    const receipts = await Promise.all(
      names
        .filter((name) => name.endsWith('.render.json'))
        .map(async (name) => {
          try {
            const receipt = JSON.parse(await readFile(path.join(dir, name), 'utf8')) as {
              output?: { path?: string };
              createdAt?: string;
            };
            const output = receipt.output?.path;
            const exists = output ? (await stat(output).catch(() => undefined))?.isFile() === true : false;
            return { receiptPath: path.join(dir, name), exists, receipt };
          } catch {
            return undefined; // a receipt being written, or not ours
          }
        }),
    );
    return receipts
      .filter((entry) => entry !== undefined)
      .sort((a, b) => String(b.receipt.createdAt).localeCompare(String(a.receipt.createdAt)));
  });
}
