// Sound in the studio's preview, in real Chromium through `kino studio`: it starts muted with no
// AudioContext at all; a real click unmutes it and the Web Audio graph plays; pause, play and seek
// stop and restart the voices; and the preview's mix, rendered offline by the same scheduling code,
// has the same loudness over time as the exported mp4's soundtrack decoded by ffmpeg. `kino preview`
// (the standalone page) plays the same sound behind its own Unmute button.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../main/ffmpeg/binaries.ts';
import { startPreviewServer } from '../main/preview/server.ts';
import { rmsEnvelope } from '../renderer/player/audio-envelope.ts';
import { hasChromium, warnIfNoChromium } from './chromium.ts';
import { KINO_BIN } from './cli-helpers.ts';
import type { StudioSession } from './studio-harness.ts';
import { STUDIO_SHOTS, openStudioSession, studioShot, testIdAttribute } from './studio-harness.ts';

warnIfNoChromium('e2e/studio-sound.test.ts', 'the preview sound');

/**
 * 3 s: music that fades in over 0.5 s and out over the last 1 s, a whoosh at 1.2 s that fades
 * out over 0.3 s, and a clip's own sound from 2 s (1 s into its file). Peaks stay under the export limiter's ceiling (0.95), so both mixes are plain sums.
 */
const SOUNDTRACK = `import { clip, music, scene, sfx, text, video } from 'kino';

export default video(
  { title: 'Soundtrack', fps: 30, aspect: 'landscape', background: '#0f172a' },
  [
    scene({ duration: '3s', audio: [sfx('asset:whoosh.wav', { start: '1.2s', volume: 0.7, fadeOut: '0.3s' })] }, [
      text('Listen', { size: 120 }),
      clip('asset:clip-waves.mp4', { width: '40%', height: '40%', y: 0.75, start: '2s', trim: { start: '1s' }, volume: 1.2 }),
    ]),
  ],
  { audio: [music('asset:music-loop.m4a', { volume: 0.6, fadeIn: '0.5s', fadeOut: '1s' })] },
);
`;

const WINDOW_SECONDS = 0.1;
/**
 * How far the preview's RMS may stand from the export's in a window: 5% of it plus 0.002. The
 * export's AAC (draft quality) is lossy; measured, the two differ by at most 1.4% (0.0014 at 0.09).
 */
const tolerance = (exported: number) => 0.05 * exported + 0.002;
const SECONDS = 3;

/** The exported file's soundtrack as the RMS envelope of rmsEnvelope, decoded by ffmpeg at 48 kHz. */
function exportedEnvelope(file: string): number[] {
  const decoded = spawnSync(
    ffmpegPath(),
    ['-v', 'error', '-i', file, '-vn', '-ac', '2', '-ar', '48000', '-f', 'f32le', 'pipe:1'],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  if (decoded.status !== 0) throw new Error(`ffmpeg could not decode ${file}: ${decoded.stderr.toString()}`);
  const bytes = decoded.stdout;
  const interleaved = new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const frames = interleaved.length / 2;
  const left = new Float32Array(frames);
  const right = new Float32Array(frames);
  for (let i = 0; i < frames; i++) {
    left[i] = interleaved[2 * i]!;
    right[i] = interleaved[2 * i + 1]!;
  }
  return rmsEnvelope([left, right], 48_000, WINDOW_SECONDS);
}

const soundAttribute = (page: Page, name: string) => testIdAttribute(page, 'mute', name);

/** Both envelopes as lines on one chart, for a person to look at (build/studio-screenshots). */
async function chartEnvelopes(session: StudioSession, preview: number[], exported: number[]): Promise<void> {
  const [width, height, top] = [720, 240, Math.max(...preview, ...exported)];
  const line = (values: number[], colour: string, dash = '') =>
    `<polyline fill="none" stroke="${colour}" stroke-width="2" stroke-dasharray="${dash}" points="${values
      .map((v, i) => `${(i / (values.length - 1)) * width},${height - (v / top) * (height - 10)}`)
      .join(' ')}"/>`;
  const chart = await session.browser.newPage({ viewport: { width: width + 40, height: height + 70 } });
  await chart.setContent(
    `<body style="margin:0;padding:16px 20px;background:#111318;color:#cbd5e1;font:13px sans-serif">
      <div>RMS per 100 ms over 3 s: <b style="color:#a78bfa">preview (Web Audio, offline)</b> and
      <b style="color:#34d399">export (mp4 decoded by ffmpeg)</b></div>
      <svg width="${width}" height="${height}" style="margin-top:8px">${line(exported, '#34d399')}${line(preview, '#a78bfa', '6 4')}</svg>
    </body>`,
  );
  await chart.screenshot({ path: join(STUDIO_SHOTS, 'sound-03-mix-vs-export.png') });
  await chart.close();
}

interface SoundStart {
  from: number;
  voices: number;
}

/**
 * Records every (re)start of the voices from now on, with where it started and how many voices,
 * as the mute button's data attributes show them: a later resync (a busy machine's audio clock
 * lagging) cannot hide the start a test waits for.
 */
async function recordStarts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const button = document.querySelector('[data-testid="mute"]') as HTMLElement;
    const log: { from: number; voices: number }[] = [];
    (window as unknown as { soundStarts: typeof log }).soundStarts = log;
    new MutationObserver(() =>
      log.push({ from: Number(button.dataset.from), voices: Number(button.dataset.voices) }),
    ).observe(button, { attributeFilter: ['data-starts'] });
  });
}

/**
 * Waits for a recorded start from output second `from` (a loop back to 0 on a slow machine may be
 * recorded around it) and returns it.
 */
async function startFrom(page: Page, from: number): Promise<SoundStart> {
  const found = await page.waitForFunction(
    (seconds) =>
      (window as unknown as { soundStarts: SoundStart[] }).soundStarts.find(
        (start) => start.from === seconds,
      ),
    from,
  );
  return (await found.jsonValue()) as SoundStart;
}

/** Forgets the starts recorded so far. */
async function clearStarts(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { soundStarts: unknown[] }).soundStarts.splice(0));
}

async function waitForSound(page: Page, predicate: string): Promise<void> {
  await page.waitForFunction((body) => {
    const button = document.querySelector('[data-testid="mute"]') as HTMLElement | null;
    if (!button) return false;
    return new Function('d', `return ${body}`)(button.dataset) as boolean;
  }, predicate);
}

describe.skipIf(!hasChromium)('Kino Studio: sound in the preview', () => {
  let session: StudioSession;
  let page: Page;

  beforeAll(async () => {
    session = await openStudioSession('compositions/soundtrack.ts', (root) =>
      writeFileSync(join(root, 'compositions', 'soundtrack.ts'), SOUNDTRACK),
    );
    page = session.page;
    // Counts AudioContexts the page makes: none may exist before the user unmutes.
    await page.addInitScript(() => {
      const Native = window.AudioContext;
      const counted = window as unknown as { audioContexts: number };
      counted.audioContexts = 0;
      window.AudioContext = class extends Native {
        constructor(options?: AudioContextOptions) {
          super(options);
          counted.audioContexts++;
        }
      };
    });
  });

  afterAll(async () => {
    await session?.close();
  });

  it('starts muted: the button offers Unmute, and no AudioContext exists', async () => {
    await page.goto(session.studio.url);
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    const button = page.getByRole('button', { name: 'Unmute' });
    await expect(button.getAttribute('aria-pressed')).resolves.toBe('true');
    expect(await soundAttribute(page, 'data-sound')).toBe('muted');
    expect(await soundAttribute(page, 'data-voices')).toBe('0');
    expect(await page.evaluate(() => (window as unknown as { audioContexts: number }).audioContexts)).toBe(0);
    expect(await testIdAttribute(page, 'play-pause', 'aria-label')).toBe('Pause'); // it is playing
  });

  it('a click unmutes: the AudioContext runs and the graph plays sound', async () => {
    await page.getByRole('button', { name: 'Unmute' }).click();
    await expect(page.getByRole('button', { name: 'Mute' }).getAttribute('aria-pressed')).resolves.toBe(
      'false',
    );
    await waitForSound(page, "d.sound === 'running' && Number(d.voices) > 0");
    expect(await page.evaluate(() => (window as unknown as { audioContexts: number }).audioContexts)).toBe(1);
    // The live output carries signal (the analyser after the master gain sees it).
    await page.waitForFunction(
      () =>
        (window as unknown as { __kinoPreviewSound: { level(): number } }).__kinoPreviewSound.level() > 0.01,
      undefined,
      { timeout: 10_000 },
    );
    await studioShot(page, 'sound-01-unmuted');
  });

  it('pause stops every voice; play and seek start them again from the playhead', async () => {
    await page.getByTestId('play-pause').click();
    await waitForSound(page, 'Number(d.voices) === 0');
    await recordStarts(page);
    // Seeking while paused starts nothing.
    await page.getByTestId('scrubber').fill('45');
    expect(await soundAttribute(page, 'data-voices')).toBe('0');
    await page.getByTestId('play-pause').click();
    // Frame 45 at 30 fps: the voices start 1.5 s in, the music, the whoosh and the clip all waiting
    // or sounding.
    expect(await startFrom(page, 1.5)).toEqual({ from: 1.5, voices: 3 });
    // A seek while playing restarts the voices at the new moment.
    await clearStarts(page);
    await page.getByTestId('scrubber').fill('15');
    expect(await startFrom(page, 0.5)).toEqual({ from: 0.5, voices: 3 });
    // Muting stops the voices and keeps the choice.
    await page.getByRole('button', { name: 'Mute' }).click();
    await waitForSound(page, "d.sound === 'muted' && Number(d.voices) === 0");
    await studioShot(page, 'sound-02-muted');
  });

  it('remembers the choice for the session: unmuted stays unmuted after a reload', async () => {
    await page.getByRole('button', { name: 'Unmute' }).click();
    await page.reload();
    await page.waitForSelector('[data-testid="stage"][data-status="ready"]', { timeout: 60_000 });
    await expect(page.getByRole('button', { name: 'Mute' }).getAttribute('aria-pressed')).resolves.toBe(
      'false',
    );
    // Opened without a gesture, the browser may hold it until the next click or key.
    expect(['running', 'starting', 'suspended']).toContain(await soundAttribute(page, 'data-sound'));
  });

  it('`kino preview` plays the same sound, muted until its Unmute button is clicked', async () => {
    const server = await startPreviewServer({ file: join(session.project, 'compositions', 'soundtrack.ts') });
    const preview = await session.browser.newPage({ viewport: { width: 900, height: 700 } });
    try {
      await preview.goto(server.url);
      await preview.waitForSelector('body[data-status="ready"]', { timeout: 60_000 });
      const button = preview.locator('#mute');
      expect(await button.textContent()).toBe('Unmute');
      expect(await button.getAttribute('aria-pressed')).toBe('true');
      expect(await button.getAttribute('data-sound')).toBe('muted');
      await preview.getByRole('button', { name: 'Unmute' }).click();
      await preview.waitForFunction(() => {
        const mute = document.getElementById('mute')!;
        return mute.dataset.sound === 'running' && Number(mute.dataset.voices) > 0;
      });
      expect(await button.getAttribute('aria-pressed')).toBe('false');
      await preview.click('#play-pause');
      await preview.waitForFunction(() => document.getElementById('mute')!.dataset.voices === '0');
    } finally {
      await preview.close();
      await server.close();
    }
  });

  it("the preview's mix has the loudness of the export's over time", async () => {
    const preview = await page.evaluate(
      ([seconds, windowSeconds]) =>
        (
          window as unknown as {
            __kinoPreviewSound: { envelope(f: number, s: number, w: number): Promise<number[]> };
          }
        ).__kinoPreviewSound.envelope(0, seconds, windowSeconds),
      [SECONDS, WINDOW_SECONDS] as const,
    );
    const output = join(session.project, 'soundtrack.mp4');
    const render = spawnSync(
      process.execPath,
      [
        KINO_BIN,
        'render',
        join(session.project, 'compositions', 'soundtrack.ts'),
        '-o',
        output,
        '-q',
        'draft',
        '--no-receipt',
      ],
      { cwd: session.project, encoding: 'utf8' },
    );
    expect(render.status, render.stderr).toBe(0);
    const exported = exportedEnvelope(output);
    expect(preview).toHaveLength(SECONDS / WINDOW_SECONDS);
    expect(exported.length).toBeGreaterThanOrEqual(preview.length);
    console.log(
      'RMS per 100 ms, preview vs export:\n' +
        preview
          .map((p, i) => `${(i * WINDOW_SECONDS).toFixed(1)}s ${p.toFixed(4)} ${exported[i]!.toFixed(4)}`)
          .join('\n'),
    );
    await chartEnvelopes(session, preview, exported);
    // Not silence against silence: the music, the whoosh and the clip are there, faded in and out.
    expect(Math.max(...exported)).toBeGreaterThan(0.05);
    expect(exported[0]).toBeLessThan(exported[5]! / 2);
    for (let i = 0; i < preview.length; i++) {
      expect(
        Math.abs(preview[i]! - exported[i]!),
        `window at ${(i * WINDOW_SECONDS).toFixed(1)} s`,
      ).toBeLessThan(tolerance(exported[i]!));
    }
  });
});
