// The Electron main process: one instance per user, the window and its menu, files opened from the
// command line, the OS (macOS open-file) or a second launch, and `--headless` for the render API
// alone. The work itself is done by plain modules: StudioHost, DesktopController, ApiSwitch.
import path from 'node:path';
import { BrowserWindow, Menu, app, dialog, session } from 'electron';
import { z } from 'zod';
import { describeError } from '../engine/describe-error.ts';
import { StudioHost } from '../studio/host.ts';
import { startEmbeddedApi } from '../studio/embedded-api.ts';
import { listExamples } from '../studio/examples.ts';
import { ApiSwitch } from './api-switch.ts';
import { registerAppScheme, serveAppProtocol } from './app-protocol.ts';
import { ArgsError, parseDesktopArgs, userArgs } from './args.ts';
import type { DesktopArgs } from './args.ts';
import { DesktopController } from './controller.ts';
import { runHeadless } from './headless.ts';
import { registerIpc } from './ipc.ts';
import { desktopHandlers } from './ipc-dispatch.ts';
import { DOCS_URL, menuTemplate } from './menu.ts';
import { packagedToolEnv } from './resources.ts';
import { createMainWindow, electronShell, hardenSession, openVettedExternal } from './window.ts';

const EXIT_USAGE = 64;

/** What a second launch hands over (Chromium may add switches to its argv, so not that). */
const SecondLaunch = z.object({ file: z.string().min(1).optional() });

function userDataDir(): string {
  return app.getPath('userData');
}

function fail(title: string, error: unknown): void {
  const message = describeError(error).replace(/^kino: /, '');
  process.stderr.write(`${title}: ${message}\n`);
  if (app.isReady()) dialog.showErrorBox(title, message);
  app.exit(1);
}

function startHeadless(args: DesktopArgs): void {
  app.disableHardwareAcceleration();
  app.dock?.hide();
  const host = new StudioHost({ dataDir: userDataDir(), mode: 'desktop', appVersion: app.getVersion() });
  void host.settings
    .read()
    .then((settings) =>
      runHeadless({
        apiPort: args.apiPort,
        env: process.env,
        settingsPort: settings.apiPort,
        userDataDir: userDataDir(),
      }),
    )
    .then(
      (code) => app.exit(code),
      (error: unknown) => fail('Kino render API', error),
    );
}

/** `ready` gets the controller as soon as the window exists, so files the OS sends meanwhile open. */
async function startWindowed(
  args: DesktopArgs,
  firstFile: () => string | undefined,
  ready: (controller: DesktopController) => void,
): Promise<void> {
  const appRoot = app.getAppPath();
  const uiDir = path.join(appRoot, 'dist', 'renderer');
  // uiDir given: the app serves what it shipped (or `npm run desktop` built), never builds at run time.
  const host = new StudioHost({
    dataDir: userDataDir(),
    mode: 'desktop',
    appVersion: app.getVersion(),
    uiDir,
  });
  const api = new ApiSwitch(
    (port) => startEmbeddedApi({ port, dataDir: path.join(userDataDir(), 'api') }),
    args.apiPort,
  );
  let win: BrowserWindow | undefined;
  const refreshMenu = () => void buildMenu().catch((error: unknown) => console.error('menu:', error));
  const controller = new DesktopController(
    host,
    electronShell(() => win, refreshMenu),
    api,
  );
  const uiOrigin = () => controller.uiOrigin;

  async function buildMenu(): Promise<void> {
    const recent = await host.recent.list();
    const template = menuTemplate(
      {
        platform: process.platform,
        isDev: !app.isPackaged,
        hasFile: controller.hasFile,
        recent,
        examples: listExamples(),
      },
      {
        open: () => void controller.openFromApp(),
        openRecent: (file) => void controller.openFromApp(file),
        newFromExample: (id) => void controller.newFromExampleFromApp(id),
        closeFile: () => void controller.closeFile(),
        openDocs: () => openVettedExternal(DOCS_URL),
      },
    );
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
  }

  function openWindow(): BrowserWindow {
    const created = createMainWindow(path.join(appRoot, 'dist', 'desktop', 'preload.cjs'), uiOrigin);
    created.on('closed', () => {
      win = undefined;
      // A closed window leaves nothing to work on: free the workspace and its worker.
      void controller.closeFile().catch(() => undefined);
    });
    return created;
  }

  serveAppProtocol(session.defaultSession, uiDir);
  hardenSession(session.defaultSession, uiOrigin);
  registerIpc(
    desktopHandlers(controller, app.getVersion()),
    uiOrigin,
    (contents) => contents === win?.webContents,
  );

  let quitReady = false;
  app.on('will-quit', (event) => {
    if (quitReady) return;
    event.preventDefault();
    void Promise.allSettled([host.close(), api.close()]).then(() => {
      quitReady = true;
      app.quit();
    });
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (win) return;
    win = openWindow();
    void controller.showWelcome();
  });

  win = openWindow();
  ready(controller);
  refreshMenu();
  api
    .apply(await host.settings.read())
    .catch((error: unknown) =>
      dialog.showErrorBox('The render API did not start', describeError(error).replace(/^kino: /, '')),
    );
  const file = firstFile();
  if (file) await controller.openFromApp(file);
  if (!controller.hasFile) await controller.showWelcome();
}

/** Runs once the entry has loaded this module; everything that must precede `ready` happens here. */
export function start(): void {
  let args: DesktopArgs;
  try {
    args = parseDesktopArgs(userArgs(process.argv, process.defaultApp === true));
  } catch (error) {
    if (!(error instanceof ArgsError)) throw error;
    process.stderr.write(`kino: ${error.message}\n`);
    app.exit(EXIT_USAGE);
    return;
  }
  // The same folder in development (package name "kino") as packaged (product name "Kino").
  app.setPath('userData', path.join(app.getPath('appData'), 'Kino'));
  if (app.isPackaged) Object.assign(process.env, packagedToolEnv(process.env, process.resourcesPath));
  if (args.headless) {
    startHeadless(args);
    return;
  }

  const requested = args.file ? path.resolve(args.file) : undefined;
  if (!app.requestSingleInstanceLock({ file: requested })) {
    app.quit();
    return;
  }
  app.enableSandbox();
  registerAppScheme();

  let controller: DesktopController | undefined;
  let pending = requested;
  // macOS sends files opened from Finder this way, possibly before the app is ready.
  app.on('open-file', (event, file) => {
    event.preventDefault();
    if (controller) void controller.openFromApp(file);
    else pending = file;
  });
  app.on('second-instance', (_event, _argv, _cwd, data) => {
    const window = BrowserWindow.getAllWindows()[0];
    if (window?.isMinimized()) window.restore();
    window?.focus();
    const file = SecondLaunch.safeParse(data).data?.file;
    if (file && controller) void controller.openFromApp(file);
  });
  app
    .whenReady()
    .then(() =>
      startWindowed(
        args,
        () => pending,
        (ready) => {
          controller = ready;
        },
      ),
    )
    .catch((error: unknown) => fail('Kino could not start', error));
}
