// The studio's first load, measured in real Chromium: the scripts a browser downloads from opening
// a composition until its preview is ready (the studio's own bundle, Monaco's workers, the preview
// page's scripts) stay within 8 MiB, and Monaco's TypeScript service (a 7 MB worker) loads only once
// the editor is focused, and then still type-checks. Prints the figures it measured. Then the host's
// rough edges: opening another composition from Home prints its new link, and `kino studio` attaches
// to a workspace started by `kino workspace` (by its descriptor, or by the file it serves).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launchChromium, warnIfNoChromium } from './chromium.ts';
import { KINO_BIN, runKino } from './cli-helpers.ts';
import type { StudioSession } from './studio-harness.ts';
import { openStudioSession, studioShot, tempStudioProject } from './studio-harness.ts';

warnIfNoChromium('e2e/studio-light.test.ts', "the studio's first-load budget");

const FIRST_LOAD_BUDGET = 8 * 1024 * 1024;
const TYPESCRIPT_WORKER = /\/ts\.worker-[\w-]+\.js$/;

/** Every script the page (its frames and workers included) downloads, with its size in bytes. */
class ScriptLog {
  readonly #sizes = new Map<string, number>();
  readonly #pending = new Set<Promise<void>>();
  #lastArrival = Date.now();

  constructor(page: Page) {
    page.on('response', (response) => this.#record(response));
  }

  #record(response: Response): void {
    const type = response.request().resourceType();
    const contentType = response.headers()['content-type'] ?? '';
    if (type !== 'script' && !/javascript/.test(contentType)) return;
    this.#lastArrival = Date.now();
    const read = response
      .body()
      .then((body) => void this.#sizes.set(response.url(), body.length))
      .catch(() => undefined) // a response the page dropped (navigated away)
      .finally(() => this.#pending.delete(read));
    this.#pending.add(read);
  }

  /** Waits until no script arrived for `quietMs` (and every body is read). */
  async settled(quietMs = 1500): Promise<void> {
    while (this.#pending.size > 0 || Date.now() - this.#lastArrival < quietMs) {
      await Promise.all(this.#pending);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  total(): number {
    return [...this.#sizes.values()].reduce((sum, size) => sum + size, 0);
  }

  urls(): string[] {
    return [...this.#sizes.keys()];
  }

  /** The largest files first, for the printed report. */
  report(): string {
    return [...this.#sizes]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 8)
      .map(([url, size]) => `    ${(size / 1024).toFixed(0).padStart(6)} KiB  ${new URL(url).pathname}`)
      .join('\n');
  }
}

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

async function openUntilPreviewReady(session: StudioSession): Promise<ScriptLog> {
  const scripts = new ScriptLog(session.page);
  await session.page.goto(session.studio.url);
  await session.page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
  await scripts.settled();
  return scripts;
}

describe.skipIf(!hasChromium)('Kino Studio first load (browser mode)', () => {
  let session: StudioSession;
  let page: Page;

  beforeAll(async () => {
    session = await openStudioSession('compositions/travel-reel.ts');
    ({ page } = session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('loads a composition with at most 8 MiB of scripts, without the TypeScript worker', async () => {
    const scripts = await openUntilPreviewReady(session);
    await page.waitForSelector('[data-testid="editor"] .monaco-editor', { timeout: 30_000 });
    await scripts.settled();
    const total = scripts.total();
    console.log(
      `studio first load (.ts composition, until the preview is ready): ${mib(total)} of scripts ` +
        `in ${scripts.urls().length} files\n${scripts.report()}`,
    );
    expect(scripts.urls().some((url) => TYPESCRIPT_WORKER.test(url))).toBe(false);
    expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
    // The source shows highlighted before TypeScript starts: keywords are coloured spans.
    const tokenColours = await page.$$eval(
      '[data-testid="editor"] .view-line span[class^="mtk"]',
      (spans) => new Set(spans.map((span) => span.className)).size,
    );
    expect(tokenColours).toBeGreaterThanOrEqual(3);
    expect(session.pageErrors).toEqual([]);
  });

  it('starts TypeScript when the editor is focused: the worker loads and a type error is underlined', async () => {
    const scripts = new ScriptLog(page);
    // At the line's start: the middle of a wide line would scroll the editor sideways.
    await page
      .locator('[data-testid="editor"] .view-line')
      .first()
      .click({ position: { x: 2, y: 2 } });
    await page.keyboard.press('Control+Home');
    await page.keyboard.type("const count: number = 'three';\n");
    const squiggle = page.locator('[data-testid="editor"] .squiggly-error');
    await squiggle.first().waitFor({ timeout: 60_000 });
    await scripts.settled(500);
    expect(scripts.urls().some((url) => TYPESCRIPT_WORKER.test(url))).toBe(true);
    // Completion from Kino's types: an element's methods are offered.
    await page.keyboard.type("text('hello').anim");
    await page.keyboard.press('Control+Space');
    await page.locator('.suggest-widget .monaco-list-row', { hasText: 'animate' }).first().waitFor({
      timeout: 30_000,
    });
    await studioShot(page, 'light-typescript-on-focus');
    await page.keyboard.press('Escape');
    expect(session.pageErrors).toEqual([]);
  });

  it('prints the new link when Home opens another composition (the old one stops with its workspace)', async () => {
    page.on('dialog', (dialog) => void dialog.accept()); // discard the edits typed above
    await page.click('button[title^="Home"]');
    await page.waitForSelector('[data-testid="welcome"]');
    await page.fill('input[aria-label="Composition path"]', 'compositions/brand-intro.ts');
    const before = new URL(page.url()).origin;
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.origin !== before && url.hash === '', { timeout: 60_000 });
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    const printed = /Kino Studio switched to (\S+)\n\s+(http:\/\/127\.0\.0\.1:\d+\/studio\/#token=\S+)/.exec(
      session.studio.output(),
    );
    expect(printed?.[1]).toMatch(/brand-intro\.ts$/);
    expect(new URL(printed![2]!).origin).toBe(new URL(page.url()).origin);
  });
});

describe.skipIf(!hasChromium)('Kino Studio first load of a JSON spec (browser mode)', () => {
  it('loads a spec with at most 8 MiB of scripts', async (context) => {
    let session: StudioSession;
    try {
      session = await openStudioSession('specs/quote-card.json');
    } catch (error) {
      // Specs open in the studio with issue 32's inputs part; until then `kino studio` refuses them.
      if (!/not a composition/.test(String(error))) throw error;
      console.warn(
        '*** studio-light: this studio opens no JSON spec yet: the spec budget is not measured ***',
      );
      return context.skip();
    }
    try {
      const scripts = await openUntilPreviewReady(session);
      const total = scripts.total();
      console.log(`studio first load (JSON spec): ${mib(total)} of scripts\n${scripts.report()}`);
      expect(scripts.urls().some((url) => TYPESCRIPT_WORKER.test(url))).toBe(false);
      expect(total).toBeLessThanOrEqual(FIRST_LOAD_BUDGET);
    } finally {
      await session.close();
    }
  });
});

/** `kino workspace <file>` as a user starts it, until it prints its descriptor. */
function startCliWorkspace(
  file: string,
): Promise<{ child: ChildProcess; descriptor: string; output: string }> {
  const child = spawn(process.execPath, [KINO_BIN, 'workspace', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const descriptor = /descriptor (\S+)/.exec(output)?.[1];
      if (descriptor && output.includes('Try: kino session')) resolve({ child, descriptor, output });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`kino workspace exited (${code}):\n${output}`)));
  });
}

const LINK = /(http:\/\/127\.0\.0\.1:\d+\/studio\/#token=\S+)/;

describe.skipIf(!hasChromium)('kino studio attaches to a workspace started by kino workspace', () => {
  let project: string;
  let workspace: Awaited<ReturnType<typeof startCliWorkspace>> | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    project = tempStudioProject();
    workspace = await startCliWorkspace(join(project, 'compositions', 'stats-recap.ts'));
  });

  afterAll(async () => {
    await browser?.close();
    if (workspace && workspace.child.exitCode === null) {
      workspace.child.kill('SIGTERM');
      await new Promise((resolve) => workspace!.child.once('exit', resolve));
    }
    rmSync(project, { recursive: true, force: true });
  });

  it("opens the workspace's own studio by its descriptor, and by the file it serves", async () => {
    expect(workspace!.output).toContain(`kino studio --attach ${workspace!.descriptor}`);
    const attached = await runKino(['studio', '--attach', workspace!.descriptor, '--no-open']);
    expect(attached.code).toBe(0);
    const link = LINK.exec(attached.stdout)?.[1];
    expect(link).toBeDefined();
    // The same workspace, with its own endpoint: nothing else was started.
    const endpoint = /\n {2}(http:\/\/127\.0\.0\.1:\d+)\n/.exec(workspace!.output)![1]!;
    expect(new URL(link!).origin).toBe(endpoint);
    // `kino studio <file>` while that workspace runs opens the same studio instead of failing on its lock.
    const byFile = await runKino(['studio', join(project, 'compositions', 'stats-recap.ts'), '--no-open']);
    expect(byFile.code).toBe(0);
    expect(LINK.exec(byFile.stdout)?.[1]).toBe(link);

    browser = await launchChromium();
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(link!);
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid="file-name"]')).toContain('stats-recap.ts');
    await studioShot(page, 'light-attached-workspace');
    expect(errors).toEqual([]);
  });

  it('says so when the workspace is gone', async () => {
    workspace!.child.kill('SIGTERM');
    await new Promise((resolve) => workspace!.child.once('exit', resolve));
    const attached = await runKino(['studio', '--attach', workspace!.descriptor, '--no-open']);
    expect(attached.code).not.toBe(0);
    expect(attached.stderr).toMatch(/names no running workspace/);
  });
});
