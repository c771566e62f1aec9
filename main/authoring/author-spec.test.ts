// The authoring loop through the real AI SDK provider code, each provider pointed at a loopback
// stand-in that speaks its wire format and plays scripted answers.
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { VideoSpec } from '../../shared/spec/schema.ts';
import { projectContext } from '../engine/project-context.ts';
import type { RenderProjectContext } from '../engine/project-context.ts';
import { loadProject } from '../project/load.ts';
import { authorSpec } from './author-spec.ts';
import type { AuthorSpecOptions } from './author-spec.ts';
import { editAnswer, startProviderStandIn } from './provider-stand-in.fixture.ts';
import type { ProviderStandIn } from './provider-stand-in.fixture.ts';
import { AI_PROVIDERS } from './providers.ts';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import type { AiProviderName, ProviderSettings } from './providers.ts';

const EXAMPLES = fileURLToPath(new URL('../../examples', import.meta.url));
const KEY = 'sk-standin-0123456789-secret';

const scene = (text: string, extra: Record<string, unknown> = {}) => ({
  duration: '2s',
  background: '#101826',
  elements: [{ type: 'text', text, size: 96, color: '#ffffff', ...extra }],
});
const GOOD: VideoSpec = { kinoSpec: 1, aspect: 'square', scenes: [scene('Hello Kino')] } as VideoSpec;

let standIn: ProviderStandIn;
let project: RenderProjectContext;

beforeAll(async () => {
  [standIn, project] = await Promise.all([
    startProviderStandIn(),
    loadProject(EXAMPLES).then((loaded) => projectContext(loaded)),
  ]);
});
afterAll(() => standIn?.close());
afterEach(() => {
  expect(standIn.pending(), 'every scripted answer was asked for').toBe(0);
  expect(standIn.misfits, 'every scripted answer fits the schema its request sent').toEqual([]);
  standIn.requests.length = 0;
  standIn.promptTokens.length = 0;
  standIn.setContextWindow(undefined);
});

function provider(name: AiProviderName = 'openai'): ProviderSettings {
  return { name, apiKey: KEY, baseURL: standIn.baseURL[name], model: 'stand-in-model' };
}

const author = (options: Partial<AuthorSpecOptions> = {}) =>
  authorSpec({
    request: { kind: 'prompt', prompt: 'A one-scene hello video' },
    provider: provider(),
    project,
    format: 'mp4',
    limits: { maxRetries: 2, requestTimeoutMs: 10_000 },
    ...options,
  });

/** Everything the model was sent in request `index`, as text. */
const sent = (index: number) => JSON.stringify(standIn.requests[index]!.body);

describe('authorSpec', () => {
  it.each(AI_PROVIDERS)('%s: takes a valid spec on the first answer', async (name) => {
    standIn.script({ json: GOOD, inputTokens: 900, outputTokens: 150 });
    const result = await author({ provider: provider(name) });
    expect(result.spec).toEqual(GOOD);
    expect(result.record).toMatchObject({
      provider: name,
      model: 'stand-in-model',
      attempts: 1,
      repairs: [],
      usage: { inputTokens: 900, outputTokens: 150 },
    });
    // The model was given the guide, the schema and the project's assets.
    expect(sent(0)).toContain('Writing a spec');
    expect(sent(0)).toContain('asset:logo.png');
    expect(sent(0)).toContain('A one-scene hello video');
  });

  // Anthropic's json tool guides the model without holding it to the schema, so an answer can break
  // it; OpenAI's strict mode could not have written this one.
  it('sends the validation errors back and takes the repaired spec', async () => {
    const broken = { ...GOOD, scenes: [{ ...scene('Hello'), duration: 'soon' }] };
    standIn.script({ json: broken }, { json: GOOD });
    const result = await author({ provider: provider('anthropic') });
    expect(result.spec).toEqual(GOOD);
    expect(result.record.attempts).toBe(2);
    expect(result.record.repairs).toHaveLength(1);
    expect(result.record.repairs[0]!.errors.map((error) => error.pointer)).toContain('/scenes/0/duration');
    // The second request carries the first answer and the error at its pointer.
    expect(sent(1)).toContain('/scenes/0/duration');
    expect(sent(1)).toContain('soon');
  });

  it('reviews a valid spec on rendered frames and has the model fix what the review finds', async () => {
    const tiny = { ...GOOD, scenes: [scene('Hello Kino', { size: 12 })] };
    standIn.script({ json: tiny }, { json: GOOD });
    const stages: string[] = [];
    const result = await author({ onStage: (stage, attempt) => stages.push(`${stage}:${attempt}`) });
    expect(result.spec).toEqual(GOOD);
    expect(result.record.repairs[0]!.findings.map((finding) => finding.code)).toContain('text_too_small');
    expect(result.record.repairs[0]!.findings[0]!.pointer).toBe('/scenes/0/elements/0');
    expect(sent(1)).toContain('text_too_small at /scenes/0/elements/0');
    expect(stages).toEqual(['authoring:1', 'reviewing:1', 'authoring:2', 'reviewing:2']);
  });

  it('sends a spec over MAX_RENDER_PIXELS back as an error, so the model shortens it', async () => {
    const long = { ...GOOD, scenes: [{ ...scene('Hello Kino'), duration: '120s' }] };
    standIn.script({ json: long }, { json: GOOD });
    const result = await author({ limits: { maxRenderPixels: 1_000_000_000 } });
    expect(result.spec).toEqual(GOOD);
    expect(result.record.repairs[0]!.errors[0]).toMatchObject({
      pointer: '/scenes',
      message: expect.stringMatching(/MAX_RENDER_PIXELS/),
    });
    expect(sent(1)).toContain('MAX_RENDER_PIXELS');
  });

  it('keeps the best valid spec when the repairs run out, with its findings recorded', async () => {
    const tiny = { ...GOOD, scenes: [scene('Hello Kino', { size: 12 })] };
    standIn.script({ json: tiny }, { json: tiny });
    const result = await author({ limits: { maxRepairs: 1 } });
    expect(result.spec).toEqual(tiny);
    expect(result.record.attempts).toBe(2);
    expect(result.record.remainingFindings.map((finding) => finding.code)).toContain('text_too_small');
  });

  it('fails with authoring_failed and the last errors when no answer is a valid spec', async () => {
    standIn.script({ json: { scenes: 3 } }, { text: 'Sure! Here is your video.' }, { json: { kinoSpec: 2 } });
    const error = await author({ provider: provider('anthropic') }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'authoring_failed' });
    expect((error as Error).message).toMatch(/no valid spec in 3 attempts/);
    expect((error as { details: { errors: unknown[] } }).details.errors.length).toBeGreaterThan(0);
  });

  it('retries a 429 with backoff, then takes the answer', async () => {
    standIn.script({ status: 429, retryAfterSeconds: 0 }, { json: GOOD });
    const result = await author();
    expect(result.spec).toEqual(GOOD);
    expect(standIn.requests).toHaveLength(2);
  });

  it('maps a provider that keeps failing to provider_unavailable, and one that keeps limiting to provider_rate_limited', async () => {
    standIn.script(
      { status: 500, retryAfterSeconds: 0 },
      { status: 500, retryAfterSeconds: 0 },
      { status: 500, retryAfterSeconds: 0 },
    );
    await expect(author()).rejects.toMatchObject({
      code: 'provider_unavailable',
      message: /openai answered 500 after 3 attempts/,
    });
    standIn.requests.length = 0;
    standIn.script(
      { status: 429, retryAfterSeconds: 0 },
      { status: 429, retryAfterSeconds: 0 },
      { status: 429, retryAfterSeconds: 0 },
    );
    await expect(author()).rejects.toMatchObject({ code: 'provider_rate_limited' });
  });

  it('gives up on a provider that does not answer within AI_REQUEST_TIMEOUT', async () => {
    standIn.script({ hang: true });
    await expect(author({ limits: { requestTimeoutMs: 400, maxRetries: 0 } })).rejects.toMatchObject({
      code: 'provider_unavailable',
      message: /did not answer within/,
    });
  });

  it.each(['openai', 'anthropic', 'openai-compatible'] as const)(
    '%s: a refusal is provider_refused',
    async (name) => {
      standIn.script({ refusal: 'I cannot help with that.' });
      await expect(author({ provider: provider(name), limits: { maxRepairs: 0 } })).rejects.toMatchObject({
        code: 'provider_refused',
      });
    },
  );

  it('edits one scene with a patch and leaves the others byte-equal', async () => {
    const base = {
      kinoSpec: 1,
      aspect: 'square',
      scenes: [scene('One'), scene('Two'), scene('Three')],
    } as VideoSpec;
    standIn.script(
      editAnswer(
        { op: 'replace', path: '/scenes/1/elements/0/text', value: 'Two, in blue' },
        { op: 'replace', path: '/scenes/1/background', value: '#1e3a8a' },
      ),
    );
    const result = await author({ request: { kind: 'edit', base, change: 'make scene 2 blue and say so' } });
    expect(result.changes).toEqual(['/scenes/1/background', '/scenes/1/elements/0/text']);
    expect(JSON.stringify(result.spec.scenes[0])).toBe(JSON.stringify(base.scenes[0]));
    expect(JSON.stringify(result.spec.scenes[2])).toBe(JSON.stringify(base.scenes[2]));
    expect(result.spec.scenes[1]!.background).toBe('#1e3a8a');
    expect(sent(0)).toContain('make scene 2 blue');
    expect(sent(0)).toContain('RFC 6902');
  });

  it('reviews an authored spec under the media policy: a private address named by the model is never fetched', async () => {
    let hits = 0;
    const { createServer } = await import('node:http');
    const target = createServer((_req, res) => {
      hits++;
      res.end('not an image');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const port = (target.address() as { port: number }).port;
    try {
      const sneaky = {
        ...GOOD,
        scenes: [
          {
            ...scene('Hello Kino'),
            elements: [
              {
                type: 'image',
                src: `http://127.0.0.1:${port}/metadata.png`,
                width: 200,
                height: 200,
                y: 0.2,
              },
              ...scene('Hello Kino').elements,
            ],
          },
        ],
      };
      standIn.script({ json: sneaky });
      const result = await author({ limits: { maxRepairs: 0 } });
      expect(result.spec).toEqual(sneaky);
      expect(hits).toBe(0);
    } finally {
      target.close();
    }
  });

  it('never puts the key in an error it raises', async () => {
    standIn.script({ status: 401, message: 'bad key' });
    const error = (await author({ limits: { maxRetries: 0 } }).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: 'provider_unavailable', message: /refused the API key \(401\)/ });
    expect(JSON.stringify({ ...error, text: error.message, stack: error.stack })).not.toContain(KEY);
    expect(standIn.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });

  // The budget of issue 28: a generate or repair call ≤ 20k input tokens, an edit ≤ 20k plus its base
  // spec, every request body ≤ 80 KiB, counted on what was really sent (o200k_base).
  it.each(AI_PROVIDERS)('%s: every call fits the token and size budget', async (name) => {
    const tiny = { ...GOOD, scenes: [scene('Hello Kino', { size: 12 })] };
    standIn.script({ json: tiny }, { json: GOOD });
    await author({ provider: provider(name) });
    const base = { kinoSpec: 1, aspect: 'square', scenes: [scene('One'), scene('Two')] } as VideoSpec;
    standIn.script(editAnswer({ op: 'replace', path: '/scenes/1/background', value: '#1e3a8a' }));
    await author({ provider: provider(name), request: { kind: 'edit', base, change: 'scene 2 in blue' } });
    const [generate, repair, edit] = standIn.promptTokens;
    expect(generate).toBeLessThanOrEqual(20_000);
    expect(repair).toBeLessThanOrEqual(20_000);
    expect(edit).toBeLessThanOrEqual(20_000 + countTokens(JSON.stringify(base)));
    for (const request of standIn.requests) {
      expect(Buffer.byteLength(JSON.stringify(request.body))).toBeLessThanOrEqual(80 * 1024);
    }
    console.log(
      `${name}: generate ${generate} tokens, repair ${repair}, edit ${edit}; bodies ${standIn.requests
        .map((request) => `${(Buffer.byteLength(JSON.stringify(request.body)) / 1024).toFixed(1)} KiB`)
        .join(', ')}`,
    );
  });

  it('a request over the context window fails at once with the counts, not after repairs', async () => {
    standIn.setContextWindow(4_000);
    const error = (await author({ provider: provider('anthropic') }).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ code: 'provider_refused' });
    expect(error.message).toMatch(
      /^anthropic refused the request \(400\): the request is over the model's context window \(this call sent ≈ \d+ tokens\): prompt is too long: \d+ tokens > 4000 maximum$/,
    );
    expect(standIn.requests).toHaveLength(1);
  });
});
