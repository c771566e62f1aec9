// The IPC handlers without Electron: check the sender, validate the arguments, call the controller
// and wrap the answer (or the error, as one user-facing line) in an IpcReply. ipc.ts only wires
// these to ipcMain.
import { IPC } from '../../preload/channels.ts';
import type { IpcChannel, IpcReply } from '../../preload/channels.ts';
import { toBridgeError } from './bridge-error.ts';
import type { DesktopController } from './controller.ts';
import { IPC_ARGS, isTrustedSender, originOf } from './security.ts';
import type { IpcArgs, IpcSender } from './security.ts';

type Handlers = { [C in IpcChannel]: (args: IpcArgs<C>, senderOrigin: string) => unknown };

export function desktopHandlers(controller: DesktopController, appVersion: string): Handlers {
  return {
    [IPC.appVersion]: () => appVersion,
    [IPC.connection]: (_args, origin) => controller.connection(origin),
    [IPC.openFile]: ([file]) => controller.openFile(file),
    [IPC.newFromExample]: ([exampleId, folder]) => controller.newFromExample(exampleId, folder),
    [IPC.listExamples]: () => controller.listExamples(),
    [IPC.recentFiles]: () => controller.recentFiles(),
    [IPC.getSettings]: () => controller.getSettings(),
    [IPC.updateSettings]: ([patch]) => controller.updateSettings(patch),
    [IPC.revealInFolder]: ([file]) => controller.revealInFolder(file),
    [IPC.authoringAvailability]: () => controller.authoringAvailability(),
    [IPC.startAuthoring]: ([request]) => controller.startAuthoring(request),
    [IPC.authoringJob]: ([id]) => controller.authoringJob(id),
    [IPC.authoringBriefing]: ([id]) => controller.authoringBriefing(id),
    [IPC.cancelAuthoring]: ([id]) => controller.cancelAuthoring(id),
  };
}

export async function dispatchIpc(
  handlers: Handlers,
  channel: IpcChannel,
  sender: IpcSender | undefined,
  args: unknown[],
  uiOrigin: string,
): Promise<IpcReply> {
  if (!isTrustedSender(sender, uiOrigin)) {
    return {
      ok: false,
      error: { code: 'forbidden', message: 'this page may not use the Kino desktop bridge' },
    };
  }
  const parsed = IPC_ARGS[channel].safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const detail = issue
      ? `${issue.path.length ? `argument ${issue.path.join('.')}: ` : ''}${issue.message}`
      : '';
    return { ok: false, error: { code: 'invalid_request', message: `${channel}: ${detail}` } };
  }
  try {
    const handler = handlers[channel] as (args: unknown, origin: string) => unknown;
    const value = await handler(parsed.data, originOf(sender!.url)!);
    return { ok: true, value: value ?? null };
  } catch (error) {
    return { ok: false, error: toBridgeError(error) };
  }
}
