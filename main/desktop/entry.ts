// The file Electron starts (bundled to dist/desktop/main.mjs by build.ts). It only hands over to the
// TypeScript sources, run unbundled as `kino` runs them: the workspace forks its worker by the path
// of worker.ts, and the engine finds its fonts, native modules and esbuild next to its own files.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { app, dialog } from 'electron';

if (!process.features.typescript) {
  // Electron's Node strips types since it is Node >= 22.18; a build without it cannot run Kino.
  app.whenReady().then(() => {
    dialog.showErrorBox(
      'Kino could not start',
      `This Electron (Node ${process.versions.node}) cannot run TypeScript.`,
    );
    app.exit(1);
  });
} else {
  const main = pathToFileURL(path.join(app.getAppPath(), 'main', 'desktop', 'electron-main.ts')).href;
  // Awaited here, at the top level: Electron emits `ready` only once the entry has loaded, so
  // start() can still register the app:// scheme and the open-file handler in time.
  const { start } = (await import(main)) as { start: () => void };
  start();
}
