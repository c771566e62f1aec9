// StudioAuthoring with a configured provider (the loopback stand-in): which provider it reports, one
// job at a time, and a cancel that stops the child process's work.
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProviderStandIn } from '../authoring/provider-stand-in.fixture.ts';
import type { ProviderStandIn } from '../authoring/provider-stand-in.fixture.ts';
import { StudioAuthoring } from './authoring-jobs.ts';

describe('StudioAuthoring', () => {
  let standIn: ProviderStandIn;
  let root: string;

  beforeAll(async () => {
    standIn = await startProviderStandIn();
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'kino-authoring-jobs-')));
    writeFileSync(path.join(root, 'kino.json'), JSON.stringify({ name: 'words' }));
  });
  afterAll(async () => {
    await standIn?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  const env = () => ({
    OPENAI_API_KEY: 'sk-jobs-test',
    OPENAI_BASE_URL: standIn.baseURL.openai,
    OPENAI_MODEL: 'gpt-stand-in',
  });

  it('reports the provider and model it would use', () => {
    expect(new StudioAuthoring(env()).availability()).toEqual({
      configured: true,
      provider: 'openai',
      model: 'gpt-stand-in',
      message: 'Authoring with openai gpt-stand-in',
    });
  });

  it('says what is contradictory in the settings instead of throwing', () => {
    const availability = new StudioAuthoring({ ...env(), AI_PROVIDER: 'anthropic' }).availability();
    expect(availability.configured).toBe(false);
    expect(availability.message).toMatch(/AI_PROVIDER is "anthropic"/);
  });

  it('runs one job at a time, and a cancel ends it', async () => {
    standIn.script({ hang: true });
    const authoring = new StudioAuthoring(env());
    const place = { projectFile: path.join(root, 'generated.json') };
    const job = authoring.start({ kind: 'generate', prompt: 'A title card' }, place);
    expect(job).toMatchObject({ state: 'running', provider: 'openai', model: 'gpt-stand-in' });
    expect(() => authoring.start({ kind: 'generate', prompt: 'Another' }, place)).toThrow(
      /another authoring is running/,
    );
    expect(authoring.cancel(job.id)).toMatchObject({ state: 'canceled', error: 'canceled' });
    expect(authoring.start({ kind: 'generate', prompt: 'Another' }, place).state).toBe('running');
    authoring.close();
  });
});
