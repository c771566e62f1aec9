// options.outputs: one input, several verified files in one job, each with its own download link,
// poster and receipt, and a review of every aspect they draw in.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { TINY_SPEC, readAnswer, useApiServers, waitForRender } from './api-server.ts';

const servers = useApiServers();
const work = mkdtempSync(path.join(tmpdir(), 'kino-outputs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function download(url: string, name: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status, url).toBe(200);
  const file = path.join(work, name);
  writeFileSync(file, new Uint8Array(await response.arrayBuffer()));
  return file;
}

describe('several outputs in one request', () => {
  it(
    'renders one spec to several verified files, each with its link, poster and receipt',
    { timeout: 180_000 },
    async () => {
      const api = await servers.start();
      const created = await readAnswer(
        await api.api('/v1/renders', {
          method: 'POST',
          json: {
            spec: TINY_SPEC,
            options: {
              quality: 'draft',
              outputs: [
                { format: 'mp4', aspect: 'square' },
                { format: 'gif', aspect: 'reels', poster: '0.5s' },
                { format: 'mp4', aspect: 'landscape' },
              ],
            },
          },
        }),
      );
      expect(created.status, created.text).toBe(202);
      expect(created.body.options).toMatchObject({ format: 'mp4', aspect: 'square', quality: 'draft' });
      const job = await waitForRender(api, created.body.id as string);
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      const outputs = job.outputs!;
      expect(outputs.map((o) => [o.format, o.aspect, o.quality])).toEqual([
        ['mp4', 'square', 'draft'],
        ['gif', 'reels', 'draft'],
        ['mp4', 'landscape', 'draft'],
      ]);
      // The first output is also the job's video.
      expect(job.video?.sha256).toBe(outputs[0]!.video.sha256);
      const expected = [
        { codec: 'h264', width: 540, height: 540 },
        { codec: 'gif', width: 480, height: 854 },
        { codec: 'h264', width: 960, height: 540 },
      ];
      for (const [index, output] of outputs.entries()) {
        const file = await download(output.video.downloadUrl, `out-${index}${index === 1 ? '.gif' : '.mp4'}`);
        expect((await probeFile(file)).video, `output ${index}`).toMatchObject(expected[index]!);
        const receipt = (await (await fetch(output.video.receiptUrl!)).json()) as {
          output: { path: string; sha256: string };
        };
        expect(receipt.output.sha256).toBe(output.video.sha256);
        expect(receipt.output.path).toBe(
          `${job.id}${index === 0 ? '' : `-${index}`}${index === 1 ? '.gif' : '.mp4'}`,
        );
      }
      expect(outputs[0]!.poster).toBeNull();
      const poster = await fetch(outputs[1]!.poster!.downloadUrl);
      expect(poster.status).toBe(200);
      expect(poster.headers.get('content-type')).toBe('image/png');
      expect(poster.headers.get('content-disposition')).toContain(`${job.id}-1.poster.png`);
      // A link for one output does not open another's file.
      const forged = outputs[2]!.video.downloadUrl.replace('/video-2?', '/video-1?');
      expect((await fetch(forged)).status).toBe(403);
    },
  );

  it('refuses more than 8 outputs, a poster outside one of them, and outputs over MAX_RENDER_PIXELS together', async () => {
    const api = await servers.start({ env: { MAX_RENDER_PIXELS: String(2 * 30 * 1080 * 1080) } });
    const post = (options: unknown) =>
      api
        .api('/v1/renders', { method: 'POST', json: { spec: TINY_SPEC, options } })
        .then((r) => readAnswer(r));
    const nine = await post({ outputs: Array.from({ length: 9 }, () => ({ format: 'mp4' })) });
    expect(nine.status).toBe(400);
    const late = await post({ outputs: [{ format: 'mp4' }, { format: 'mp4', poster: '9s' }] });
    expect(late.status).toBe(400);
    expect(JSON.stringify(late.body.errors)).toContain('/options/outputs/1/poster');
    const costly = await post({ outputs: [{ format: 'mp4' }, { format: 'mp4' }, { format: 'mp4' }] });
    expect(costly.status).toBe(400);
    expect(costly.body).toMatchObject({ code: 'render_too_large' });
    expect(costly.body.detail).toMatch(/3 outputs together/);
    expect((await post({ outputs: [{ format: 'mp4' }, { format: 'mp4' }] })).status).toBe(202);
  });
});

/**
 * A reel with a call to action in the bottom band, where the app's buttons cover it (unsafe_area on
 * reels only), and fine print too small in any aspect (text_too_small).
 */
const REEL_WITH_FOOTER = {
  kinoSpec: 1,
  aspect: 'reels',
  fps: 15,
  scenes: [
    {
      duration: '2s',
      background: '#0f172a',
      elements: [
        { type: 'text', text: 'Big news', size: 140, color: '#ffffff', y: 0.4 },
        { type: 'text', text: 'Swipe up for more', size: 56, color: '#ffffff', box: 'frame', y: 0.9 },
        { type: 'text', text: 'terms and conditions apply', size: 12, color: '#ffffff', y: 0.6 },
      ],
    },
  ],
};

describe('the review of several outputs', () => {
  it(
    'reviews each aspect the outputs draw in and names the aspect of a finding seen in one only',
    { timeout: 180_000 },
    async () => {
      const api = await servers.start();
      const post = async (options: Record<string, unknown>) => {
        const outputs = [
          { format: 'mp4', aspect: 'reels' },
          { format: 'mp4', aspect: 'square' },
        ];
        const created = await readAnswer(
          await api.api('/v1/renders', {
            method: 'POST',
            json: { spec: REEL_WITH_FOOTER, options: { quality: 'draft', outputs, ...options } },
          }),
        );
        expect(created.status, created.text).toBe(202);
        return waitForRender(api, created.body.id as string);
      };

      const job = await post({ review: true });
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      expect(job.review?.aspects).toEqual(['reels', 'square']);
      const found = job.review!.findings.map((finding) => [finding.code, finding.element, finding.aspect]);
      // Under the reel's buttons on the reel only; too small in both, so listed once without an aspect.
      expect(found).toContainEqual(['unsafe_area', 's0/e1', 'reels']);
      expect(found.filter(([code]) => code === 'text_too_small')).toEqual([
        ['text_too_small', 's0/e2', undefined],
      ]);
      expect(found.filter(([, , aspect]) => aspect === 'square')).toEqual([]);
      expect(job.review?.qualityGate.failing).toEqual(['text_too_small', 'unsafe_area']);

      const strict = await post({ strictQuality: true, allowQuality: ['text_too_small'] });
      expect(strict.status).toBe('failed');
      expect(strict.error).toMatchObject({ code: 'quality_gate' });
      expect(strict.error!.errors).toEqual([
        { pointer: '/scenes/0/elements/1', message: expect.stringMatching(/^unsafe_area \(in reels\): /) },
      ]);
      expect(strict.outputs).toBeNull();
    },
  );
});
