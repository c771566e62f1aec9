// The main window and its session, hardened: navigation stays on the UI origin, new windows are
// refused (vetted https links open in the browser), permissions are denied but for the two the UI
// needs, and every response of a workspace origin carries our CSP. Also the Electron side of
// DesktopShell: the dialogs, the window's URL and the file manager.
import { BrowserWindow, dialog, shell } from 'electron';
import type { OpenDialogOptions, Session } from 'electron';
import type { DesktopShell } from './controller.ts';
import {
  COMPOSITION_EXTENSIONS,
  isAllowedNavigation,
  isPermissionGranted,
  isVettedExternalUrl,
  isWorkspaceOrigin,
  originOf,
  withContentSecurityPolicy,
} from './security.ts';
import { mainWindowOptions } from './window-options.ts';

/** Opens a link in the user's browser when it is vetted; anything else is dropped. */
export function openVettedExternal(url: string): void {
  if (isVettedExternalUrl(url)) void shell.openExternal(url);
}

export function createMainWindow(preload: string, uiOrigin: () => string): BrowserWindow {
  const win = new BrowserWindow(mainWindowOptions(preload));
  const contents = win.webContents;
  contents.on('will-frame-navigate', (event) => {
    if (isAllowedNavigation(event.url, [uiOrigin()])) return;
    event.preventDefault();
    if (event.isMainFrame) openVettedExternal(event.url);
  });
  contents.on('will-redirect', (event) => {
    if (!isAllowedNavigation(event.url, [uiOrigin()])) event.preventDefault();
  });
  contents.setWindowOpenHandler(({ url }) => {
    openVettedExternal(url);
    return { action: 'deny' };
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  win.once('ready-to-show', () => win.show());
  return win;
}

export function hardenSession(session: Session, uiOrigin: () => string): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) =>
    callback(isPermissionGranted(permission, details.requestingUrl, uiOrigin())),
  );
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
    isPermissionGranted(permission, requestingOrigin, uiOrigin()),
  );
  session.setDevicePermissionHandler(() => false);
  // app:// responses get the policy from the protocol handler; these are the workspaces' pages.
  session.webRequest.onHeadersReceived((details, callback) => {
    const origin = originOf(details.url);
    if (origin === undefined || !isWorkspaceOrigin(origin)) return callback({});
    // Pages only: media answers carry their own, stricter policy (default-src 'none'; sandbox).
    if (details.resourceType !== 'mainFrame' && details.resourceType !== 'subFrame') return callback({});
    callback({ responseHeaders: withContentSecurityPolicy(details.responseHeaders) });
  });
  session.on('will-download', (event) => event.preventDefault());
}

/** Chromium's "navigation aborted": a newer load replaced this one, which is expected. */
const ERR_ABORTED = -3;

export function electronShell(
  window: () => BrowserWindow | undefined,
  refreshMenu: () => void,
): DesktopShell {
  const parent = () => {
    const win = window();
    return win && !win.isDestroyed() ? win : undefined;
  };
  const openDialog = async (options: OpenDialogOptions) => {
    const win = parent();
    const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
    return result.canceled ? undefined : result.filePaths[0];
  };
  return {
    chooseComposition: () =>
      openDialog({
        title: 'Open Composition',
        properties: ['openFile'],
        filters: [{ name: 'Kino compositions and specs', extensions: [...COMPOSITION_EXTENSIONS] }],
      }),
    chooseFolder: () =>
      openDialog({
        title: 'Choose a Folder for the New Project',
        buttonLabel: 'Create Project Here',
        properties: ['openDirectory', 'createDirectory'],
      }),
    async load(url) {
      const win = parent();
      if (!win) return;
      await win.loadURL(url).catch((error: unknown) => {
        if ((error as { errno?: number }).errno !== ERR_ABORTED) throw error;
      });
    },
    reveal: (file) => shell.showItemInFolder(file),
    showError(message) {
      const win = parent();
      const options = { type: 'error' as const, message, buttons: ['OK'] };
      void (win ? dialog.showMessageBox(win, options) : dialog.showMessageBox(options));
    },
    refreshMenu,
  };
}
