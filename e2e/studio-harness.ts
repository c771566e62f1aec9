// What every studio browser test needs: a temp copy of the examples project, `kino studio` as a real
// process (its printed link), Chromium with a page that records page errors, and screenshots that
// land in build/studio-screenshots/ for a person to look at.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { studioUiDir } from '../main/studio/build-ui.ts';
import { launchChromium } from './chromium.ts';
import { KINO_BIN, REPO_ROOT } from './cli-helpers.ts';

export const STUDIO_SHOTS = join(REPO_ROOT, 'build', 'studio-screenshots');

/** A temp copy of the examples project (kino.json, assets, compositions, specs). */
export function tempStudioProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'kino-studio-e2e-'));
  cpSync(join(REPO_ROOT, 'examples', 'kino.json'), join(root, 'kino.json'));
  for (const folder of ['assets', 'compositions', 'specs']) {
    cpSync(join(REPO_ROOT, 'examples', folder), join(root, folder), { recursive: true });
  }
  return root;
}

export interface StudioProcess {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far. */
  output(): string;
}

export function startStudio(file: string, dataDir: string, extraArgs: string[] = []): Promise<StudioProcess> {
  const child = spawn(
    process.execPath,
    [KINO_BIN, 'studio', file, '--no-open', '--data-dir', dataDir, ...extraArgs],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`kino studio printed no link:\n${out}`)), 60_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/studio\/#token=\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1]!, output: () => out });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`kino studio exited (${code}):\n${out}`)));
  });
}

export async function stopStudio(studio: StudioProcess | undefined): Promise<void> {
  if (!studio) return;
  studio.child.kill('SIGTERM');
  await new Promise((resolve) =>
    studio.child.exitCode !== null ? resolve(undefined) : studio.child.once('exit', resolve),
  );
}

export interface StudioSession {
  project: string;
  dataDir: string;
  studio: StudioProcess;
  browser: Browser;
  page: Page;
  /** Uncaught errors of the page, for a test to assert there were none. */
  pageErrors: string[];
  close(): Promise<void>;
}

/**
 * Builds the UI when stale, copies the examples project (then `prepare(project)` may add files),
 * starts `kino studio` on `file` (relative to the project) and opens a 1440×900 Chromium page (not
 * yet navigated: `page.goto(session.studio.url)`).
 */
export async function openStudioSession(
  file: string,
  prepare: (project: string) => void = () => {},
  extraArgs: string[] = [],
): Promise<StudioSession> {
  mkdirSync(STUDIO_SHOTS, { recursive: true });
  await studioUiDir();
  const project = tempStudioProject();
  prepare(project);
  const dataDir = mkdtempSync(join(tmpdir(), 'kino-studio-data-'));
  const studio = await startStudio(join(project, file), dataDir, extraArgs);
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  return {
    project,
    dataDir,
    studio,
    browser,
    page,
    pageErrors,
    async close() {
      await browser.close();
      await stopStudio(studio);
      rmSync(project, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const testIdAttribute = (page: Page, testId: string, name: string) =>
  page.getAttribute(`[data-testid="${testId}"]`, name);

export async function studioShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(STUDIO_SHOTS, `${name}.png`) });
}
