// What the desktop app does, without Electron: opening a composition (dialog, argv, menu, drop),
// switching the window between the welcome page and a workspace's studio page, and answering the
// bridge. Electron supplies the dialogs and the window through DesktopShell (see window.ts).
import path from 'node:path';
import type {
  AuthoringAvailability,
  AuthoringBriefing,
  AuthoringJobRequest,
  AuthoringJobView,
} from '../../shared/studio/authoring.ts';
import type {
  ExampleInfo,
  OpenOutcome,
  RecentFile,
  StudioSettings,
  WorkspaceConnection,
} from '../../shared/studio/bridge.ts';
import { listExamples } from '../studio/examples.ts';
import { StudioInputError } from '../studio/errors.ts';
import { APP_ORIGIN, WELCOME_URL, isWorkspaceOrigin } from './security.ts';
import { toBridgeError } from './bridge-error.ts';

/** The parts of StudioHost (main/studio/host.ts) the desktop app uses. */
export interface StudioHostLike {
  readonly settings: { read(): Promise<StudioSettings>; update(patch: unknown): Promise<StudioSettings> };
  readonly recent: { list(): Promise<RecentFile[]> };
  connection(): WorkspaceConnection | null;
  open(file: string): Promise<WorkspaceConnection>;
  newFromExample(exampleId: string, folder: string): Promise<WorkspaceConnection>;
  /** Only the open composition and its results: the UI never names other files. */
  canReveal(file: string): Promise<boolean>;
  close(): Promise<void>;
  readonly authoring: {
    availability(): AuthoringAvailability;
    start(request: AuthoringJobRequest, place: { projectFile: string }): AuthoringJobView;
    view(id: string): AuthoringJobView;
    briefing(id: string): AuthoringBriefing;
    cancel(id: string): AuthoringJobView;
  };
}

export interface DesktopShell {
  /** The open dialog; undefined when canceled. */
  chooseComposition(): Promise<string | undefined>;
  chooseFolder(): Promise<string | undefined>;
  /** Loads a URL in the window: the only navigation the app makes. */
  load(url: string): Promise<void>;
  reveal(file: string): void;
  showError(message: string): void;
  refreshMenu(): void;
}

export interface ApiSwitchLike {
  apply(settings: StudioSettings): Promise<void>;
}

export class DesktopController {
  readonly #host: StudioHostLike;
  readonly #shell: DesktopShell;
  readonly #api: ApiSwitchLike;
  #uiOrigin = APP_ORIGIN;
  /** Opens and closes run one at a time: a double click must not start two workspaces. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(host: StudioHostLike, shell: DesktopShell, api: ApiSwitchLike) {
    this.#host = host;
    this.#shell = shell;
    this.#api = api;
  }

  /** The origin of the page the app loaded in the window: the only one trusted with the bridge. */
  get uiOrigin(): string {
    return this.#uiOrigin;
  }

  get hasFile(): boolean {
    return this.#host.connection() !== null;
  }

  async showWelcome(): Promise<void> {
    this.#uiOrigin = APP_ORIGIN;
    await this.#shell.load(WELCOME_URL);
  }

  /** From the UI: a dropped or typed path, or the dialog when there is none. */
  openFile(file?: string): Promise<OpenOutcome> {
    return this.#exclusive(async () => {
      const chosen = file ?? (await this.#shell.chooseComposition());
      if (chosen === undefined) return { kind: 'canceled' };
      return this.#show(() => this.#host.open(chosen));
    });
  }

  newFromExample(exampleId: string, folder?: string): Promise<OpenOutcome> {
    return this.#exclusive(async () => {
      const chosen = folder ?? (await this.#shell.chooseFolder());
      if (chosen === undefined) return { kind: 'canceled' };
      return this.#show(() => this.#host.newFromExample(exampleId, chosen));
    });
  }

  /** From the menu, the command line or the OS: failures are shown in a dialog, not thrown. */
  async openFromApp(file?: string): Promise<void> {
    await this.openFile(file).catch((error: unknown) => this.#shell.showError(toBridgeError(error).message));
  }

  async newFromExampleFromApp(exampleId: string): Promise<void> {
    await this.newFromExample(exampleId).catch((error: unknown) =>
      this.#shell.showError(toBridgeError(error).message),
    );
  }

  closeFile(): Promise<void> {
    return this.#exclusive(async () => {
      await this.#host.close();
      await this.showWelcome();
      this.#shell.refreshMenu();
    });
  }

  /** The workspace token goes only to the page served by that workspace. */
  connection(senderOrigin: string): WorkspaceConnection | null {
    const connection = this.#host.connection();
    return connection && connection.endpoint === senderOrigin ? connection : null;
  }

  listExamples(): ExampleInfo[] {
    return listExamples();
  }

  recentFiles(): Promise<RecentFile[]> {
    return this.#host.recent.list();
  }

  getSettings(): Promise<StudioSettings> {
    return this.#host.settings.read();
  }

  /** Saves, then brings the embedded API in line; an API that fails to start is reported apart. */
  async updateSettings(patch: unknown): Promise<StudioSettings> {
    const settings = await this.#host.settings.update(patch);
    this.#api
      .apply(settings)
      .catch((error: unknown) =>
        this.#shell.showError(`The render API did not start: ${toBridgeError(error).message}`),
      );
    return settings;
  }

  async revealInFolder(file: string): Promise<void> {
    if (!(await this.#host.canReveal(file))) {
      throw new StudioInputError('reveal_refused', 'only the composition and its results can be revealed');
    }
    this.#shell.reveal(file);
  }

  authoringAvailability(): AuthoringAvailability {
    return this.#host.authoring.availability();
  }

  /**
   * A generate writes into the open composition's project; with none open, into a folder the user
   * chooses (null when canceled). An edit needs an open file.
   */
  async startAuthoring(request: AuthoringJobRequest): Promise<AuthoringJobView | null> {
    const source = this.#host.connection()?.source;
    if (request.kind === 'edit' && !source) {
      throw new StudioInputError('nothing_open', 'open a spec to edit it with words');
    }
    const folder = source ? undefined : await this.#shell.chooseFolder();
    if (!source && folder === undefined) return null;
    // A file of the project, for its root and assets: the folder's kino.json, if it has one, decides.
    const projectFile = source ?? path.join(folder!, 'generated.json');
    return this.#host.authoring.start(request, { projectFile });
  }

  authoringJob(id: string): AuthoringJobView {
    return this.#host.authoring.view(id);
  }

  authoringBriefing(id: string): AuthoringBriefing {
    return this.#host.authoring.briefing(id);
  }

  cancelAuthoring(id: string): AuthoringJobView {
    return this.#host.authoring.cancel(id);
  }

  async #show(start: () => Promise<WorkspaceConnection>): Promise<OpenOutcome> {
    let connection: WorkspaceConnection;
    try {
      connection = await start();
      if (!isWorkspaceOrigin(connection.endpoint)) {
        throw new Error(`the workspace answered on an unexpected address (${connection.endpoint})`);
      }
    } catch (error) {
      // The host may have closed the previous workspace before failing: never leave its page up.
      if (this.#uiOrigin !== APP_ORIGIN && this.#host.connection()?.endpoint !== this.#uiOrigin) {
        await this.showWelcome();
        // The page that asked is gone, so its answer would be lost: say it here.
        this.#shell.showError(toBridgeError(error).message);
      }
      this.#shell.refreshMenu();
      throw error;
    }
    this.#uiOrigin = connection.endpoint;
    this.#shell.refreshMenu();
    await this.#shell.load(`${connection.endpoint}/studio/`);
    return { kind: 'opened', source: connection.source };
  }

  #exclusive<T>(step: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(step);
    this.#queue = run.catch(() => undefined);
    return run;
  }
}
