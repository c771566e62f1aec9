// Wires the bridge's channels to ipcMain. Everything else (sender check, argument validation, the
// calls, error replies) is in ipc-dispatch.ts, tested without Electron.
import { ipcMain } from 'electron';
import type { IpcMainInvokeEvent, WebContents } from 'electron';
import { IPC } from '../../preload/channels.ts';
import { dispatchIpc } from './ipc-dispatch.ts';
import type { desktopHandlers } from './ipc-dispatch.ts';
import type { IpcSender } from './security.ts';

function senderOf(
  event: IpcMainInvokeEvent,
  isAppWindow: (contents: WebContents) => boolean,
): IpcSender | undefined {
  const frame = event.senderFrame;
  if (!frame || !isAppWindow(event.sender)) return undefined;
  return { url: frame.url, isMainFrame: frame.parent === null };
}

export function registerIpc(
  handlers: ReturnType<typeof desktopHandlers>,
  uiOrigin: () => string,
  isAppWindow: (contents: WebContents) => boolean,
): void {
  for (const channel of Object.values(IPC)) {
    ipcMain.handle(channel, (event, ...args: unknown[]) =>
      dispatchIpc(handlers, channel, senderOf(event, isAppWindow), args, uiOrigin()),
    );
  }
}
