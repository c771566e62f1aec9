// kino generate and kino edit, as a user runs them, against the loopback provider stand-in.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { editAnswer, startProviderStandIn } from '../main/authoring/provider-stand-in.fixture.ts';
import type { ProviderStandIn } from '../main/authoring/provider-stand-in.fixture.ts';
import { TWO_SCENE_SPEC, textScene } from '../main/authoring/provider-stand-in.fixture.ts';
import { runKino } from './cli-helpers.ts';

const KEY = 'sk-cli-standin-secret-0077';
const scene = textScene;
const SPEC = TWO_SCENE_SPEC;

let standIn: ProviderStandIn;
let work: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  standIn = await startProviderStandIn();
  work = mkdtempSync(join(tmpdir(), 'kino-cli-authoring-'));
  env = {
    OPENAI_API_KEY: KEY,
    OPENAI_BASE_URL: standIn.baseURL.openai,
    OPENAI_MODEL: 'gpt-stand-in',
    ANTHROPIC_API_KEY: '',
    GOOGLE_GENERATIVE_AI_API_KEY: '',
    OPENAI_COMPATIBLE_BASE_URL: '',
    AI_PROVIDER: '',
  };
});
afterAll(async () => {
  expect(standIn.misfits).toEqual([]);
  await standIn?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('kino generate and kino edit', () => {
  it('generate: authors (repairing what review finds), writes the spec and renders a verified video', async () => {
    standIn.script(
      { json: { ...SPEC, scenes: [scene('Hello', '#101826', 12), SPEC.scenes[1]] } },
      { json: SPEC },
    );
    const out = join(work, 'hello.mp4');
    const specOut = join(work, 'hello.json');
    const result = await runKino(
      ['generate', 'Two scenes: Hello, then World', '-q', 'draft', '-o', out, '--spec-out', specOut],
      { cwd: work, env },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('kino: authoring with openai gpt-stand-in');
    expect(result.stderr).toContain('kino: reviewing the spec on sampled frames');
    expect(result.stderr).toMatch(/answer 1: 0 errors, 1 finding sent back/);
    expect(result.stderr).toMatch(/spec authored in 2 answers/);
    expect(JSON.parse(readFileSync(specOut, 'utf8'))).toEqual(SPEC);
    const probe = await probeFile(out);
    expect(probe.video).toMatchObject({ codec: 'h264', width: 540, height: 540 });
    const receipt = JSON.parse(readFileSync(join(work, 'hello.render.json'), 'utf8')) as {
      inputs: { request: Record<string, unknown> };
    };
    expect(receipt.inputs.request).toMatchObject({
      prompt: 'Two scenes: Hello, then World',
      authoring: { attempts: 2 },
    });
    expect(`${result.stdout}${result.stderr}`).not.toContain(KEY);
  });

  it('edit --dry-run: writes the changed spec, leaves the rest byte-equal and renders nothing', async () => {
    const base = join(work, 'base.json');
    writeFileSync(base, JSON.stringify(SPEC, null, 2));
    standIn.script(editAnswer({ op: 'replace', path: '/scenes/0/background', value: '#7c2d12' }));
    const result = await runKino(['edit', base, 'make the first scene rust red', '--dry-run'], {
      cwd: work,
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('changed: /scenes/0/background');
    const written = result.stdout.trim();
    expect(written).toBe(join(work, 'base.edited.json'));
    const edited = JSON.parse(readFileSync(written, 'utf8')) as typeof SPEC;
    expect(edited.scenes[0]!.background).toBe('#7c2d12');
    expect(JSON.stringify(edited.scenes[1])).toBe(JSON.stringify(SPEC.scenes[1]));
    expect(existsSync(join(work, 'base.edited.mp4'))).toBe(false);
  });

  it('edit without -o: renders to <name>.edited.<ext> here, a dotted name kept whole: launch.v2.edited.mp4', async () => {
    const dir = mkdtempSync(join(work, 'dotted-'));
    writeFileSync(join(dir, 'launch.v2.json'), JSON.stringify(SPEC, null, 2));
    standIn.script(editAnswer({ op: 'replace', path: '/scenes/1/background', value: '#14532d' }));
    const result = await runKino(['edit', 'launch.v2.json', 'make the second scene green', '-q', 'draft'], {
      cwd: dir,
      env,
    });
    expect(result.code, result.stderr).toBe(0);
    const out = join(dir, 'launch.v2.edited.mp4');
    expect(result.stdout).toContain(out);
    expect((await probeFile(out)).video).toMatchObject({ codec: 'h264', width: 540, height: 540 });
    expect(existsSync(join(dir, 'launch.v2.edited.render.json'))).toBe(true);
  });

  it('says in one line when no provider is configured, or the provider fails', async () => {
    const none = await runKino(['generate', 'anything', '--dry-run'], {
      cwd: work,
      env: { ...env, OPENAI_API_KEY: '' },
    });
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toMatch(/^kino: no AI provider is configured/);
    expect(none.stderr.trim().split('\n')).toHaveLength(1);

    standIn.script({ refusal: 'I will not make that.' });
    const refused = await runKino(['generate', 'anything', '--dry-run'], { cwd: work, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/kino: provider_refused: openai declined to write this video/);
    expect(refused.stderr).not.toContain(KEY);
  });

  it('generate works with a small local model: a 16k-context OpenAI-compatible server', async () => {
    const local = {
      ...env,
      OPENAI_API_KEY: '',
      OPENAI_COMPATIBLE_BASE_URL: standIn.baseURL['openai-compatible'],
      OPENAI_COMPATIBLE_MODEL: 'qwen3-8b-local',
    };
    standIn.setContextWindow(16_384);
    try {
      standIn.script({ json: SPEC });
      const before = standIn.requests.length;
      const result = await runKino(['generate', 'Two scenes: Hello, then World', '--dry-run'], {
        cwd: work,
        env: local,
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('kino: authoring with openai-compatible qwen3-8b-local');
      expect(JSON.parse(readFileSync(result.stdout.trim(), 'utf8'))).toEqual(SPEC);
      // The prompt left most of the 16k window for the answer; no AI SDK warning reached stderr.
      expect(standIn.promptTokens.at(-1)).toBeLessThan(10_000);
      expect(standIn.requests.length).toBe(before + 1);
      expect(result.stderr).not.toMatch(/AI SDK Warning/);

      // A window too small for the prompt is refused by the server, and kino says so in one line.
      standIn.setContextWindow(2_000);
      const over = await runKino(['generate', 'anything', '--dry-run'], { cwd: work, env: local });
      expect(over.code).toBe(1);
      const lines = over.stderr.trim().split('\n');
      expect(lines.every((line) => line.startsWith('kino: '))).toBe(true);
      expect(lines.at(-1)).toMatch(
        /^kino: provider_refused: openai-compatible refused the request \(400\): the request is over the model's context window \(\d+ prompt tokens, context window 2000\)/,
      );
    } finally {
      standIn.setContextWindow(undefined);
    }
  });
});
