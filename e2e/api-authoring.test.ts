// prompt and edit through the render API (kino serve over HTTP), authored by the real AI SDK
// provider code against a loopback stand-in that speaks OpenAI's and Anthropic's wire formats, with
// a 32k context window and OpenAI's strict structured-output rules enforced.
import { writeFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { startProviderStandIn } from '../main/authoring/provider-stand-in.fixture.ts';
import type { ProviderStandIn } from '../main/authoring/provider-stand-in.fixture.ts';
import {
  LATE_ELEMENT_SPEC,
  TWO_SCENE_SPEC,
  editAnswer,
  textScene,
} from '../main/authoring/provider-stand-in.fixture.ts';
import { readAnswer, useApiServers, waitForRender } from './api-server.ts';
import type { RenderJobBody, RunningApi } from './api-server.ts';

const KEY = 'sk-standin-key-must-never-be-seen-0042';
const scene = textScene;
const AUTHORED = TWO_SCENE_SPEC;

let standIn: ProviderStandIn;
let work: string;
const servers = useApiServers();

beforeAll(async () => {
  standIn = await startProviderStandIn({ contextWindow: 32_000 });
  work = mkdtempSync(join(tmpdir(), 'kino-api-authoring-'));
});
afterAll(async () => {
  expect(standIn.misfits).toEqual([]);
  // Every authoring call fit the budget: ≤ 80 KiB of request body.
  for (const request of standIn.requests) {
    expect(Buffer.byteLength(JSON.stringify(request.body))).toBeLessThanOrEqual(80 * 1024);
  }
  await standIn?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const withOpenAi = (extra: Record<string, string> = {}) =>
  servers.start({
    env: {
      OPENAI_API_KEY: KEY,
      OPENAI_BASE_URL: standIn.baseURL.openai,
      OPENAI_MODEL: 'gpt-stand-in',
      ...extra,
    },
  });

async function post(api: RunningApi, body: unknown) {
  return readAnswer(await api.api('/v1/renders', { method: 'POST', json: body }), [KEY]);
}

async function download(job: RenderJobBody, name: string): Promise<string> {
  const file = join(work, name);
  const response = await fetch(job.video!.downloadUrl);
  expect(response.status).toBe(200);
  writeFileSync(file, new Uint8Array(await response.arrayBuffer()));
  return file;
}

describe('render API: prompt and edit', () => {
  it('renders a prompt: authoring, then reviewing, the spec and code shown while running, a verified video', async () => {
    const api = await withOpenAi();
    const tiny = {
      ...AUTHORED,
      scenes: [
        scene('Hello', '#101826'),
        { ...scene('World', '#1f2937'), elements: [{ type: 'text', text: 'World', size: 10 }] },
      ],
    };
    // The first answer takes a moment, so the poll sees the job in its authoring stage.
    standIn.script(
      { json: tiny, inputTokens: 5000, outputTokens: 700, delayMs: 800 },
      { json: AUTHORED, inputTokens: 5600, outputTokens: 650 },
    );
    const created = await post(api, {
      prompt: 'Two scenes: Hello, then World',
      options: { quality: 'draft' },
    });
    expect(created.status, created.text).toBe(202);
    const id = (created.body as RenderJobBody).id;
    expect(created.body.input).toEqual({ kind: 'prompt', provider: 'openai', model: 'gpt-stand-in' });

    const stages = new Set<string>();
    let sawSpecWhileRunning = false;
    const job = await waitForRender(api, id, {
      until: (current) => {
        if (current.progress) stages.add(current.progress.stage);
        if (current.status === 'running' && current.spec && current.code) sawSpecWhileRunning = true;
        return ['succeeded', 'failed', 'canceled'].includes(current.status);
      },
    });
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.spec).toEqual(AUTHORED);
    expect(job.code).toContain('export default video(');
    expect(sawSpecWhileRunning).toBe(true);
    expect(stages).toContain('authoring');
    expect(job.authoring).toMatchObject({
      provider: 'openai',
      model: 'gpt-stand-in',
      attempts: 2,
      usage: { inputTokens: 10_600, outputTokens: 1350 },
      remainingFindings: [],
    });
    expect(job.authoring!.repairs[0]!.findings.map((finding) => finding.code)).toContain('text_too_small');
    // The repair request carried the finding, with its pointer.
    expect(JSON.stringify(standIn.requests.at(-1)!.body)).toContain('text_too_small at /scenes/1/elements/0');
    expect(standIn.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);

    const probe = await probeFile(await download(job, 'prompt.mp4'));
    expect(probe.video).toMatchObject({ codec: 'h264', width: 540, height: 540 });
    expect(probe.durationSeconds).toBeCloseTo(2, 1);
    expect(job.receipt!.inputs.request).toMatchObject({ input: { kind: 'prompt', provider: 'openai' } });

    // Edit that render by its id: one scene changes, the other stays as it was.
    standIn.script(editAnswer({ op: 'replace', path: '/scenes/1/background', value: '#1e3a8a' }));
    const editRequest = standIn.requests.length;
    const edit = await post(api, {
      edit: { base: id, change: 'make the second scene blue' },
      options: { quality: 'draft' },
    });
    expect(edit.status, edit.text).toBe(202);
    const edited = await waitForRender(api, (edit.body as RenderJobBody).id);
    expect(edited.status, JSON.stringify(edited.error)).toBe('succeeded');
    expect(edited.input).toMatchObject({ kind: 'edit', base: id });
    expect(edited.changes).toEqual(['/scenes/1/background']);
    const spec = edited.spec as typeof AUTHORED;
    expect(JSON.stringify(spec.scenes[0])).toBe(JSON.stringify(AUTHORED.scenes[0]));
    expect(spec.scenes[1]!.background).toBe('#1e3a8a');
    expect(JSON.stringify(standIn.requests[editRequest]!.body)).toContain('make the second scene blue');
    // The edit was asked for as a strict patch, not a whole spec.
    expect(standIn.requests[editRequest]!.body).toMatchObject({
      text: { format: { type: 'json_schema', strict: true, schema: { required: ['patch'] } } },
    });

    // The key is in no log line.
    expect(api.output()).not.toContain(KEY);
    expect(standIn.pending()).toBe(0);
  });

  it('answers 400 naming the configured providers for one that is not, and 503 when none is', async () => {
    const api = await withOpenAi();
    const unknown = await post(api, { prompt: 'x', provider: 'anthropic' });
    expect(unknown.status, unknown.text).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'unknown_provider' });
    expect(unknown.body.detail).toMatch(/"anthropic" is not configured here \(configured: openai\)/);
    const misplaced = await post(api, { key: 'stats', provider: 'openai' });
    expect(misplaced.status).toBe(400);
    const none = await servers.start();
    const unavailable = await post(none, { prompt: 'x' });
    expect(unavailable.status).toBe(503);
    expect(unavailable.body).toMatchObject({ code: 'ai_unavailable' });
  });

  it('fails the job with provider_unavailable when the provider keeps failing, and limits prompts per token', async () => {
    const api = await withOpenAi({ AI_RATE_LIMIT: '2/h' });
    standIn.script(
      { status: 503, retryAfterSeconds: 0 },
      { status: 503, retryAfterSeconds: 0 },
      { status: 503, retryAfterSeconds: 0 },
    );
    const created = await post(api, { prompt: 'anything', options: { quality: 'draft' } });
    expect(created.status).toBe(202);
    const job = await waitForRender(api, (created.body as RenderJobBody).id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringMatching(/openai answered 503 after 3 attempts/),
    });
    expect(job.video).toBeNull();

    standIn.script({ json: LATE_ELEMENT_SPEC }, { json: LATE_ELEMENT_SPEC }, { json: LATE_ELEMENT_SPEC });
    const second = await post(api, { prompt: 'again', options: { quality: 'draft' } });
    expect(second.status).toBe(202);
    const failed = await waitForRender(api, (second.body as RenderJobBody).id);
    expect(failed.error).toMatchObject({ code: 'authoring_failed' });
    expect(failed.error!.errors!.length).toBeGreaterThan(0);
    expect(failed.authoring).toMatchObject({ attempts: 3 });

    const limited = await post(api, { prompt: 'a third' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(api.output()).not.toContain(KEY);
  });

  it('authors with Anthropic when asked for it by name', async () => {
    const api = await withOpenAi({
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: standIn.baseURL.anthropic,
      AI_PROVIDER: 'openai',
    });
    standIn.script({ json: AUTHORED });
    const created = await post(api, {
      prompt: 'Hello world',
      provider: 'anthropic',
      model: 'claude-stand-in',
      options: { quality: 'draft' },
    });
    expect(created.status, created.text).toBe(202);
    const job = await waitForRender(api, (created.body as RenderJobBody).id);
    expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
    expect(job.authoring).toMatchObject({ provider: 'anthropic', model: 'claude-stand-in', attempts: 1 });
    expect(standIn.requests.at(-1)!.provider).toBe('anthropic');
    expect(standIn.requests.at(-1)!.headers['x-api-key']).toBe(KEY);
  });

  // Generate → review → repair → render, then edit → render, through each provider's wire format,
  // under the stand-in's 32k window and each provider's schema rules.
  it.each(['openai', 'anthropic', 'google', 'openai-compatible'] as const)(
    '%s: a prompt renders after a repair, and an edit of it renders with only the asked change',
    async (provider) => {
      const api = await withOpenAi({
        ANTHROPIC_API_KEY: KEY,
        ANTHROPIC_BASE_URL: standIn.baseURL.anthropic,
        GOOGLE_GENERATIVE_AI_API_KEY: KEY,
        GOOGLE_GENERATIVE_AI_BASE_URL: standIn.baseURL.google,
        OPENAI_COMPATIBLE_BASE_URL: standIn.baseURL['openai-compatible'],
        OPENAI_COMPATIBLE_MODEL: 'local-stand-in',
        AI_PROVIDER: 'openai',
      });
      const tiny = { ...AUTHORED, scenes: [scene('Hello', '#101826', 12), AUTHORED.scenes[1]] };
      standIn.script({ json: tiny }, { json: AUTHORED });
      const created = await post(api, {
        prompt: 'Hello, then World',
        provider,
        options: { quality: 'draft' },
      });
      expect(created.status, created.text).toBe(202);
      const job = await waitForRender(api, (created.body as RenderJobBody).id);
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      expect(job.authoring).toMatchObject({ provider, attempts: 2 });
      expect(job.authoring!.repairs[0]!.findings.map((finding) => finding.code)).toContain('text_too_small');
      expect(job.receipt).toMatchObject({ verification: { ok: true } });

      standIn.script(editAnswer({ op: 'replace', path: '/scenes/0/elements/0/text', value: 'Hi there' }));
      const edit = await post(api, {
        edit: { base: job.id, change: 'say "Hi there" instead of Hello' },
        provider,
        options: { quality: 'draft' },
      });
      expect(edit.status, edit.text).toBe(202);
      const edited = await waitForRender(api, (edit.body as RenderJobBody).id);
      expect(edited.status, JSON.stringify(edited.error)).toBe('succeeded');
      expect(edited.changes).toEqual(['/scenes/0/elements/0/text']);
      expect(JSON.stringify((edited.spec as typeof AUTHORED).scenes[1])).toBe(
        JSON.stringify(AUTHORED.scenes[1]),
      );
      expect(standIn.requests.at(-1)!.provider).toBe(provider);
      expect(api.output()).not.toContain(KEY);
    },
  );
});
