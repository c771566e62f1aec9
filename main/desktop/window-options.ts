// The main window's options, hardened per Electron's security checklist: the page gets no Node, a
// separate JavaScript world for the preload, the OS sandbox, and no <webview>.
import type { BrowserWindowConstructorOptions } from 'electron';

export function mainWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    width: 1440,
    height: 900,
    minWidth: 960,
    minHeight: 600,
    title: 'Kino',
    show: false,
    backgroundColor: '#101014',
    webPreferences: {
      preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}
