// Kino Studio's errors and rough edges, in real Chromium on a real `kino studio`: a composition that
// throws while loading shows its stack in the author's file (not the studio's bundle), blanks the
// preview, turns the revision chip red and keeps Review, Render and Capture off until it is fixed;
// a captured frame goes stale with the edit and can be captured again; review reports each sample as
// it goes; a count of no errors is not red; and the exported file plays in the Export pane.
// Screenshots land in build/studio-screenshots/polish-*.png.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canvasSample, hasChromium, warnIfNoChromium } from './chromium.ts';
import type { StudioSession } from './studio-harness.ts';
import { openStudioSession, studioShot, testIdAttribute } from './studio-harness.ts';

warnIfNoChromium('e2e/studio-polish.test.ts', 'the studio');

/**
 * The composition, fine or throwing from a function its default export calls. Its custom element is
 * slow where review draws it (Node, no document), so review's per-sample progress has time to show.
 * Each version differs (the revision is the content's hash). The 24 px line is a warning (text_too_small) and nothing is an error.
 */
function composition(headline: 'Polish' | 'boom' | 'Polished'): string {
  return `import { custom, scene, text, video } from 'kino';

function slowOutsideTheBrowser(): void {
  if (typeof document !== 'undefined') return;
  const until = Date.now() + 80;
  while (Date.now() < until) {}
}

function headline(): string {
  ${headline === 'boom' ? "throw new Error('boom');" : `return '${headline}';`}
}

export default () =>
  video({ title: 'Polish', fps: 30, aspect: 'reels', background: '#f8fafc' }, [
    scene({ duration: '1s' }, [
      text(headline(), { y: 0.4, size: 120, color: '#0f172a' }),
      text('Terms and conditions apply', { y: 0.7, size: 24, color: '#334155' }),
      custom({ width: 8, height: 8 }, () => slowOutsideTheBrowser()),
    ]),
  ]);
`;
}

const THROW_LINE =
  composition('boom')
    .split('\n')
    .findIndex((line) => line.includes("new Error('boom')")) + 1;

const attribute = testIdAttribute;
const shot = studioShot;

async function revisionChange(page: Page, before: string | null): Promise<void> {
  await page.waitForFunction(
    (previous) =>
      document.querySelector('[data-testid="revision"]')?.getAttribute('data-revision') !== previous,
    before,
    { timeout: 30_000 },
  );
}

describe.skipIf(!hasChromium)('Kino Studio: readable errors and the panes’ rough edges', () => {
  let session: StudioSession;
  let page: Page;
  let file: string;

  beforeAll(async () => {
    session = await openStudioSession('compositions/polish.ts', (root) =>
      writeFileSync(join(root, 'compositions', 'polish.ts'), composition('Polish')),
    );
    ({ page } = session);
    file = join(session.project, 'compositions', 'polish.ts');
  });

  afterAll(async () => {
    await session?.close();
  });

  it('plays the composition and captures a frame of it', async () => {
    await page.goto(session.studio.url);
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    await page.click('[data-testid="capture-frame"]');
    await page.waitForSelector('[data-testid="captured-frame"][data-stale="false"] img', { timeout: 60_000 });
    expect(await attribute(page, 'revision', 'data-state')).toBe('ok');
  });

  it('a composition that throws while loading: its own file and line, a blank stage, everything off', async () => {
    const revision = await attribute(page, 'revision', 'data-revision');
    writeFileSync(file, composition('boom'));
    await revisionChange(page, revision);
    const panel = page.locator('[data-testid="runtime-error"][data-phase="load"]');
    await panel.waitFor({ timeout: 60_000 });

    expect(await page.textContent('[data-testid="runtime-error-message"]')).toContain('Error: boom');
    const stack = (await page.textContent('[data-testid="runtime-error-stack"]')) ?? '';
    expect(stack).toContain(`compositions/polish.ts:${THROW_LINE}:`);
    expect(stack).toMatch(/in Kino/);
    expect(stack).not.toMatch(/index-[\w-]+\.js|https?:\/\//);

    // The old build does not play on under the error: paused, the canvas cleared.
    expect(await page.getAttribute('[data-testid="play-pause"]', 'aria-label')).toBe('Play');
    const pixels = await canvasSample(page, '[data-testid="preview-canvas"]');
    expect(pixels.every((value) => value === 0)).toBe(true);

    const chip = page.locator('[data-testid="revision"]');
    expect(await chip.getAttribute('data-state')).toBe('broken');
    expect(await chip.getAttribute('class')).toContain('err');
    expect(await chip.textContent()).toContain('does not load');
    for (const id of ['topbar-review', 'topbar-render', 'capture-frame', 'run-review']) {
      const button = page.locator(`[data-testid="${id}"]`);
      expect(await button.isDisabled(), id).toBe(true);
      expect(await button.getAttribute('title'), id).toMatch(/fails to load/);
    }

    // The captured frame is from before the edit: marked stale, its recapture off while broken.
    const thumb = page.locator('[data-testid="captured-frame"]').first();
    expect(await thumb.getAttribute('data-stale')).toBe('true');
    expect(await thumb.locator('[data-testid="recapture"]').isDisabled()).toBe(true);

    // The frame in the author's file moves the editor to its line, as a compile error's does.
    await page.locator('[data-testid="stack-frame-link"]').first().click();
    await page.waitForFunction(
      (line) => document.querySelector('.monaco-editor .active-line-number')?.textContent === String(line),
      THROW_LINE,
    );
    await shot(page, 'polish-load-error');
  });

  it('fixing it clears the error and turns Review and Render back on; the stale frame recaptures', async () => {
    const revision = await attribute(page, 'revision', 'data-revision');
    writeFileSync(file, composition('Polished'));
    await revisionChange(page, revision);
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    expect(await page.locator('[data-testid="runtime-error"]').count()).toBe(0);
    // It was playing when it broke: the fixed build plays on.
    await page.waitForSelector('[data-testid="play-pause"][aria-label="Pause"]');
    await page.waitForSelector('[data-testid="revision"][data-state="ok"]');
    expect(await page.locator('[data-testid="topbar-review"]').isDisabled()).toBe(false);
    expect(await page.locator('[data-testid="topbar-render"]').isDisabled()).toBe(false);

    const thumb = page.locator('[data-testid="captured-frame"]').first();
    expect(await thumb.getAttribute('data-stale')).toBe('true');
    await shot(page, 'polish-stale-frame');
    await thumb.locator('[data-testid="recapture"]').click();
    await page.waitForSelector('[data-testid="captured-frame"][data-stale="false"] img', { timeout: 60_000 });
    expect(await page.locator('[data-testid="captured-frame"]').count()).toBe(1);
  });

  it('review counts its samples as it draws them, and a count of no errors is not red', async () => {
    await page.click('[data-testid="tab-review"]');
    // Every count the progress bar shows, recorded in the page as it changes.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { reviewCounts: string[] }).reviewCounts = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[data-testid="review-progress"]');
        const count = bar && `${bar.getAttribute('data-done')}/${bar.getAttribute('data-total')}`;
        if (count && seen.at(-1) !== count) seen.push(count);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await page.click('[data-testid="run-review"]');
    // A picture of the bar part way (or at the end, if the review outran this wait: no assertion here).
    await page.waitForFunction(
      () =>
        Number(document.querySelector('[data-testid="review-progress"]')?.getAttribute('data-done')) > 0 ||
        document.querySelector('[data-testid="review-summary"]') !== null,
      undefined,
      { timeout: 120_000 },
    );
    await shot(page, 'polish-review-progress');
    await page.waitForSelector('[data-testid="review-summary"]', { timeout: 120_000 });
    const counts = await page.evaluate(() => (window as unknown as { reviewCounts: string[] }).reviewCounts);
    const between = counts.filter((count) => {
      const [done, total] = count.split('/').map(Number) as [number, number];
      return done > 0 && done < total;
    });
    expect(between, `counts seen: ${counts.join(', ')}`).not.toEqual([]);

    const errors = page.locator('[data-testid="count-errors"]');
    expect(await errors.getAttribute('data-count')).toBe('0');
    expect(await errors.getAttribute('class')).not.toMatch(/\berror\b/);
    const warnings = page.locator('[data-testid="count-warnings"]');
    expect(Number(await warnings.getAttribute('data-count'))).toBeGreaterThan(0);
    expect(await warnings.getAttribute('class')).toMatch(/\bwarning\b/);
    await shot(page, 'polish-review');
  });

  it('plays the exported file in the Export pane, served by the workspace', async () => {
    await page.click('[data-testid="tab-export"]');
    await page.selectOption('[data-testid="export-quality"]', 'draft');
    await page.click('[data-testid="render"]');
    await page.waitForSelector('[data-testid="receipt"][data-verified="true"]', { timeout: 180_000 });
    const video = page.locator('[data-testid="export-video"]');
    expect(await video.getAttribute('src')).toMatch(/^\/studio\/exports\/[0-9a-f]+\/polish-[\w.-]+\.mp4$/);
    await page.waitForFunction(
      () => {
        const element = document.querySelector('[data-testid="export-video"]') as HTMLVideoElement | null;
        return element !== null && element.readyState >= 1 && element.duration > 0;
      },
      undefined,
      { timeout: 30_000 },
    );
    const duration = await video.evaluate((element: HTMLVideoElement) => element.duration);
    expect(duration).toBeCloseTo(1, 0);
    // The whole path is kept (wrapped between folders), for a person and the clipboard.
    const path = ((await page.textContent('[data-testid="receipt-path"]')) ?? '').trim();
    expect(await page.getAttribute('[data-testid="receipt-path"]', 'title')).toBe(path);
    await shot(page, 'polish-export-player');
    expect(session.pageErrors).toEqual([]);
  });
});
