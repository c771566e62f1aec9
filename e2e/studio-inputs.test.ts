// Kino Studio opens every input, end to end in Chromium: a JSON template (`kino studio
// specs/quote-card.json`) in Monaco's JSON mode, drawn by the preview; its variables form changes the
// preview and the frames the workspace captures, and refuses a value with the API's words; a broken
// spec value is shown at its JSON line; Home lists specs and templates and opens a code template
// (stats-recap.ts), whose form works the same way.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canvasSample, difference, hasChromium, warnIfNoChromium } from './chromium.ts';
import type { StudioSession } from './studio-harness.ts';
import { openStudioSession, studioShot } from './studio-harness.ts';

warnIfNoChromium('e2e/studio-inputs.test.ts', 'the studio with JSON specs and templates');

const CANVAS = '[data-testid="preview-canvas"]';

/** Pixels of the newest captured frame's lower left (where the author's name is), drawn small. */
function newestCaptureSample(page: Page): Promise<number[]> {
  return page.$eval('[data-testid="captured-frame"] img', (image) => {
    const img = image as HTMLImageElement;
    const small = document.createElement('canvas');
    small.width = 120;
    small.height = 30;
    const ctx = small.getContext('2d')!;
    const { naturalWidth: w, naturalHeight: h } = img;
    ctx.drawImage(img, 0, h * 0.74, w * 0.7, h * 0.14, 0, 0, small.width, small.height);
    return [...ctx.getImageData(0, 0, small.width, small.height).data];
  });
}

async function captureFrame(page: Page): Promise<void> {
  const before = await page.locator('[data-testid="captured-frame"]').count();
  await page.click('[data-testid="capture-frame"]');
  await page.waitForFunction(
    (count) => {
      const images = document.querySelectorAll<HTMLImageElement>('[data-testid="captured-frame"] img');
      return images.length > count && images[0]!.complete && images[0]!.naturalWidth > 0;
    },
    before,
    { timeout: 60_000 },
  );
}

/** Pauses the preview on `frame` (the scrubber, as a user drags it). */
async function holdFrame(page: Page, frame: number): Promise<void> {
  if ((await page.getAttribute('[data-testid="play-pause"]', 'aria-label')) === 'Pause') {
    await page.click('[data-testid="play-pause"]');
  }
  await page.locator('[data-testid="scrubber"]').fill(String(frame));
  await page.waitForSelector(`[data-testid="stage"][data-frame="${frame}"]`);
}

/** Waits until the preview canvas differs from `before` (the player draws a new value). */
async function canvasChangesFrom(page: Page, before: number[]): Promise<number> {
  let changed = 0;
  await expect
    .poll(async () => (changed = difference(before, await canvasSample(page, CANVAS))), { timeout: 15_000 })
    .toBeGreaterThan(0.05);
  return changed;
}

describe.skipIf(!hasChromium)('Kino Studio opens JSON specs and templates', () => {
  let session: StudioSession;
  let page: Page;

  beforeAll(async () => {
    session = await openStudioSession('specs/quote-card.json');
    ({ page } = session);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('opens a JSON template: file name, Monaco in JSON mode, the preview drawing it', async () => {
    await page.goto(session.studio.url);
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    expect(await page.textContent('[data-testid="file-name"]')).toContain('quote-card.json');
    await page.waitForSelector('[data-testid="editor"] [data-mode-id="json"]', {
      timeout: 30_000,
    });
    expect(await page.textContent('[data-testid="editor"]')).toContain('"kinoSpec"');
    // The spec's JSON Schema is Monaco's: hovering a field shows its documentation.
    await page
      .locator('[data-testid="editor"] .view-line span', { hasText: /^"fps"$/ })
      .first()
      .hover();
    await page.waitForSelector('.monaco-hover:has-text("Frames per second")', { timeout: 30_000 });
    await studioShot(page, 'inputs-json-hover');
    await page.mouse.move(720, 400);
    await holdFrame(page, 150);
    // The photo, the quote and the name: far from a blank canvas.
    const sample = await canvasSample(page, CANVAS);
    const mean = sample.reduce((sum, value) => sum + value, 0) / sample.length;
    expect(
      difference(
        sample,
        sample.map(() => mean),
      ),
    ).toBeGreaterThan(10);
  });

  it('edits the author in the variables form: the preview and a captured frame change', async () => {
    await captureFrame(page);
    const capturedBefore = await newestCaptureSample(page);
    // A template opens with its form showing.
    await page.waitForSelector('[role="tab"][aria-selected="true"]:has-text("Variables")');
    for (const name of ['quote', 'author', 'role', 'accent', 'photo']) {
      await page.waitForSelector(`[data-testid="variable-${name}"]`);
    }
    expect(await page.textContent('[data-testid="variable-author"]')).toContain('Who said it.');
    expect(await page.inputValue('[data-testid="variable-input-author"]')).toBe('Edsger W. Dijkstra');
    // The photo field offers the project's images by their asset: sources.
    await page.waitForSelector('#variable-assets-photo option', { state: 'attached' });
    const photos = await page.$$eval('#variable-assets-photo option', (options) =>
      options.map((option) => (option as HTMLOptionElement).value),
    );
    expect(photos).toContain('asset:photo-mountains.jpg');
    expect(photos.every((src) => /^asset:.+\.(jpe?g|png|webp|gif|svg)$/i.test(src))).toBe(true);

    const before = await canvasSample(page, CANVAS);
    await page.fill('[data-testid="variable-input-author"]', 'Grace Hopper');
    await canvasChangesFrom(page, before);
    await studioShot(page, 'inputs-variables-form');

    await captureFrame(page);
    expect(difference(capturedBefore, await newestCaptureSample(page))).toBeGreaterThan(1);
  });

  it('refuses a value with the message the API gives, in the form and from the workspace', async () => {
    await page.fill('[data-testid="variable-input-author"]', 'x'.repeat(61));
    const message = 'variable "author" (string): must be at most 60 characters';
    expect(await page.textContent('[data-testid="variable-error-author"]')).toBe(message);
    await page.click('[data-testid="capture-frame"]');
    await page.waitForSelector(`.preview-pane .notice.err:has-text('${message}')`, { timeout: 30_000 });
    await studioShot(page, 'inputs-invalid-value');
    await page.getByRole('button', { name: 'Reset author' }).click();
    expect(await page.inputValue('[data-testid="variable-input-author"]')).toBe('Edsger W. Dijkstra');
  });

  it("saves the form as the spec's defaults: the file changes in place, the form shows them as defaults", async () => {
    const file = join(session.project, 'specs', 'quote-card.json');
    const before = readFileSync(file, 'utf8');
    await page.fill('[data-testid="variable-input-role"]', 'Rear admiral');
    await page.click('[data-testid="save-defaults"]');
    await expect.poll(() => readFileSync(file, 'utf8'), { timeout: 15_000 }).not.toBe(before);
    const after = readFileSync(file, 'utf8');
    const spec = JSON.parse(after) as { variables: { role: { default: string } } };
    expect(spec.variables.role.default).toBe('Rear admiral');
    // Only that value changed: the file keeps its own layout.
    expect(after).toBe(before.replace('"default": "Computer scientist"', '"default": "Rear admiral"'));
    // The saved build declares the new default, and the form holds no edit any more.
    await expect
      .poll(() => page.textContent('[data-testid="variable-role"]'), { timeout: 30_000 })
      .toContain('default "Rear admiral"');
    expect(await page.inputValue('[data-testid="variable-input-role"]')).toBe('Rear admiral');
    expect(await page.isDisabled('[data-testid="save-defaults"]')).toBe(true);
    // Put the file back for the tests after this one.
    writeFileSync(file, before);
    await expect
      .poll(() => page.textContent('[data-testid="variable-role"]'), { timeout: 30_000 })
      .toContain('default "Computer scientist"');
  });

  it('shows a broken spec value at its JSON line, in the banner and as a marker', async () => {
    const file = join(session.project, 'specs', 'quote-card.json');
    const text = readFileSync(file, 'utf8').replace('"size": 44,', '"size": "huge",');
    writeFileSync(file, text);
    const line = text.split('\n').findIndex((entry) => entry.includes('"size": "huge"')) + 1;
    const banner = page.locator('[data-testid="spec-error"]');
    await banner.waitFor({ timeout: 30_000 });
    expect(await banner.textContent()).toContain('/scenes/0/elements/3/size');
    expect(await page.textContent('[data-testid="spec-error-line"]')).toBe(`line ${line}`);
    await page.click('[data-testid="spec-error-line"]');
    // The editor (which reloads the file it did not change) shows that line, underlined.
    await expect
      .poll(() => page.textContent('[data-testid="editor"] .view-lines'), { timeout: 15_000 })
      .toMatch(/"size":\s"huge"/);
    await page.waitForSelector('[data-testid="editor"] .squiggly-error', { timeout: 15_000 });
    await studioShot(page, 'inputs-spec-error-line');
  });

  it('lists specs and templates on Home and opens a code template, whose form works too', async () => {
    await page.getByRole('button', { name: /^Home/ }).click();
    const inputs = page.locator('[data-testid="project-input"]');
    await inputs.first().waitFor();
    const kinds = Object.fromEntries(
      await inputs.evaluateAll((rows) =>
        rows.map((row) => [row.querySelector('.file-dir')?.textContent ?? '', row.getAttribute('data-kind')]),
      ),
    );
    expect(kinds).toMatchObject({
      'specs/quote-card.json': 'template',
      'specs/launch.json': 'spec',
      'compositions/stats-recap.ts': 'template',
      'compositions/travel-reel.ts': 'composition',
    });
    await studioShot(page, 'inputs-home');

    await page.click('[data-testid="project-input"]:has-text("compositions/stats-recap.ts")');
    await page.waitForFunction(() => document.title.startsWith('stats-recap.ts'), undefined, {
      timeout: 60_000,
    });
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    await holdFrame(page, 120);
    await page.getByRole('tab', { name: /Variables/ }).click();
    await page.waitForSelector('[data-testid="variable-accent"]');
    expect(await page.locator('.variable-field').count()).toBe(10);

    await page.fill('[data-testid="variable-input-users"]', '-5');
    expect(await page.textContent('[data-testid="variable-error-users"]')).toBe(
      'variable "users" (number): must be at least 0',
    );
    const before = await canvasSample(page, CANVAS);
    await page.fill('[data-testid="variable-input-accent"]', '#ef4444');
    await page.fill('[data-testid="variable-input-users"]', '7');
    await canvasChangesFrom(page, before);
    expect(session.pageErrors).toEqual([]);
  });
});
