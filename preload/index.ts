// The preload: the studio's host API (StudioBridge, shared/studio/bridge.ts) as window.kinoDesktop,
// over IPC. Nothing else of Electron reaches the page: no ipcRenderer, no event channels, no Node.
// Runs sandboxed, so build.ts bundles it into one CommonJS file that requires only 'electron'.
import { contextBridge, ipcRenderer, webUtils } from 'electron';
import type { BridgeError, StudioBridge } from '../shared/studio/bridge.ts';
import { IPC } from './channels.ts';
import type { IpcChannel, IpcReply } from './channels.ts';

/** StudioBridge plus what only the desktop can do. */
export interface DesktopBridge extends StudioBridge {
  readonly mode: 'desktop';
  /** The path of a file dropped on the window (the page sees only its name). */
  pathForFile(file: File): string;
}

/**
 * Rejects with an Error carrying the one-line message (what the UI shows) and the BridgeError code.
 * The context bridge recreates a rejected Error in the page from its message alone, so the code is a
 * courtesy for same-world callers (tests); the page should rely on the message only.
 */
async function invoke<T>(channel: IpcChannel, ...args: unknown[]): Promise<T> {
  const reply = (await ipcRenderer.invoke(channel, ...args)) as IpcReply<T>;
  if (reply.ok) return reply.value;
  const { code, message }: BridgeError = reply.error;
  throw Object.assign(new Error(message), { code });
}

/** Leaves out trailing undefined arguments, which the main process would count as given. */
function present(...args: unknown[]): unknown[] {
  while (args.length > 0 && args[args.length - 1] === undefined) args.pop();
  return args;
}

const bridge: DesktopBridge = {
  mode: 'desktop',
  appVersion: () => invoke(IPC.appVersion),
  connection: () => invoke(IPC.connection),
  openFile: (path) => invoke(IPC.openFile, ...present(path)),
  newFromExample: (exampleId, folder) => invoke(IPC.newFromExample, ...present(exampleId, folder)),
  listExamples: () => invoke(IPC.listExamples),
  recentFiles: () => invoke(IPC.recentFiles),
  getSettings: () => invoke(IPC.getSettings),
  updateSettings: (patch) => invoke(IPC.updateSettings, patch),
  revealInFolder: (path) => invoke(IPC.revealInFolder, path),
  authoringAvailability: () => invoke(IPC.authoringAvailability),
  startAuthoring: (request) => invoke(IPC.startAuthoring, request),
  authoringJob: (id) => invoke(IPC.authoringJob, id),
  authoringBriefing: (id) => invoke(IPC.authoringBriefing, id),
  cancelAuthoring: (id) => invoke(IPC.cancelAuthoring, id),
  pathForFile: (file) => webUtils.getPathForFile(file),
};

contextBridge.exposeInMainWorld('kinoDesktop', bridge);
