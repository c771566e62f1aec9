import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { IPC } from '../../preload/channels.ts';
import { StudioInputError } from '../studio/errors.ts';
import { toBridgeError } from './bridge-error.ts';
import type { DesktopController } from './controller.ts';
import { desktopHandlers, dispatchIpc } from './ipc-dispatch.ts';

const UI = 'http://127.0.0.1:43117';
const page = { url: `${UI}/studio/`, isMainFrame: true };

function handlers() {
  const controller = {
    connection: vi.fn((origin: string) =>
      origin === UI ? { endpoint: UI, token: 't', source: '/a.ts' } : null,
    ),
    openFile: vi.fn(async (file?: string) => ({ kind: 'opened', source: file })),
    revealInFolder: vi.fn(),
    startAuthoring: vi.fn(async () => null),
    authoringJob: vi.fn(),
    updateSettings: vi.fn(async () => {
      throw new StudioInputError('invalid_settings', 'unknown setting: theme');
    }),
  };
  return { controller, handlers: desktopHandlers(controller as unknown as DesktopController, '1.2.3') };
}

describe('dispatchIpc', () => {
  it('passes an authoring request as its schema allows, and nothing else', async () => {
    const { handlers: h, controller } = handlers();
    const generate = { kind: 'generate', prompt: 'A title card' };
    expect(await dispatchIpc(h, IPC.startAuthoring, page, [generate], UI)).toEqual({ ok: true, value: null });
    expect(controller.startAuthoring).toHaveBeenCalledWith(generate);
    for (const request of [
      { kind: 'generate', prompt: '' },
      { kind: 'generate', prompt: 'ok', folder: '/etc' },
      { kind: 'edit', spec: [], change: 'red' },
      { kind: 'publish', prompt: 'ok' },
    ]) {
      const reply = await dispatchIpc(h, IPC.startAuthoring, page, [request], UI);
      expect(reply, JSON.stringify(request)).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    }
    expect(controller.startAuthoring).toHaveBeenCalledTimes(1);
    const badId = await dispatchIpc(h, IPC.authoringJob, page, ['../x'], UI);
    expect(badId).toMatchObject({ ok: false, error: { code: 'invalid_request' } });
    expect(controller.authoringJob).not.toHaveBeenCalled();
  });

  it('answers the UI page', async () => {
    const { handlers: h } = handlers();
    expect(await dispatchIpc(h, IPC.appVersion, page, [], UI)).toEqual({ ok: true, value: '1.2.3' });
    expect(await dispatchIpc(h, IPC.connection, page, [], UI)).toEqual({
      ok: true,
      value: { endpoint: UI, token: 't', source: '/a.ts' },
    });
  });

  it('refuses other origins and subframes before looking at the arguments', async () => {
    const { handlers: h, controller } = handlers();
    for (const sender of [
      { url: 'http://127.0.0.1:1/studio/', isMainFrame: true },
      { url: `${UI}/studio/`, isMainFrame: false },
      { url: 'https://example.com/', isMainFrame: true },
      undefined,
    ]) {
      const reply = await dispatchIpc(h, IPC.openFile, sender, [path.resolve('/x.ts')], UI);
      expect(reply).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(controller.openFile).not.toHaveBeenCalled();
  });

  it('refuses bad arguments with one line naming the channel', async () => {
    const { handlers: h, controller } = handlers();
    const reply = await dispatchIpc(h, IPC.openFile, page, ['relative.ts'], UI);
    expect(reply).toEqual({
      ok: false,
      error: { code: 'invalid_request', message: 'kino:open-file: argument 0: expected an absolute path' },
    });
    expect(await dispatchIpc(h, IPC.revealInFolder, page, [], UI)).toMatchObject({ ok: false });
    expect(controller.openFile).not.toHaveBeenCalled();
  });

  it('turns a thrown error into a coded, one-line reply', async () => {
    const { handlers: h } = handlers();
    expect(await dispatchIpc(h, IPC.updateSettings, page, [{ theme: 'dark' }], UI)).toEqual({
      ok: false,
      error: { code: 'invalid_settings', message: 'unknown setting: theme' },
    });
  });

  it('answers null for calls without a result', async () => {
    const { handlers: h, controller } = handlers();
    const file = path.resolve('/work/out.mp4');
    expect(await dispatchIpc(h, IPC.revealInFolder, page, [file], UI)).toEqual({ ok: true, value: null });
    expect(controller.revealInFolder).toHaveBeenCalledWith(file);
  });
});

describe('toBridgeError', () => {
  it('keeps studio codes and the first line only', () => {
    expect(toBridgeError(new StudioInputError('target_exists', 'x exists'))).toEqual({
      code: 'target_exists',
      message: 'x exists',
    });
    expect(toBridgeError(new Error('first\n    at stack'))).toEqual({ code: 'failed', message: 'first' });
    expect(toBridgeError(Object.assign(new Error('no such file'), { code: 'ENOENT' }))).toEqual({
      code: 'failed',
      message: 'no such file',
    });
    expect(toBridgeError('plain')).toEqual({ code: 'failed', message: 'plain' });
    expect(toBridgeError(new Error('x'.repeat(1000))).message.length).toBe(400);
  });
});
