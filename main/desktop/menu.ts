// The application menu as a template (Electron's types only, so it is built and tested without
// Electron). Save and Render are not here: the UI owns those shortcuts (it knows whether there is
// anything to save), and an unregistered accelerator reaches the page's own key handler.
import type { MenuItemConstructorOptions } from 'electron';
import type { ExampleInfo, RecentFile } from '../../shared/studio/bridge.ts';

/** Where Help → Documentation goes; its host must stay in VETTED_EXTERNAL_HOSTS (security.ts). */
export const DOCS_URL = 'https://github.com/kino-video/kino#readme';

export interface MenuState {
  platform: NodeJS.Platform;
  /** Developer tools only in an unpackaged (development) run. */
  isDev: boolean;
  hasFile: boolean;
  recent: RecentFile[];
  examples: ExampleInfo[];
}

export interface MenuActions {
  open(): void;
  openRecent(file: string): void;
  newFromExample(exampleId: string): void;
  closeFile(): void;
  openDocs(): void;
}

function recentItems(recent: RecentFile[], actions: MenuActions): MenuItemConstructorOptions[] {
  if (recent.length === 0) return [{ label: 'No Recent Files', enabled: false }];
  return recent.map((entry) => ({
    label: entry.path,
    enabled: entry.exists,
    click: () => actions.openRecent(entry.path),
  }));
}

export function menuTemplate(state: MenuState, actions: MenuActions): MenuItemConstructorOptions[] {
  const mac = state.platform === 'darwin';
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open…', accelerator: 'CmdOrCtrl+O', click: () => actions.open() },
      { label: 'Open Recent', submenu: recentItems(state.recent, actions) },
      {
        label: 'New from Example',
        submenu: state.examples.map((example) => ({
          label: example.title,
          toolTip: example.description,
          click: () => actions.newFromExample(example.id),
        })),
      },
      { type: 'separator' },
      // With no file open, Close closes the window, as everywhere else.
      state.hasFile
        ? { label: 'Close', accelerator: 'CmdOrCtrl+W', click: () => actions.closeFile() }
        : { role: 'close' },
      ...(mac ? [] : [{ type: 'separator' } as const, { role: 'quit' } as const]),
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(state.isDev ? [{ role: 'forceReload' } as const, { role: 'toggleDevTools' } as const] : []),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  };
  const help: MenuItemConstructorOptions = {
    role: 'help',
    submenu: [{ label: 'Kino Documentation', click: () => actions.openDocs() }],
  };
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    file,
    { role: 'editMenu' },
    view,
    ...(mac ? [{ role: 'windowMenu' } as const] : []),
    help,
  ];
}
