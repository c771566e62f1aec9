import { describe, expect, it } from 'vitest';
import { mainWindowOptions } from './window-options.ts';

describe('mainWindowOptions', () => {
  it('isolates the page: context isolation and sandbox on, no Node, no webview', () => {
    const prefs = mainWindowOptions('/app/dist/desktop/preload.cjs').webPreferences!;
    expect(prefs).toMatchObject({
      preload: '/app/dist/desktop/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });

  it('does not turn a file dropped on the window into a navigation (the UI takes drops)', () => {
    expect(mainWindowOptions('/p').webPreferences?.navigateOnDragDrop).toBe(false);
  });
});
