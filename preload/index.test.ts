import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { IpcReply } from './channels.ts';
import { IPC } from './channels.ts';
import type { DesktopBridge } from './index.ts';

// The real 'electron' package would try to find (download) the binary: stand in for the three
// renderer modules the preload uses.
const exposed = new Map<string, unknown>();
const replies = new Map<string, IpcReply>();
const invoke = vi.fn(
  async (channel: string, ..._args: unknown[]) => replies.get(channel) ?? { ok: true, value: null },
);
vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: { invoke },
  webUtils: { getPathForFile: (file: { name: string }) => `/dropped/${file.name}` },
}));

let bridge: DesktopBridge;
beforeAll(async () => {
  await import('./index.ts');
  bridge = exposed.get('kinoDesktop') as DesktopBridge;
});

describe('preload', () => {
  it('exposes exactly the StudioBridge calls plus pathForFile, as window.kinoDesktop', () => {
    expect([...exposed.keys()]).toEqual(['kinoDesktop']);
    expect(Object.keys(bridge).sort()).toEqual(
      [
        'mode',
        'appVersion',
        'connection',
        'openFile',
        'newFromExample',
        'listExamples',
        'recentFiles',
        'getSettings',
        'updateSettings',
        'revealInFolder',
        'authoringAvailability',
        'startAuthoring',
        'authoringJob',
        'authoringBriefing',
        'cancelAuthoring',
        'pathForFile',
      ].sort(),
    );
    expect(bridge.mode).toBe('desktop');
  });

  it('calls one channel per method, leaving out arguments not given', async () => {
    await bridge.openFile();
    await bridge.openFile('/work/a.ts');
    await bridge.newFromExample('brand-intro');
    await bridge.updateSettings({ apiEnabled: true });
    expect(invoke.mock.calls).toEqual([
      [IPC.openFile],
      [IPC.openFile, '/work/a.ts'],
      [IPC.newFromExample, 'brand-intro'],
      [IPC.updateSettings, { apiEnabled: true }],
    ]);
  });

  it('resolves to the value and rejects with an Error holding the message (and code)', async () => {
    replies.set(IPC.appVersion, { ok: true, value: '0.1.0' });
    replies.set(IPC.getSettings, { ok: false, error: { code: 'forbidden', message: 'no' } });
    expect(await bridge.appVersion()).toBe('0.1.0');
    const error = await bridge.getSettings().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ message: 'no', code: 'forbidden' });
  });

  it('gives the path of a dropped file', () => {
    expect(bridge.pathForFile({ name: 'intro.ts' } as File)).toBe('/dropped/intro.ts');
  });
});
