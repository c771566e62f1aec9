// The IPC channels between the preload and the main process, one per StudioBridge call. Shared by
// both sides so a renamed channel cannot silently stop answering. No runtime imports: the preload
// is bundled into one sandboxed script that may require only 'electron'.
import type { BridgeError } from '../shared/studio/bridge.ts';

export const IPC = {
  appVersion: 'kino:app-version',
  connection: 'kino:connection',
  openFile: 'kino:open-file',
  newFromExample: 'kino:new-from-example',
  listExamples: 'kino:list-examples',
  recentFiles: 'kino:recent-files',
  getSettings: 'kino:get-settings',
  updateSettings: 'kino:update-settings',
  revealInFolder: 'kino:reveal-in-folder',
  authoringAvailability: 'kino:authoring-availability',
  startAuthoring: 'kino:start-authoring',
  authoringJob: 'kino:authoring-job',
  authoringBriefing: 'kino:authoring-briefing',
  cancelAuthoring: 'kino:cancel-authoring',
} as const;

export type IpcChannel = (typeof IPC)[keyof typeof IPC];

/**
 * Every handler answers with this instead of throwing: Electron would log a thrown error in the main
 * process and hand the page "Error invoking remote method 'kino:…': Error: …" instead of the line.
 */
export type IpcReply<T = unknown> = { ok: true; value: T } | { ok: false; error: BridgeError };
