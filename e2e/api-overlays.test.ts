// A spec with overlays through POST /v1/renders, as a client sends it: the rendered file keeps the
// overlay still while the scenes slide under it (read back from the decoded video), and the job's
// review names an overlay by its key, a strict render by its pointer (/overlays/<n>).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { ffmpegPath } from '../main/ffmpeg/binaries.ts';
import type { components } from './api-client/openapi.d.ts';
import { readAnswer, useApiServers, waitForRender } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

const run = promisify(execFile);
const servers = useApiServers();
const work = mkdtempSync(path.join(tmpdir(), 'kino-overlays-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// Two square seconds at 10 fps joined by a 0.4 s slide (frames 6–9 of 16); 540×540 at draft.
const SPEC: components['schemas']['VideoSpec'] = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 10,
  scenes: [
    {
      duration: '1s',
      background: '#1e3a8a',
      elements: [{ type: 'rect', width: 120, height: 120, x: 0.3, y: 0.5, fill: '#ffffff' }],
    },
    {
      duration: '1s',
      background: '#14532d',
      transition: { type: 'slide', direction: 'right', duration: '0.4s' },
      elements: [{ type: 'rect', width: 120, height: 120, x: 0.3, y: 0.5, fill: '#ffffff' }],
    },
  ],
  overlays: [
    { type: 'rect', width: 100, height: 100, x: 0.85, y: 0.15, box: 'frame', fill: '#ff0000' },
    {
      type: 'captions',
      srt: '1\n00:00:00,000 --> 00:00:01,600\nOne caption over both scenes\n',
      size: 44,
    },
    { type: 'text', text: 'terms and conditions apply', size: 12, y: 0.9 },
  ],
};

const SIZE = 540;

async function render(api: RunningApi, options: Record<string, unknown>) {
  const created = await readAnswer(
    await api.api('/v1/renders', {
      method: 'POST',
      json: { spec: SPEC, options: { quality: 'draft', ...options } },
    }),
  );
  expect(created.status, created.text).toBe(202);
  return waitForRender(api, created.body.id as string);
}

/** Every decoded picture of the file as RGB. */
async function pictures(file: string): Promise<Buffer[]> {
  const { stdout } = await run(
    ffmpegPath(),
    ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  const size = SIZE * SIZE * 3;
  return Array.from({ length: stdout.length / size }, (_, i) => stdout.subarray(i * size, (i + 1) * size));
}

/** The bounds [x0, y0, x1, y1] of the picture's pixels `matches` picks, in rows [top, bottom). */
function bounds(
  picture: Buffer,
  matches: (r: number, g: number, b: number) => boolean,
  rows = { top: 0, bottom: SIZE },
): number[] {
  const found = [Infinity, Infinity, -Infinity, -Infinity];
  for (let y = rows.top; y < rows.bottom; y++) {
    for (let x = 0; x < SIZE; x++) {
      const i = (y * SIZE + x) * 3;
      if (!matches(picture[i]!, picture[i + 1]!, picture[i + 2]!)) continue;
      found[0] = Math.min(found[0]!, x);
      found[1] = Math.min(found[1]!, y);
      found[2] = Math.max(found[2]!, x);
      found[3] = Math.max(found[3]!, y);
    }
  }
  return found;
}

const red = (r: number, g: number, b: number) => r > 200 && g < 70 && b < 70;
const white = (r: number, g: number, b: number) => r > 220 && g > 220 && b > 220;

describe('overlays over the render API', () => {
  it(
    'renders the overlay in place through the slide, and reviews overlays by key',
    { timeout: 180_000 },
    async () => {
      const api = await servers.start();
      const job = await render(api, { review: true });
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      expect(job.video).toMatchObject({ width: SIZE, height: SIZE });

      const response = await fetch(job.video!.downloadUrl);
      expect(response.status).toBe(200);
      const file = path.join(work, 'overlays.mp4');
      writeFileSync(file, new Uint8Array(await response.arrayBuffer()));
      const decoded = await pictures(file);
      expect(decoded).toHaveLength(16);

      // The red square: 100 design pixels is 50 px here, 0.85 across and 0.15 down the frame.
      const before = bounds(decoded[3]!, red);
      expect(before[2]! - before[0]! + 1).toBeGreaterThanOrEqual(49);
      expect(before[2]! - before[0]! + 1).toBeLessThanOrEqual(52);
      expect((before[0]! + before[2]!) / 2).toBeCloseTo(0.85 * SIZE, -1);
      for (const frame of [6, 7, 8, 9, 13]) {
        const at = bounds(decoded[frame]!, red);
        at.forEach((edge, i) => expect(Math.abs(edge - before[i]!), `frame ${frame}`).toBeLessThanOrEqual(1));
      }
      // The scenes' white squares (in the middle band, above the captions) do move: the slide is there.
      const band = { top: 0.4 * SIZE, bottom: 0.6 * SIZE };
      const markers = [6, 7, 8].map((frame) => bounds(decoded[frame]!, white, band)[0]);
      expect(new Set(markers).size).toBe(3);

      const small = job.review!.findings.find((finding) => finding.code === 'text_too_small');
      expect(small).toMatchObject({ element: 'o/e2', severity: 'warning' });
    },
  );

  it("fails a strict render at the overlay's pointer", { timeout: 180_000 }, async () => {
    const api = await servers.start();
    const job = await render(api, { strictQuality: true });
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({ code: 'quality_gate' });
    expect(job.error!.errors).toContainEqual({
      pointer: '/overlays/2',
      message: expect.stringMatching(/^text_too_small: .* Fix: raise size/),
    });
  });
});
