// The studio on a workspace started by `kino workspace` (for `kino session` and agents). A source has
// one workspace at a time, so a second server for the studio cannot start beside it; instead that
// workspace serves the studio too, and `kino studio --attach <descriptor>` prints its link. It shows
// its own composition only: another file needs a studio of its own (`kino studio <file>`). Nothing is
// spent on it until a page asks: the preview starts on its first request, and a checkout whose UI is
// not built serves no studio (`kino workspace` never waits for a build).
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WorkspaceConnection } from '../../shared/studio/bridge.ts';
import { PreviewSite } from '../preview/preview-site.ts';
import { projectForFile } from '../project/load.ts';
import type { WorkspaceExtension } from '../workspace/server.ts';
import { StudioAuthoring } from './authoring-jobs.ts';
import { StudioInputError } from './errors.ts';
import type { StudioHostApi } from './host-api-routes.ts';
import { RecentFiles } from './recent-files.ts';
import { SettingsStore } from './settings-store.ts';
import { studioExtension } from './studio-extension.ts';
import type { StudioPreview } from './studio-extension.ts';

/** A PreviewSite started by the first request for it. */
export class LazyPreviewSite implements StudioPreview {
  readonly #source: string;
  #site: Promise<PreviewSite> | undefined;

  constructor(source: string) {
    this.#source = source;
  }

  get started(): boolean {
    return this.#site !== undefined;
  }

  async serve(route: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    this.#site ??= projectForFile(this.#source).then((project) => PreviewSite.start(this.#source, project));
    return (await this.#site).serve(route, request, reply);
  }

  async close(): Promise<void> {
    await this.#site?.then((site) => site.close()).catch(() => undefined);
  }
}

export interface WorkspaceStudioOptions {
  source: string;
  dataDir: string;
  appVersion: string;
}

/** The host API of a workspace's own studio: one composition, never another. */
export class WorkspaceStudioHost implements StudioHostApi {
  readonly mode = 'browser';
  readonly appVersion: string;
  readonly recent: RecentFiles;
  readonly settings: SettingsStore;
  /** Generate works here too; opening what it writes is refused (this studio has one file). */
  readonly authoring = new StudioAuthoring();
  readonly #source: string;
  #connection: WorkspaceConnection | undefined;
  #resultsDir: string | undefined;

  constructor(options: WorkspaceStudioOptions) {
    this.#source = path.resolve(options.source);
    this.appVersion = options.appVersion;
    this.recent = new RecentFiles(path.join(options.dataDir, 'recent-files.json'));
    this.settings = new SettingsStore(path.join(options.dataDir, 'settings.json'));
  }

  /** Called once the workspace listens: its endpoint and token are the studio's. */
  serving(connection: WorkspaceConnection, resultsDir: string): void {
    this.#connection = connection;
    this.#resultsDir = resultsDir;
  }

  connection(): WorkspaceConnection | null {
    return this.#connection ?? null;
  }

  async open(file: string): Promise<WorkspaceConnection> {
    if (path.resolve(file) === this.#source && this.#connection) return this.#connection;
    throw new StudioInputError(
      'workspace_studio',
      `this studio belongs to the workspace of ${path.basename(this.#source)}: open ${path.basename(file)} with "kino studio ${file}"`,
    );
  }

  async newFromExample(): Promise<WorkspaceConnection> {
    throw new StudioInputError(
      'workspace_studio',
      `this studio belongs to the workspace of ${path.basename(this.#source)}: start a new video with "kino studio"`,
    );
  }

  async canReveal(file: string): Promise<boolean> {
    const resolved = path.resolve(file);
    if (resolved === this.#source) return true;
    const results = this.#resultsDir;
    if (!results) return false;
    try {
      const real = await realpath(resolved);
      return real.startsWith((await realpath(results)) + path.sep);
    } catch {
      return false;
    }
  }
}

export interface WorkspaceStudio {
  host: WorkspaceStudioHost;
  extension: WorkspaceExtension;
}

/** The studio a workspace for `source` serves, given the built UI's folder. */
export function workspaceStudio(options: WorkspaceStudioOptions & { uiDir: string }): WorkspaceStudio {
  const host = new WorkspaceStudioHost(options);
  const extension = studioExtension({
    host,
    preview: new LazyPreviewSite(options.source),
    uiDir: options.uiDir,
  });
  return { host, extension };
}
