// The studio host: what the desktop app's main process and `kino studio` share. It owns the open
// composition's workspace (served with the studio UI and its host API), the recent files and the
// settings. Opening another file starts its workspace first and only then stops the previous one, so
// a file that fails to open leaves the current one working.
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { WorkspaceConnection } from '../../shared/studio/bridge.ts';
import { projectForFile } from '../project/load.ts';
import { startWorkspace } from '../workspace/server.ts';
import type { RunningWorkspace } from '../workspace/server.ts';
import { copyExample } from './examples.ts';
import { StudioInputError } from './errors.ts';
import { PreviewSite } from '../preview/preview-site.ts';
import { previewKeyFor } from './preview-routes.ts';
import { RecentFiles } from './recent-files.ts';
import { SettingsStore } from './settings-store.ts';
import { studioExtension } from './studio-extension.ts';
import { studioUiDir } from './build-ui.ts';
import { StudioAuthoring } from './authoring-jobs.ts';

/** Code compositions, and JSON specs (templates or not). */
const INPUT_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.js', '.mjs', '.jsx', '.json']);

export interface StudioHostOptions {
  /** Settings and recent files live here. */
  dataDir: string;
  mode: 'desktop' | 'browser';
  appVersion: string;
  /** The built UI; default dist/renderer (built on first use from a source checkout). */
  uiDir?: string;
  /** Where the AI provider settings are read (as `kino generate` reads them); default process.env. */
  aiEnv?: NodeJS.ProcessEnv;
  /**
   * Told of every composition opened after the first (Home → Open, New from example): in browser
   * mode each one is served from its own workspace, so the link printed for the previous one is gone.
   */
  onSwitched?: (connection: WorkspaceConnection) => void;
}

export interface OpenComposition {
  workspace: RunningWorkspace;
  connection: WorkspaceConnection;
  previewKey: string;
}

export class StudioHost {
  readonly settings: SettingsStore;
  readonly recent: RecentFiles;
  /** Generate and Edit with words: one job at a time, outliving the workspace it started in. */
  readonly authoring: StudioAuthoring;
  readonly mode: 'desktop' | 'browser';
  readonly appVersion: string;
  readonly #uiDir: string | undefined;
  readonly #onSwitched: ((connection: WorkspaceConnection) => void) | undefined;
  #current: OpenComposition | undefined;
  #opening: Promise<OpenComposition> | undefined;
  readonly #closing = new Set<Promise<void>>();
  #closed = false;

  constructor(options: StudioHostOptions) {
    this.settings = new SettingsStore(path.join(options.dataDir, 'settings.json'));
    this.recent = new RecentFiles(path.join(options.dataDir, 'recent-files.json'));
    this.mode = options.mode;
    this.appVersion = options.appVersion;
    this.#uiDir = options.uiDir;
    this.authoring = new StudioAuthoring(options.aiEnv);
    this.#onSwitched = options.onSwitched;
  }

  get current(): OpenComposition | undefined {
    return this.#current;
  }

  connection(): WorkspaceConnection | null {
    return this.#current?.connection ?? null;
  }

  /** Opens `file` (one at a time: a second call waits for the first). */
  async open(file: string): Promise<WorkspaceConnection> {
    while (this.#opening) await this.#opening.catch(() => undefined);
    this.#opening = this.#open(file);
    try {
      return (await this.#opening).connection;
    } finally {
      this.#opening = undefined;
    }
  }

  /** Only the open composition and files in its results may be shown in a file manager. */
  async canReveal(file: string): Promise<boolean> {
    const current = this.#current;
    if (!current) return false;
    const resolved = path.resolve(file);
    if (resolved === current.connection.source) return true;
    try {
      const [real, root] = await Promise.all([realpath(resolved), realpath(current.workspace.resultsDir)]);
      return real.startsWith(root + path.sep);
    } catch {
      return false;
    }
  }

  async newFromExample(exampleId: string, folder: string): Promise<WorkspaceConnection> {
    return this.open(await copyExample(exampleId, folder));
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.authoring.close();
    await this.#opening?.catch(() => undefined);
    const current = this.#current;
    this.#current = undefined;
    if (current) this.#retire(current);
    await Promise.all(this.#closing);
  }

  async #open(file: string): Promise<OpenComposition> {
    if (this.#closed) throw new StudioInputError('studio_closing', 'the studio is closing');
    const source = path.resolve(file);
    if (this.#current?.connection.source === source) return this.#current;
    if (!INPUT_EXTENSIONS.has(path.extname(source).toLowerCase())) {
      throw new StudioInputError(
        'not_a_composition',
        `${path.basename(source)} is not a composition: open a .ts (or .tsx/.js) file that default-exports a video, or a .json spec`,
      );
    }
    if (!(await stat(source).catch(() => undefined))?.isFile()) {
      throw new StudioInputError('source_missing', `${source} does not exist or is not a file`);
    }
    const project = await projectForFile(source);
    const preview = await PreviewSite.start(source, project);
    let workspace: RunningWorkspace;
    try {
      workspace = await startWorkspace({
        source,
        extensions: [studioExtension({ host: this, preview, uiDir: this.#uiDir ?? (await studioUiDir()) })],
      });
    } catch (error) {
      await preview.close();
      throw error;
    }
    if (this.#closed) {
      // Closed while it started (Ctrl+C, quit): nothing may outlive the host.
      await workspace.close();
      throw new StudioInputError('studio_closing', 'the studio is closing');
    }
    const opened: OpenComposition = {
      workspace,
      connection: { endpoint: workspace.endpoint, token: workspace.descriptor.token, source },
      previewKey: previewKeyFor(workspace.descriptor.token),
    };
    const previous = this.#current;
    this.#current = opened;
    // Not awaited: the request that asked for this file may still be answered by the previous
    // workspace, and closing a server waits for its requests.
    if (previous) {
      this.#retire(previous);
      this.#onSwitched?.(opened.connection);
    }
    await this.recent.add(source).catch(() => undefined);
    return opened;
  }

  #retire(open: OpenComposition): void {
    const closing = open.workspace.close().catch(() => undefined);
    this.#closing.add(closing);
    void closing.finally(() => this.#closing.delete(closing));
  }
}
