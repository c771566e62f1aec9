// Kino Studio as the desktop app: the real Electron shell (main/desktop, the sandboxed preload and
// the built UI), driven by Playwright's _electron. It opens a composition given on the command line,
// checks the desktop bridge is there, captures a frame and exports an mp4 that ffprobe agrees with.
//
// It needs an Electron binary: ELECTRON_PATH, else the one the `electron` package downloaded
// (node_modules/electron/path.txt names it). npm runs no install scripts on these machines and no
// binary may be downloaded, so there it skips, loudly, saying which binary it looked for.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ElectronApplication, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDesktop } from '../main/desktop/build.ts';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { studioUiDir } from '../main/studio/build-ui.ts';
import { REPO_ROOT } from './cli-helpers.ts';
import { STUDIO_SHOTS, tempStudioProject } from './studio-harness.ts';

export type ElectronBinary = { path: string } | { missing: string };

/**
 * Where the Electron binary is, computed without running the `electron` package's index.js (which
 * downloads one when it is missing).
 */
export function findElectron(env: NodeJS.ProcessEnv = process.env, root: string = REPO_ROOT): ElectronBinary {
  if (env.ELECTRON_PATH) {
    return existsSync(env.ELECTRON_PATH)
      ? { path: env.ELECTRON_PATH }
      : { missing: `ELECTRON_PATH is ${env.ELECTRON_PATH}, which does not exist` };
  }
  const pkg = join(root, 'node_modules', 'electron');
  if (!existsSync(join(pkg, 'package.json'))) {
    return { missing: 'the electron package is not installed and ELECTRON_PATH is not set' };
  }
  const pathFile = join(pkg, 'path.txt');
  if (!existsSync(pathFile)) {
    return {
      missing:
        'node_modules/electron has no binary (its install script, which downloads it, never ran): ' +
        'set ELECTRON_PATH to an Electron executable, or run `node node_modules/electron/install.js` ' +
        'where downloads are allowed',
    };
  }
  const binary = join(pkg, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(binary)
    ? { path: binary }
    : { missing: `${binary} (from node_modules/electron/path.txt) is missing` };
}

const electron = findElectron();
if ('missing' in electron) {
  console.warn(
    `\n*** SKIPPING e2e/studio-electron.test.ts: no Electron binary, so the desktop app cannot run. ***\n` +
      `*** ${electron.missing}. ***\n`,
  );
}

describe.skipIf('missing' in electron)('Kino Studio in Electron (desktop mode)', () => {
  let app: ElectronApplication;
  let page: Page;
  let project: string;
  let configHome: string;

  beforeAll(async () => {
    // What `npm run desktop` builds first: the app serves dist/renderer and never builds at run time.
    await studioUiDir();
    await buildDesktop();
    project = tempStudioProject();
    // userData (settings, recent files, the embedded API's data) in a folder of the test's own.
    configHome = mkdtempSync(join(tmpdir(), 'kino-electron-config-'));
    const { _electron } = await import('playwright-core');
    app = await _electron.launch({
      executablePath: (electron as { path: string }).path,
      // `electron <app folder> <file>`; as root, Chromium's sandbox cannot start.
      args: [
        ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
        `--user-data-dir=${join(configHome, 'user-data')}`,
        REPO_ROOT,
        join(project, 'compositions', 'travel-reel.ts'),
      ],
      cwd: project,
      env: { ...process.env, XDG_CONFIG_HOME: configHome },
      timeout: 60_000,
    });
    page = await app.firstWindow({ timeout: 60_000 });
  });

  afterAll(async () => {
    await app?.close();
    if (project) rmSync(project, { recursive: true, force: true });
    if (configHome) rmSync(configHome, { recursive: true, force: true });
  });

  it('opens the composition named on the command line, with the desktop bridge', async () => {
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 90_000 });
    expect(await page.textContent('[data-testid="file-name"]')).toContain('travel-reel.ts');
    // The preload's bridge, not the browser mode's HTTP one.
    expect(await page.evaluate(() => typeof (window as { kinoDesktop?: unknown }).kinoDesktop)).toBe(
      'object',
    );
    await page.screenshot({ path: join(STUDIO_SHOTS, 'electron-01-open.png') });
  });

  it('captures a frame: the Skia PNG shows in the strip', async () => {
    await page.click('[data-testid="capture-frame"]');
    await page.waitForFunction(
      () => {
        const img = document.querySelector('[data-testid="captured-frame"] img') as HTMLImageElement | null;
        return img !== null && img.complete && img.naturalWidth > 0;
      },
      undefined,
      { timeout: 60_000 },
    );
  });

  it('exports an mp4 that ffprobe agrees with', async () => {
    await page.click('[data-testid="tab-export"]');
    await page.selectOption('[data-testid="export-quality"]', 'draft');
    await page.click('[data-testid="render"]');
    await page.waitForSelector('[data-testid="receipt"][data-verified="true"]', { timeout: 180_000 });
    const output = ((await page.textContent('[data-testid="receipt-path"]')) ?? '').trim();
    expect(output).toMatch(/\.mp4$/);
    const probe = await probeFile(output);
    expect(probe.video?.width).toBe(540); // draft: half of 1080×1920
    expect(probe.video?.height).toBe(960);
    await page.screenshot({ path: join(STUDIO_SHOTS, 'electron-02-exported.png') });
  });
});

describe('findElectron: where the desktop test looks for Electron', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'kino-electron-find-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('takes ELECTRON_PATH when it exists, and says so when it does not', () => {
    expect(findElectron({ ELECTRON_PATH: process.execPath }, root)).toEqual({ path: process.execPath });
    expect(findElectron({ ELECTRON_PATH: join(root, 'nope') }, root)).toEqual({
      missing: expect.stringContaining('does not exist'),
    });
  });

  it("reads the electron package's path.txt, never its downloading index.js", () => {
    expect(findElectron({}, root)).toEqual({ missing: expect.stringContaining('not installed') });
    const pkg = join(root, 'node_modules', 'electron');
    mkdirSync(join(pkg, 'dist'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"name":"electron"}');
    expect(findElectron({}, root)).toEqual({ missing: expect.stringContaining('ELECTRON_PATH') });
    writeFileSync(join(pkg, 'path.txt'), 'electron');
    expect(findElectron({}, root)).toEqual({ missing: expect.stringContaining('is missing') });
    writeFileSync(join(pkg, 'dist', 'electron'), '');
    expect(findElectron({}, root)).toEqual({ path: join(pkg, 'dist', 'electron') });
  });
});
