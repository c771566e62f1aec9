// options.review and strictQuality on POST /v1/renders: the workspace's checks on the resolved spec
// before rendering, the findings in the job, and a quality gate that stops a strict render.
import { describe, expect, it } from 'vitest';
import { readAnswer, useApiServers, waitForRender } from './api-server.ts';
import type { RunningApi } from './api-server.ts';

const servers = useApiServers();

/** Two square seconds whose second line is far too small to read. */
const SMALL_PRINT = {
  kinoSpec: 1,
  aspect: 'square',
  fps: 15,
  scenes: [
    {
      duration: '2s',
      background: '#0f172a',
      elements: [
        { type: 'text', text: 'Big news', size: 140, color: '#ffffff', y: 0.4 },
        { type: 'text', text: 'terms and conditions apply', size: 12, color: '#ffffff', y: 0.7 },
      ],
    },
  ],
};

async function render(api: RunningApi, options: Record<string, unknown>) {
  const created = await readAnswer(
    await api.api('/v1/renders', {
      method: 'POST',
      json: { spec: SMALL_PRINT, options: { quality: 'draft', ...options } },
    }),
  );
  expect(created.status, created.text).toBe(202);
  return waitForRender(api, created.body.id as string);
}

describe('review in the job', () => {
  it(
    'reviews the spec before rendering and lists the findings in the job; the render goes on',
    { timeout: 120_000 },
    async () => {
      const api = await servers.start();
      const job = await render(api, { review: true });
      expect(job.status).toBe('succeeded');
      expect(job.review?.qualityGate).toEqual({ strict: false, passed: false, failing: ['text_too_small'] });
      const small = job.review!.findings.find((finding) => finding.code === 'text_too_small')!;
      expect(small).toMatchObject({ element: 's0/e1', allowed: false, severity: 'warning' });
      expect(small.remedy).toMatch(/size/);
      expect(small.interval.startSeconds).toBeGreaterThanOrEqual(0);
      expect(job.options).toMatchObject({ review: true });

      const plain = await render(api, {});
      expect(plain.review).toBeNull();
    },
  );

  it(
    'fails a strict render with quality_gate, naming each finding at its pointer, and renders nothing',
    { timeout: 120_000 },
    async () => {
      const api = await servers.start();
      const job = await render(api, { strictQuality: true });
      expect(job.status).toBe('failed');
      expect(job.error).toMatchObject({ code: 'quality_gate' });
      expect(job.error!.message).toMatch(/text_too_small.*allowQuality/);
      expect(job.error!.errors).toContainEqual({
        pointer: '/scenes/0/elements/1',
        message: expect.stringMatching(/^text_too_small: .* Fix: raise size/),
      });
      expect(job.video).toBeNull();
      expect(job.review?.qualityGate).toMatchObject({ strict: true, passed: false });
    },
  );

  it('lets a strict render through when allowQuality lists what is left', { timeout: 120_000 }, async () => {
    const api = await servers.start();
    const job = await render(api, { strictQuality: true, allowQuality: ['text_too_small'] });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.review?.qualityGate).toEqual({ strict: true, passed: true, failing: [] });
    expect(job.review?.findings.every((finding) => finding.allowed)).toBe(true);
  });

  it('refuses an unknown finding code in allowQuality', async () => {
    const api = await servers.start();
    const refused = await readAnswer(
      await api.api('/v1/renders', {
        method: 'POST',
        json: { spec: SMALL_PRINT, options: { strictQuality: true, allowQuality: ['ugly'] } },
      }),
    );
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('/options/allowQuality/0');
  });
});
