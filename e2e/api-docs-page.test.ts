// The API reference page (/v1/docs) in real Chromium: it renders the operations from local assets
// only, and its Content-Security-Policy blocks nothing the page itself needs (issue 12).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDataDir, startApi } from './api-server.ts';
import type { RunningApi } from './api-server.ts';
import { hasChromium, launchChromium, warnIfNoChromium } from './chromium.ts';

warnIfNoChromium('the API docs page test', 'the Swagger UI page');

describe.skipIf(!hasChromium)('/v1/docs in Chromium', () => {
  let api: RunningApi;
  let browser: Browser;

  beforeAll(async () => {
    [api, browser] = await Promise.all([startApi(), launchChromium()]);
  });
  afterAll(async () => {
    await browser?.close();
    if (api) {
      await api.stop();
      removeDataDir(api.dataDir);
    }
  });

  it('renders every operation with no CSP violation, console error or request elsewhere', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    const foreign: string[] = [];
    const origin = new URL(api.baseUrl).origin;
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content Security Policy/i.test(message.text()))
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.protocol.startsWith('http') && url.origin !== origin) foreign.push(request.url());
    });
    await page.goto(`${api.baseUrl}/v1/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const operations = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((n) => n.textContent));
    expect(operations).toEqual(
      expect.arrayContaining(['/v1/renders', '/v1/renders/{id}', '/v1/files/{id}/{kind}']),
    );
    // Let late styles and images settle, so a violation they cause is counted too.
    await page.waitForTimeout(500);
    expect(problems).toEqual([]);
    expect(foreign).toEqual([]);
    await page.close();
  });
});
