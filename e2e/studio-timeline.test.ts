// The studio's Timeline, end to end in Chromium through a real `kino studio`: one row per scene,
// element and overlay; a bar click draws the element's box and moves the editor; in/out points keep
// playback inside them; 2× plays about twice as fast; J/K/L; the shortcuts after the ruler or the
// scrubber took the focus; review findings as markers that seek. Then a JSON spec's rows and pointers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, warnIfNoChromium } from './chromium.ts';
import type { StudioSession } from './studio-harness.ts';
import { openStudioSession, studioShot, testIdAttribute } from './studio-harness.ts';

warnIfNoChromium('e2e/studio-timeline.test.ts', 'the studio timeline');

/** Three scenes (five elements) and an overlay; the 24 px line is a text_too_small finding. */
const THREE_SCENES = `import { fadeIn, rect, scene, text, video } from 'kino';

export default video(
  { title: 'Three scenes', fps: 30, aspect: 'reels', background: '#0f172a' },
  [
    scene({ id: 'opening', duration: '2s' }, [
      rect({ id: 'panel', width: 700, height: 500, fill: '#1d4ed8' }),
      text('Hello timeline', { id: 'headline', y: 0.25, size: 96 }),
    ]),
    scene({ id: 'middle', duration: '2s' }, [text('Second scene', { id: 'second', size: 90 })]),
    scene({ id: 'closing', duration: '2s' }, [
      text('Thanks for watching', { id: 'thanks', y: 0.4, size: 90 }),
      text('Terms and conditions apply', { id: 'fine-print', y: 0.7, size: 24 }).animate(fadeIn()),
    ]),
  ],
  { overlays: [text('LIVE', { id: 'badge', x: 0.85, y: 0.08, size: 48 })] },
);
`;
const ROW_LABELS = [
  'opening',
  'panel',
  'headline',
  'middle',
  'second',
  'closing',
  'thanks',
  'fine-print',
  'badge',
];

const frameOf = async (page: Page) => Number(await testIdAttribute(page, 'stage', 'data-frame'));
const isPlaying = async (page: Page) =>
  (await page.getAttribute('[data-testid="play-pause"]', 'aria-label')) === 'Pause';

async function pause(page: Page): Promise<void> {
  if (await isPlaying(page)) await page.click('[data-testid="play-pause"]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid="play-pause"]')?.getAttribute('aria-label') === 'Play',
  );
}

/** Clicks the ruler at `frame` (the ruler is the whole video wide at zoom 1). */
async function clickRulerAt(page: Page, frame: number, total: number): Promise<void> {
  const ruler = page.locator('[data-testid="timeline-ruler"]');
  const box = (await ruler.boundingBox())!;
  await ruler.click({ position: { x: ((frame + 0.5) / total) * box.width, y: box.height / 2 } });
}

/** The frames shown over `ms`, read in the page on every animation frame. */
function framesOver(page: Page, ms: number): Promise<{ frames: number[]; elapsed: number }> {
  return page.evaluate(
    (duration) =>
      new Promise<{ frames: number[]; elapsed: number }>((resolve) => {
        const frames: number[] = [];
        const start = performance.now();
        const read = () => {
          frames.push(Number(document.querySelector('[data-testid="stage"]')?.getAttribute('data-frame')));
          if (performance.now() - start < duration) requestAnimationFrame(read);
          else resolve({ frames, elapsed: performance.now() - start });
        };
        read();
      }),
    ms,
  );
}

/** The line number Monaco marks as the cursor's. */
const activeLine = async (page: Page) =>
  Number(await page.locator('[data-testid="editor"] .active-line-number').first().textContent());

describe.skipIf(!hasChromium)('Studio timeline: a .ts composition', () => {
  let session: StudioSession;
  let page: Page;
  let total = 0;

  beforeAll(async () => {
    session = await openStudioSession('compositions/three-scenes.ts', (root) =>
      writeFileSync(join(root, 'compositions', 'three-scenes.ts'), THREE_SCENES),
    );
    page = session.page;
    await page.goto(session.studio.url);
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    await page.waitForSelector('[data-testid="editor"] .monaco-editor', { timeout: 30_000 });
    total = Number((await page.textContent('[data-testid="frame-counter"]'))!.split('/')[1]);
  });

  afterAll(async () => {
    await session?.close();
  });

  it('lists one row per scene, element and overlay, with bars at their frames', async () => {
    const timeline = page.getByRole('region', { name: 'Timeline' });
    const rows = timeline.getByRole('grid').locator('[data-testid="timeline-row"]');
    await expect.poll(() => rows.count()).toBe(ROW_LABELS.length);
    expect(await rows.getByRole('rowheader').allTextContents()).toEqual(
      ROW_LABELS.map((label) => (label === 'badge' ? 'overlaybadge' : label)),
    );
    expect(total).toBe(180);
    // The second scene's bar starts a third of the way along the ruler.
    const ruler = (await page.locator('[data-testid="timeline-ruler"]').boundingBox())!;
    const middle = (await page.locator('[data-key="s1"] [data-testid="timeline-bar"]').boundingBox())!;
    expect((middle.x - ruler.x) / ruler.width).toBeCloseTo(1 / 3, 1);
    expect(session.pageErrors).toEqual([]);
  });

  it('zooms with its buttons and Ctrl+wheel, and fits again', async () => {
    const bar = page.locator('[data-key="s1"] [data-testid="timeline-bar"]');
    const width = async () => (await bar.boundingBox())!.width;
    const fitted = await width();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect((await width()) / fitted).toBeCloseTo(2.25, 1);
    const body = (await page.locator('[data-testid="timeline-body"]').boundingBox())!;
    await page.mouse.move(body.x + body.width / 2, body.y + body.height / 2);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -100);
    await page.keyboard.up('Control');
    await expect.poll(async () => (await width()) / fitted).toBeGreaterThan(3);
    await studioShot(page, 'timeline-zoom');
    await page.getByRole('button', { name: 'Fit the video' }).click();
    expect(await width()).toBeCloseTo(fitted, 0);
  });

  it('selects an element from its bar: its box on the preview, the editor on its line', async () => {
    await pause(page);
    await page.click('[data-key="s0/e1"] [data-testid="timeline-bar"]');
    const box = page.locator('[data-testid="selection-box"] rect');
    await box.waitFor();
    const canvas = (await page.locator('[data-testid="preview-canvas"]').boundingBox())!;
    const drawn = (await box.boundingBox())!;
    // The headline: centred, in the upper part of the frame, far narrower than it.
    expect(drawn.width).toBeGreaterThan(20);
    expect(drawn.width).toBeLessThan(canvas.width);
    expect(drawn.y + drawn.height / 2).toBeLessThan(canvas.y + canvas.height / 2);
    const line = THREE_SCENES.split('\n').findIndex((text) => text.includes("'Hello timeline'")) + 1;
    await expect.poll(() => activeLine(page)).toBe(line);
    expect(await page.getAttribute('[data-key="s0/e1"]', 'aria-selected')).toBe('true');
    await studioShot(page, 'timeline-select');
    // Another element: the box moves with it.
    await page.click('[data-key="o/e0"] [data-testid="timeline-bar"]');
    await expect.poll(async () => (await box.boundingBox())!.x).toBeGreaterThan(drawn.x + drawn.width / 2);
  });

  it('keeps playback between the in and out points (I, O), and Alt+X clears them', async () => {
    await pause(page);
    await clickRulerAt(page, 40, total);
    const inPoint = await frameOf(page);
    await page.keyboard.press('i');
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowRight');
    const outPoint = await frameOf(page);
    expect(outPoint).toBe(inPoint + 30);
    await page.keyboard.press('o');
    expect(await page.textContent('[data-testid="timeline-marks"]')).toBe(`${inPoint}–${outPoint}`);
    await page.keyboard.press('Space');
    const { frames } = await framesOver(page, 1600); // longer than the 1 s range: it loops
    expect(Math.min(...frames)).toBeGreaterThanOrEqual(inPoint);
    expect(Math.max(...frames)).toBeLessThanOrEqual(outPoint);
    expect(new Set(frames).size).toBeGreaterThan(5);
    await studioShot(page, 'timeline-in-out');
    await page.keyboard.press('Alt+x');
    expect(await page.textContent('[data-testid="timeline-marks"]')).toBe('');
    await expect.poll(() => page.locator('[data-testid="timeline-range"]').count()).toBe(0);
  });

  it('plays about twice as fast at 2×', async () => {
    const rateAt = async (speed: string) => {
      await page.getByRole('group', { name: 'Speed' }).getByRole('button', { name: speed }).click();
      await pause(page);
      await clickRulerAt(page, 0, total);
      await page.keyboard.press('Space');
      const { frames, elapsed } = await framesOver(page, 700);
      await pause(page);
      return (frames.at(-1)! - frames[0]!) / elapsed;
    };
    const normal = await rateAt('1×');
    const double = await rateAt('2×');
    expect(normal).toBeGreaterThan(0);
    expect(double / normal).toBeGreaterThan(1.4);
    expect(double / normal).toBeLessThan(2.8);
    await page.getByRole('group', { name: 'Speed' }).getByRole('button', { name: '1×' }).click();
  });

  it('shuttles with J, K and L', async () => {
    await pause(page);
    await clickRulerAt(page, 120, total);
    await page.keyboard.press('l');
    expect(await isPlaying(page)).toBe(true);
    expect(await testIdAttribute(page, 'playback-rate', 'data-rate')).toBe('1');
    await page.keyboard.press('l');
    expect(await testIdAttribute(page, 'playback-rate', 'data-rate')).toBe('2');
    await page.keyboard.press('k');
    expect(await isPlaying(page)).toBe(false);
    const stopped = await frameOf(page);
    await page.keyboard.press('j');
    expect(await testIdAttribute(page, 'playback-rate', 'data-rate')).toBe('-1');
    const { frames } = await framesOver(page, 500);
    await page.keyboard.press('k');
    expect(frames.at(-1)!).toBeLessThan(stopped);
    expect(await testIdAttribute(page, 'playback-rate', 'data-rate')).toBe('1');
  });

  it('keeps Space and Shift+→ working after the ruler or the scrubber took the focus', async () => {
    await pause(page);
    await clickRulerAt(page, 10, total);
    await page.keyboard.press('Space');
    expect(await isPlaying(page)).toBe(true);
    await page.keyboard.press('Space');
    expect(await isPlaying(page)).toBe(false);
    await page.locator('[data-testid="scrubber"]').click();
    await pause(page);
    const before = await frameOf(page);
    await page.keyboard.press('Shift+ArrowRight');
    expect(await frameOf(page)).toBe(before + 10);
    await page.keyboard.press('Space');
    expect(await isPlaying(page)).toBe(true);
    // Space on the focused play button plays or pauses once, not twice.
    await page.locator('[data-testid="play-pause"]').focus();
    await page.keyboard.press('Space');
    expect(await isPlaying(page)).toBe(false);
  });

  it('marks review findings on their rows; a marker seeks to its frame', async () => {
    await page.click('[data-testid="tab-review"]');
    await page.click('[data-testid="run-review"]');
    const marker = page.locator(
      '[data-key="s2/e1"] [data-testid="finding-marker"][data-code="text_too_small"]',
    );
    await marker.waitFor({ timeout: 90_000 });
    await pause(page);
    await clickRulerAt(page, 5, total);
    const target = Number(/at frame (\d+)/.exec((await marker.getAttribute('aria-label'))!)![1]);
    await marker.click();
    expect(await frameOf(page)).toBe(target);
    expect(target).toBeGreaterThanOrEqual(120);
    await studioShot(page, 'timeline-findings');
    expect(session.pageErrors).toEqual([]);
  });

  it('follows an edit: a saved element gets its row', async () => {
    const edited = THREE_SCENES.replace(
      "[text('Second scene', { id: 'second', size: 90 })]",
      "[text('Second scene', { id: 'second', size: 90 }), text('Added', { id: 'added', y: 0.7 })]",
    );
    expect(edited).not.toBe(THREE_SCENES);
    writeFileSync(join(session.project, 'compositions', 'three-scenes.ts'), edited);
    const added = page.locator('[data-key="s1/e1"]');
    await added.waitFor({ timeout: 30_000 });
    expect(await added.getByRole('rowheader').textContent()).toBe('added');
    expect(await page.locator('[data-testid="timeline-row"]').count()).toBe(ROW_LABELS.length + 1);
  });
});

describe.skipIf(!hasChromium)('Studio timeline: a JSON spec', () => {
  let session: StudioSession | undefined;
  let refused: string | undefined;
  const specFile = 'specs/launch.json';

  beforeAll(async () => {
    try {
      session = await openStudioSession(specFile);
    } catch (error) {
      // This branch's studio may open .ts only (the inputs part opens specs): say so, do not fail.
      if (!/is not a composition/.test(String(error))) throw error;
      refused = String(error)
        .split('\n')
        .find((line) => line.includes('not a composition'));
    }
  });

  afterAll(async () => {
    await session?.close();
  });

  it("lists the spec's rows and moves the editor to an element's JSON", async (context) => {
    if (refused) {
      console.warn(`skipped: kino studio refused ${specFile}: ${refused}`);
      context.skip();
    }
    const { page, project } = session!;
    await page.goto(session!.studio.url);
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    await page.waitForSelector('[data-testid="editor"] .monaco-editor', { timeout: 30_000 });
    const text = readFileSync(join(project, specFile), 'utf8');
    const spec = JSON.parse(text) as { scenes: { elements: unknown[] }[]; overlays?: unknown[] };
    const count =
      spec.scenes.length +
      spec.scenes.reduce((sum, scene) => sum + scene.elements.length, 0) +
      (spec.overlays?.length ?? 0);
    const rows = page.getByRole('region', { name: 'Timeline' }).locator('[data-testid="timeline-row"]');
    await expect.poll(() => rows.count()).toBe(count);
    // The last scene's first element: its object starts on the line after that scene's "elements".
    const last = spec.scenes.length - 1;
    await page.click(`[data-key="s${last}/e0"] [data-testid="timeline-bar"]`);
    const lines = text.split('\n');
    const elementsLines = lines.flatMap((line, index) => (line.includes('"elements"') ? [index + 1] : []));
    const expected = elementsLines[last]! + (lines[elementsLines[last]! - 1]!.trim().endsWith('[') ? 1 : 0);
    await expect.poll(() => activeLine(page)).toBe(expected);
    await page.locator('[data-testid="selection-box"] rect').waitFor();
    await studioShot(page, 'timeline-json');
    expect(session!.pageErrors).toEqual([]);
  });
});
