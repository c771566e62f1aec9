// Kino Studio end to end, in browser mode: `kino studio` as a real process on a temp copy of the
// examples project, driven in real Chromium (Debian's /usr/bin/chromium through playwright-core).
// It walks the path a user takes: open an example, watch it play, capture a frame, edit and save
// in Monaco, open a composition with a known problem, review it, inspect the finding's frame, export
// an mp4 (progress, then a receipt; the file is checked with ffprobe), and meet a compile error.
// Screenshots of every step land in build/studio-screenshots/.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { canvasSample, difference, hasChromium, warnIfNoChromium } from './chromium.ts';
import type { StudioSession } from './studio-harness.ts';
import { openStudioSession, studioShot, testIdAttribute } from './studio-harness.ts';

warnIfNoChromium('e2e/studio.test.ts', 'the studio');

/** A disclaimer at 24 px (text_too_small), and a ⏻ no font of the title's stack has (missing_glyph). */
const FINE_PRINT = `import { fadeIn, scene, text, video } from 'kino';

export default video({ title: 'Fine print', fps: 30, aspect: 'reels', background: '#0f172a' }, [
  scene({ duration: '2s' }, [
    text('Limited edition ⏻', { id: 'title', y: 0.4, size: 96 }),
    text('Terms and conditions apply', { id: 'disclaimer', y: 0.7, size: 24, color: '#e2e8f0' }).animate(fadeIn()),
  ]),
]);
`;

const attribute = testIdAttribute;
const shot = studioShot;

describe.skipIf(!hasChromium)('Kino Studio in Chromium (browser mode)', () => {
  let session: StudioSession;
  let page: Page;
  let project: string;

  beforeAll(async () => {
    session = await openStudioSession('compositions/travel-reel.ts', (root) =>
      writeFileSync(join(root, 'compositions', 'fine-print.ts'), FINE_PRINT),
    );
    ({ page, project } = session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('opens an example: source, preview and revision, with the token gone from the address bar', async () => {
    await page.goto(session.studio.url);
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    expect(page.url()).not.toContain('token');
    expect(await page.textContent('[data-testid="file-name"]')).toContain('travel-reel.ts');
    await page.waitForSelector('[data-testid="editor"] .monaco-editor', { timeout: 30_000 });
    // Monaco renders spaces as no-break spaces.
    expect(await page.textContent('[data-testid="editor"]')).toMatch(/from\s'kino'/);
    expect(await attribute(page, 'revision', 'data-revision')).toMatch(/^[0-9a-f]{16}$/);
    await shot(page, '01-open');
  });

  it('plays: the canvas changes over time and the frame counter moves', async () => {
    const frameBefore = Number(await attribute(page, 'stage', 'data-frame'));
    const before = await canvasSample(page, '[data-testid="preview-canvas"]');
    await page.waitForTimeout(1200);
    const after = await canvasSample(page, '[data-testid="preview-canvas"]');
    expect(Number(await attribute(page, 'stage', 'data-frame'))).not.toBe(frameBefore);
    expect(difference(before, after)).toBeGreaterThan(0.5);
    // Space pauses; → steps exactly one frame.
    await page.locator('[data-testid="stage"]').click();
    await page.keyboard.press('Space');
    const paused = Number(await attribute(page, 'stage', 'data-frame'));
    await page.waitForTimeout(300);
    expect(Number(await attribute(page, 'stage', 'data-frame'))).toBe(paused);
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      (frame) =>
        document.querySelector('[data-testid="stage"]')?.getAttribute('data-frame') === String(frame),
      paused + 1,
    );
    await shot(page, '02-playing');
  });

  it('captures a frame through the workspace and shows the Skia PNG in the strip', async () => {
    await page.click('[data-testid="capture-frame"]');
    const thumb = page.locator('[data-testid="captured-frame"] img').first();
    await thumb.waitFor({ timeout: 60_000 });
    await page.waitForFunction(() => {
      const img = document.querySelector('[data-testid="captured-frame"] img') as HTMLImageElement | null;
      return img !== null && img.complete && img.naturalWidth > 0;
    });
    expect(await thumb.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([
      1080, 1920,
    ]);
    expect(Number(await page.getAttribute('[data-testid="captured-frame"]', 'data-frame'))).toBe(
      Number(await attribute(page, 'stage', 'data-frame')),
    );
    await shot(page, '03-captured');
  });

  it('saves an edit made in Monaco: the file changes, the revision changes, the preview reloads', async () => {
    const revision = await attribute(page, 'revision', 'data-revision');
    const build = await attribute(page, 'stage', 'data-build');
    await page.locator('[data-testid="editor"] .view-line').first().click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.type('// Edited in Kino Studio\n');
    await page.waitForSelector('[data-testid="dirty"]');
    await page.keyboard.press('Control+S');
    await page.waitForFunction(
      (before) => {
        const chip = document.querySelector('[data-testid="revision"]');
        return (
          chip?.getAttribute('data-revision') !== before && !document.querySelector('[data-testid="dirty"]')
        );
      },
      revision,
      { timeout: 30_000 },
    );
    await page.waitForFunction(
      (before) => {
        const stage = document.querySelector('[data-testid="stage"]');
        return stage?.getAttribute('data-build') !== before && stage?.getAttribute('data-status') === 'ready';
      },
      build,
      { timeout: 30_000 },
    );
    expect(readFileSync(join(project, 'compositions', 'travel-reel.ts'), 'utf8')).toMatch(
      /^\/\/ Edited in Kino Studio\n/,
    );
    await shot(page, '04-saved');
  });

  it('opens another composition from Home, reviews it and inspects a finding at its frame', async () => {
    await page.click('button[title^="Home"]');
    await page.waitForSelector('[data-testid="welcome"]');
    await shot(page, '05-welcome');
    await page.fill('input[aria-label="Composition path"]', 'compositions/fine-print.ts');
    // The new composition gets its own workspace: another origin, the token again in a fragment.
    const before = new URL(page.url()).origin;
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.origin !== before && url.hash === '', { timeout: 60_000 });
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid="file-name"]')).toContain('fine-print.ts');

    await page.click('[data-testid="run-review"]');
    const finding = page.locator('[data-testid="finding"][data-code="text_too_small"]');
    await finding.waitFor({ timeout: 90_000 });
    expect(await finding.textContent()).toMatch(/raise size/i);
    // The studio shows the same review as the session CLI and MCP: the glyph no font has, too.
    const glyph = page.locator('[data-testid="finding"][data-code="missing_glyph"]');
    expect(await glyph.textContent()).toContain('"⏻" (U+23FB)');
    await shot(page, '06-review');

    const button = finding.locator('[data-testid="inspect-frame"]');
    const target = Number(/Inspect frame (\d+)/.exec((await button.textContent()) ?? '')![1]);
    await button.click();
    await page.waitForSelector('[data-testid="inspect-image"]', { timeout: 60_000 });
    expect(Number(await attribute(page, 'stage', 'data-frame'))).toBe(target);
    expect(Number(await attribute(page, 'inspect-pane', 'data-frame'))).toBe(target);
    const elements = await page.locator('[data-testid="inspect-element"]').allTextContents();
    expect(elements.join('\n')).toContain('Terms and conditions apply');
    await shot(page, '07-inspect');
  });

  it('exports an mp4: a progress bar, then a verified receipt for a file ffprobe agrees with', async () => {
    await page.click('[data-testid="tab-export"]');
    await page.selectOption('[data-testid="export-quality"]', 'draft');
    // Every stage the progress bar shows, as it shows it: a short draft render spends well under
    // a second in 'rendering', less than a waiting selector may poll.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { stagesSeen: string[] }).stagesSeen = seen;
      new MutationObserver(() => {
        const bar = document.querySelector('[data-testid="render-progress"]');
        const stage = bar?.getAttribute('data-stage');
        const frames = bar?.querySelector('[data-testid="render-frames"]')?.textContent ?? '';
        if (stage && seen.at(-1) !== `${stage} ${frames}`) seen.push(`${stage} ${frames}`);
      }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await page.click('[data-testid="render"]');
    await page.waitForSelector('[data-testid="render-progress"]', { timeout: 30_000 });
    await shot(page, '08-rendering');
    await page.waitForSelector('[data-testid="receipt"][data-verified="true"]', { timeout: 180_000 });
    const stages = await page.evaluate(() => (window as unknown as { stagesSeen: string[] }).stagesSeen);
    // The bar went through the render's frames before the encode finished and ffprobe verified it.
    const rendering = stages.findIndex((seen) => /^rendering \d+ \/ 60 frames/.test(seen));
    expect(rendering, stages.join(' → ')).toBeGreaterThanOrEqual(0);
    expect(
      stages.slice(rendering).some((seen) => seen.startsWith('verifying')),
      stages.join(' → '),
    ).toBe(true);
    const path = ((await page.textContent('[data-testid="receipt-path"]')) ?? '').trim();
    const sha256 = ((await page.textContent('[data-testid="receipt-sha256"]')) ?? '').trim();
    expect(path).toMatch(/\.mp4$/);
    const bytes = readFileSync(path);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha256);
    const probe = await probeFile(path);
    // Draft renders at half size.
    expect(probe.video?.width).toBe(540);
    expect(probe.video?.height).toBe(960);
    expect(probe.durationSeconds).toBeCloseTo(2, 0);
    expect(await page.textContent('[data-testid="receipt-duration"]')).toContain('60 frames');
    await page.click('[data-testid="copy-path"]');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(path);
    await shot(page, '09-receipt');
  });

  it('shows a compile error with its line, and the line link moves the editor there', async () => {
    await page.locator('[data-testid="editor"] .view-line').first().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nconst broken = ;\n');
    await page.keyboard.press('Control+S');
    const link = page.locator('[data-testid="compile-error-line"]').first();
    await link.waitFor({ timeout: 30_000 });
    const where = (await link.textContent()) ?? '';
    const lineCount = FINE_PRINT.split('\n').length;
    expect(where).toMatch(new RegExp(`fine-print\\.ts:${lineCount + 1}:`));
    expect(await page.textContent('[data-testid="compile-error"]')).toMatch(/Unexpected|expected/i);
    await link.click();
    await page.waitForFunction(
      (line) => document.querySelector('.monaco-editor .active-line-number')?.textContent === String(line),
      lineCount + 1,
    );
    await shot(page, '10-compile-error');
    expect(session.pageErrors).toEqual([]);
  });
});
