// `kino mcp` as an MCP client starts it: the SDK's own client spawns the real command and talks to
// it over stdio. Renders land in --out and are checked with ffprobe; frames come back as images.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { loadComposition } from '../main/composition/load.ts';
import {
  editAnswer,
  startProviderStandIn,
  TWO_SCENE_SPEC,
} from '../main/authoring/provider-stand-in.fixture.ts';
import type { ProviderStandIn } from '../main/authoring/provider-stand-in.fixture.ts';
import { KINO_BIN, REPO_ROOT } from './cli-helpers.ts';
import {
  QUICK_SPEC,
  SLOW_SPEC,
  TINY_TEXT_SPEC,
  call,
  connect,
  errorText,
  expectEveryTool,
  expectFrameImage,
  expectSuccess,
  pngSize,
} from './mcp-harness.ts';

const NO_AI = {
  OPENAI_API_KEY: '',
  ANTHROPIC_API_KEY: '',
  GOOGLE_GENERATIVE_AI_API_KEY: '',
  OPENAI_COMPATIBLE_BASE_URL: '',
  AI_PROVIDER: '',
};

function env(extra: Record<string, string> = {}): Record<string, string> {
  const base = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  // Vitest exports Vite's BASE_URL; the MCP server has no HTTP side, but keep the env a user's.
  delete base.BASE_URL;
  return { ...base, ...NO_AI, ...extra };
}

function spawnKinoMcp(out: string, extra: Record<string, string> = {}) {
  return new StdioClientTransport({
    command: process.execPath,
    args: [KINO_BIN, 'mcp', '--out', out],
    cwd: REPO_ROOT,
    env: env(extra),
    stderr: 'pipe',
  });
}

const work = mkdtempSync(path.join(tmpdir(), 'kino-mcp-stdio-'));
let client: Client;
let out: string;

beforeAll(async () => {
  out = path.join(work, 'out');
  client = await connect(spawnKinoMcp(out));
}, 60_000);

afterAll(async () => {
  await client?.close();
  rmSync(work, { recursive: true, force: true });
});

describe('kino mcp (stdio)', () => {
  it('lists every tool with its input and output schemas', async () => {
    await expectEveryTool(client);
  });

  it(
    'renders a spec to a file ffprobe verifies, with progress notifications',
    { timeout: 120_000 },
    async () => {
      const progress: { progress: number; total?: number; message?: string }[] = [];
      const answer = await call(
        client,
        'render_video',
        { spec: QUICK_SPEC, quality: 'draft' },
        { onprogress: (update) => progress.push(update) },
      );
      const result = expectSuccess(answer);
      expect(result.status).toBe('succeeded');
      const file = result.path as string;
      expect(file.startsWith(out)).toBe(true);
      const probe = await probeFile(file);
      // Draft renders at half size.
      expect(probe.video).toMatchObject({ codec: 'h264', width: 540, height: 540, frames: 15 });
      expect(result.receipt).toMatchObject({ verified: true, frames: 15, width: 540, height: 540 });
      expect(existsSync((result.receipt as { location: string }).location)).toBe(true);
      expect(progress.length).toBeGreaterThan(0);
      const values = progress.map((update) => update.progress);
      expect(values).toEqual([...values].sort((a, b) => a - b));
      expect(new Set(values).size).toBe(values.length);
      // A one-second draft renders between two polls: the stages seen vary, the render's id does not.
      for (const update of progress) {
        expect(update.total).toBe(100);
        expect(update.message).toMatch(
          new RegExp(`^${String(result.id)} (starting|rendering|encoding|verifying|storing)`),
        );
      }
    },
  );

  it(
    'returns a frame as a PNG image sized for a model, and keeps the full frame',
    { timeout: 60_000 },
    async () => {
      const answer = await call(client, 'render_frame', { spec: TINY_TEXT_SPEC, time: '1s' });
      const image = await expectFrameImage(answer);
      expect(image).toEqual({ width: 432, height: 768 });
      const result = expectSuccess(answer);
      expect(result).toMatchObject({ frame: 30, framesTotal: 60, width: 1080, height: 1920 });
      expect(await pngSize(result.path as string)).toEqual({ width: 1080, height: 1920 });
    },
  );

  it(
    'lists the templates and draws a template frame with variables, refusing a bad value by name',
    { timeout: 60_000 },
    async () => {
      const listed = expectSuccess(await call(client, 'list_templates', {}));
      const templates = listed.templates as { key: string; variables: Record<string, { type: string }> }[];
      expect(templates.map((template) => template.key)).toContain('quote-card');
      expect(templates.find((t) => t.key === 'stats-recap')?.variables.users?.type).toBe('number');

      const variables = { author: 'Ada Lovelace', accent: '#38bdf8' };
      const answer = await call(client, 'render_frame', { key: 'quote-card', variables, time: '3s' });
      expect(await expectFrameImage(answer)).toEqual({ width: 768, height: 768 });

      const template = JSON.parse(
        readFileSync(path.join(REPO_ROOT, 'examples/specs/quote-card.json'), 'utf8'),
      );
      const printed = expectSuccess(await call(client, 'spec_to_code', { spec: template }));
      expect(printed.code).toContain('export default template(');
      expect(printed.code).toContain('text(v.author');

      const bad = await call(client, 'render_frame', { key: 'quote-card', variables: { accent: 'blurple' } });
      expect(bad.isError).toBe(true);
      expect(errorText(bad)).toContain('variable "accent" (color): expected a CSS colour, got "blurple"');
    },
  );

  it(
    'reviews a spec and names the known problem with its pointer, remedy and frame',
    { timeout: 60_000 },
    async () => {
      const result = expectSuccess(await call(client, 'review_video', { spec: TINY_TEXT_SPEC, frames: 6 }));
      const findings = result.findings as {
        code: string;
        pointer?: string;
        remedy: string;
        inspectFrame: number;
      }[];
      const small = findings.find((finding) => finding.code === 'text_too_small');
      expect(small, JSON.stringify(findings)).toBeDefined();
      expect(small!.pointer).toBe('/scenes/0/elements/1');
      expect(small!.remedy).toMatch(/size/);
      expect(small!.inspectFrame).toBeGreaterThanOrEqual(0);
      // The big title has no finding of its own.
      expect(findings.filter((finding) => finding.pointer === '/scenes/0/elements/0')).toEqual([]);
      // The same review as the workspace's: the character no font has, and not the ★ the chain draws.
      const glyph = findings.find((finding) => finding.code === 'missing_glyph') as
        { pointer?: string; message: string; remedy: string } | undefined;
      expect(glyph, JSON.stringify(findings)).toMatchObject({ pointer: '/scenes/0/elements/2' });
      expect(glyph!.message).toContain('has "⏻" (U+23FB), which no font of its stack');
      expect(glyph!.remedy).toMatch(/^set this element's font to "mono"/);
    },
  );

  it(
    'names the subtitles drawn over a lower third by pointer, and stops once they move',
    { timeout: 120_000 },
    async () => {
      const captions = {
        type: 'captions',
        id: 'subtitles',
        srt: '1\n00:00:00,000 --> 00:00:03,000\nWe started with one question:\n',
      };
      const spec = (position: 'bottom' | 'top') => ({
        kinoSpec: 1,
        aspect: 'reels',
        scenes: [
          {
            duration: '3s',
            background: '#1e293b',
            elements: [
              { type: 'lowerThird', id: 'host', name: 'Ada Lovelace', title: 'Founder, Analytical Engines' },
              { ...captions, position },
            ],
          },
        ],
      });
      type Finding = {
        code: string;
        pointer?: string;
        message: string;
        remedy: string;
        inspectFrame: number;
      };
      const review = async (position: 'bottom' | 'top') =>
        (
          expectSuccess(await call(client, 'review_video', { spec: spec(position), frames: 4 }))
            .findings as Finding[]
        ).filter((finding) => finding.code === 'element_overlap');
      const found = await review('bottom');
      expect(found).toHaveLength(1);
      expect(found[0]!.pointer).toBe('/scenes/0/elements/1');
      expect(found[0]!.message).toMatch(
        /^captions \(id "subtitles", s0\/e1\) is drawn over lowerThird \(id "host", s0\/e0\)/,
      );
      expect(found[0]!.remedy).toContain("position: 'top'");
      expect(found[0]!.inspectFrame).toBeGreaterThanOrEqual(0);
      expect(await review('top')).toEqual([]);
    },
  );

  it('type-checks code without running it', { timeout: 60_000 }, async () => {
    const target = path.join(work, 'written-by-composition.txt');
    const broken = [
      "import { scene, text, video } from 'kino';",
      "import { writeFileSync } from 'node:fs';",
      `writeFileSync(${JSON.stringify(target)}, 'ran');`,
      'export default video({}, [',
      "  scene({ duration: '1s' }, [text('Hi', { fontSize: 40 })]),",
      ']);',
    ].join('\n');
    const result = expectSuccess(await call(client, 'validate_code', { code: broken }));
    const diagnostics = result.diagnostics as { line: number; message: string }[];
    expect(result.ok).toBe(false);
    expect(diagnostics.some((d) => d.line === 5 && /fontSize/.test(d.message))).toBe(true);
    expect(existsSync(target)).toBe(false);

    const { readFile } = await import('node:fs/promises');
    const example = await readFile(path.join(REPO_ROOT, 'examples/compositions/travel-reel.ts'), 'utf8');
    expect(expectSuccess(await call(client, 'validate_code', { code: example }))).toEqual({
      ok: true,
      diagnostics: [],
    });
  });

  it(
    'prints a spec as code that type-checks and loads back to the same model',
    { timeout: 60_000 },
    async () => {
      const { code } = expectSuccess(await call(client, 'spec_to_code', { spec: TINY_TEXT_SPEC })) as {
        code: string;
      };
      expect(expectSuccess(await call(client, 'validate_code', { code })).ok).toBe(true);
      // Inside the repository, so that 'kino' resolves as it does for a user's composition.
      mkdirSync(path.join(REPO_ROOT, '.kino'), { recursive: true });
      const file = path.join(REPO_ROOT, '.kino', `mcp-round-trip-${process.pid}.ts`);
      writeFileSync(file, code);
      try {
        const model = await loadComposition(file, { outDir: path.join(work, 'compiled') });
        expect(model).toEqual(TINY_TEXT_SPEC);
      } finally {
        rmSync(file, { force: true });
      }
    },
  );

  it('serves the docs: list, search and get', async () => {
    const { docs } = expectSuccess(await call(client, 'list_docs')) as { docs: { name: string }[] };
    const names = docs.map((doc) => doc.name);
    expect(names).toEqual(
      expect.arrayContaining(['mcp/workflow', 'spec', 'spec/animation', 'code', 'project/stats']),
    );
    const { results } = expectSuccess(await call(client, 'search_docs', { query: 'keyframes opacity' })) as {
      results: { name: string; excerpt: string }[];
    };
    expect(results[0]!.name).toMatch(/^spec/);
    expect(results[0]!.excerpt.toLowerCase()).toContain('keyframes');
    const doc = expectSuccess(await call(client, 'get_doc', { name: 'spec/units' }));
    expect(doc.text).toMatch(/Time: seconds/);
    expect(errorText(await call(client, 'get_doc', { name: 'nope' }))).toMatch(
      /no doc named "nope"; the docs are: mcp\/workflow/,
    );
    const schema = expectSuccess(await call(client, 'get_video_spec_schema'));
    expect((schema.schema as { $schema: string }).$schema).toMatch(/2020-12/);
  });

  it('answers bad input with tool errors the model can act on', { timeout: 30_000 }, async () => {
    const invalid = errorText(
      await call(client, 'render_video', { spec: { kinoSpec: 1, scenes: [{ duration: '2' }] } }),
    );
    expect(invalid).toMatch(/\/scenes\/0\/duration/);
    // Encoder settings: the format's rules (from createRender, at their pointer) and the schema's bounds.
    const encoder = errorText(
      await call(client, 'render_video', { spec: QUICK_SPEC, format: 'gif', encoder: { crf: 20 } }),
    );
    expect(encoder).toContain('/options/encoder/crf: gif has no CRF');
    expect(errorText(await call(client, 'render_video', { spec: QUICK_SPEC, encoder: { crf: 99 } }))).toMatch(
      /encoder\.crf: Too big/,
    );
    expect(errorText(await call(client, 'render_frame', { key: 'no-such-key' }))).toMatch(
      /unknown composition key "no-such-key".*known keys are/,
    );
    expect(errorText(await call(client, 'render_frame', { spec: QUICK_SPEC, frame: 999 }))).toMatch(/999/);
    expect(errorText(await call(client, 'render_frame', {}))).toMatch(/exactly one of spec .* or key/);
    const noAi = errorText(await call(client, 'generate_video', { prompt: 'a cat' }));
    expect(noAi).toMatch(
      /OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY or OPENAI_COMPATIBLE_BASE_URL/,
    );
    expect(errorText(await call(client, 'get_render', { id: 'rnd_aaaaaaaaaaaaaaaaaaaaaaaa' }))).toMatch(
      /rnd_a+/,
    );
  });

  it('cancels the render when the call is canceled, leaving no file', { timeout: 120_000 }, async () => {
    const controller = new AbortController();
    let id: string | undefined;
    const rendering = call(
      client,
      'render_video',
      { spec: SLOW_SPEC, quality: 'standard' },
      {
        signal: controller.signal,
        onprogress: (update) => {
          // Each notification names the render first.
          id ??= /^(rnd_\S+) /.exec(update.message ?? '')?.[1];
          if (/ rendering \d+ of/.test(update.message ?? '') && !controller.signal.aborted)
            controller.abort('stop');
        },
      },
    );
    await expect(rendering).rejects.toThrow();
    expect(id).toBeDefined();
    // The call is gone; the render it started ends canceled, with no video anywhere.
    const deadline = Date.now() + 30_000;
    let job = expectSuccess(await call(client, 'get_render', { id }));
    while (job.status !== 'canceled') {
      expect(job.status).not.toBe('succeeded');
      if (Date.now() > deadline) throw new Error(`not canceled: ${JSON.stringify(job)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      job = expectSuccess(await call(client, 'get_render', { id }));
    }
    expect(job.path).toBeUndefined();
    // Stored files live in <out>/<id>/: a canceled render has no folder at all.
    expect(existsSync(path.join(out, id!))).toBe(false);
  });
});

describe('kino mcp (stdio) with a short wait and an AI provider', () => {
  let standIn: ProviderStandIn;
  let second: Client;
  const out2 = path.join(work, 'out2');

  beforeAll(async () => {
    standIn = await startProviderStandIn();
    second = await connect(
      spawnKinoMcp(out2, {
        OPENAI_API_KEY: 'sk-test-mcp-0123456789',
        OPENAI_BASE_URL: standIn.baseURL.openai,
        OPENAI_MODEL: 'gpt-stand-in',
        MCP_WAIT_SECONDS: '0',
      }),
    );
  }, 60_000);

  afterAll(async () => {
    await second?.close();
    expect(standIn.misfits).toEqual([]);
    await standIn?.close();
  });

  it(
    'generates a video from a prompt through the provider, answering at once with the job to poll',
    { timeout: 120_000 },
    async () => {
      standIn.script({ json: TWO_SCENE_SPEC, inputTokens: 7000, outputTokens: 600 });
      const started = expectSuccess(
        await call(second, 'generate_video', {
          prompt: 'Two scenes: hello, then world',
          format: 'mp4',
          quality: 'draft',
          model: 'gpt-stand-in-mini',
        }),
      );
      expect(['queued', 'running']).toContain(started.status);
      let job = started;
      const deadline = Date.now() + 90_000;
      while (job.status === 'queued' || job.status === 'running') {
        if (Date.now() > deadline) throw new Error(`still ${String(job.status)}`);
        await new Promise((resolve) => setTimeout(resolve, 300));
        job = expectSuccess(await call(second, 'get_render', { id: started.id }));
      }
      expect(job.status, JSON.stringify(job.error)).toBe('succeeded');
      expect(job.spec).toMatchObject({ scenes: TWO_SCENE_SPEC.scenes.map(() => expect.any(Object)) });
      const probe = await probeFile(job.path as string);
      expect(probe.video?.codec).toBe('h264');
      expect(JSON.stringify(standIn.requests.at(-1)!.body)).toContain('Two scenes: hello, then world');
      // The model named in the call was asked, and the result says how the spec was written.
      expect(standIn.requests.at(-1)!.body.model).toBe('gpt-stand-in-mini');
      expect(job.receipt).toMatchObject({ width: 540, height: 540 });
      expect(job.authoring).toMatchObject({
        provider: 'openai',
        model: 'gpt-stand-in-mini',
        attempts: 1,
        repairs: [],
        remainingFindings: [],
        usage: { inputTokens: 7000, outputTokens: 600 },
      });
      expect((job.authoring as { durationMs: number }).durationMs).toBeGreaterThan(0);

      // Then a change in words, to that render: only the patched field differs.
      standIn.script(editAnswer({ op: 'replace', path: '/scenes/1/background', value: '#1e3a8a' }));
      const edit = expectSuccess(
        await call(second, 'edit_video', { base: started.id, change: 'make the second scene blue' }),
      );
      let edited = edit;
      while (edited.status === 'queued' || edited.status === 'running') {
        if (Date.now() > deadline + 60_000) throw new Error(`still ${String(edited.status)}`);
        await new Promise((resolve) => setTimeout(resolve, 300));
        edited = expectSuccess(await call(second, 'get_render', { id: edit.id }));
      }
      expect(edited.status, JSON.stringify(edited.error)).toBe('succeeded');
      expect(edited.changes).toEqual(['/scenes/1/background']);
      expect(edited.authoring).toMatchObject({ provider: 'openai', attempts: 1 });
      expect((edited.spec as typeof TWO_SCENE_SPEC).scenes[1]!.background).toBe('#1e3a8a');
      expect(JSON.stringify(standIn.requests.at(-1)!.body)).toContain('make the second scene blue');
    },
  );

  it('renders a registered composition by key, and cancel_render stops it', { timeout: 60_000 }, async () => {
    const started = expectSuccess(await call(second, 'render_composition', { key: 'product-launch' }));
    expect(['queued', 'running']).toContain(started.status);
    const canceled = expectSuccess(await call(second, 'cancel_render', { id: started.id }));
    expect(canceled.status).toBe('canceled');
    expect(errorText(await call(second, 'cancel_render', { id: started.id }))).toMatch(/already canceled/);
    expect(existsSync(path.join(out2, String(started.id)))).toBe(false);
  });
});
