// Real Chromium for the browser tests: Debian's /usr/bin/chromium through playwright-core (never a
// downloaded browser), and the canvas sampling the preview and studio tests compare pictures with.
import { existsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/** Warns loudly when Chromium is missing, so a skipped browser suite is never silent. */
export function warnIfNoChromium(suite: string, what: string): void {
  if (hasChromium) return;
  console.warn(
    `\n*** SKIPPING ${suite}: ${CHROMIUM} is missing, so ${what} cannot run in a real browser. ***\n` +
      '*** Install Debian chromium (apt-get install chromium) to run it. ***\n',
  );
}

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    // Without the background-networking switches Chromium keeps dialing out of a closed network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** The canvas shrunk to 27×48 RGBA: enough to tell pictures apart, small enough to compare. */
export function canvasSample(page: Page, selector: string): Promise<number[]> {
  return page.$eval(selector, (source) => {
    const small = document.createElement('canvas');
    small.width = 27;
    small.height = 48;
    const ctx = small.getContext('2d')!;
    ctx.drawImage(source as HTMLCanvasElement, 0, 0, small.width, small.height);
    return [...ctx.getImageData(0, 0, small.width, small.height).data];
  });
}

/** Mean absolute difference per channel between two samples, 0–255. */
export function difference(a: number[], b: number[]): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}
