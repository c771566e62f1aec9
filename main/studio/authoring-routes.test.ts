// The authoring routes on a real workspace (in-process, real HTTP on loopback): the request schema,
// the token, and the refusals, each a problem the UI shows as it is.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PROMPT_CHARS } from '../../shared/studio/authoring.ts';
import { StudioHost } from './host.ts';
import { studioUiDir } from './build-ui.ts';

const COMPOSITION = `import { scene, text, video } from 'kino';
export default video({ fps: 30, aspect: 'square' }, [scene({ duration: '1s' }, [text('Hello')])]);
`;

describe('authoring routes, on a host without an AI provider', () => {
  let root: string;
  let host: StudioHost;
  let endpoint: string;
  let token: string;

  const call = (pathname: string, init: RequestInit = {}, withToken = true) =>
    fetch(`${endpoint}${pathname}`, {
      ...init,
      headers: {
        ...(withToken ? { 'x-kino-token': token } : {}),
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
    });
  const post = (body: unknown, withToken = true) =>
    call('/studio/api/authoring/jobs', { method: 'POST', body: JSON.stringify(body) }, withToken);

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'kino-authoring-routes-')));
    mkdirSync(path.join(root, 'assets'));
    writeFileSync(path.join(root, 'kino.json'), JSON.stringify({ name: 'words', assetsDir: 'assets' }));
    writeFileSync(path.join(root, 'hello.ts'), COMPOSITION);
    host = new StudioHost({
      dataDir: path.join(root, '.data'),
      mode: 'browser',
      appVersion: '0.0.0-test',
      uiDir: await studioUiDir(),
      aiEnv: { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '' },
    });
    ({ endpoint, token } = await host.open(path.join(root, 'hello.ts')));
  });

  afterAll(async () => {
    await host?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('says there is no provider, naming every variable that configures one', async () => {
    const response = await call('/studio/api/authoring');
    expect(response.status).toBe(200);
    const availability = (await response.json()) as { configured: boolean; message: string };
    expect(availability.configured).toBe(false);
    for (const name of [
      'OPENAI_API_KEY',
      'ANTHROPIC_API_KEY',
      'GOOGLE_GENERATIVE_AI_API_KEY',
      'OPENAI_COMPATIBLE_BASE_URL',
      'OPENAI_COMPATIBLE_MODEL',
    ]) {
      expect(availability.message).toContain(name);
    }
  });

  it('refuses a well-formed job with 503 and the same line', async () => {
    const response = await post({ kind: 'generate', prompt: 'A title card' });
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({
      code: 'no_ai_provider',
      detail: expect.stringContaining('OPENAI_API_KEY'),
    });
  });

  it('checks the request against its schema before anything else', async () => {
    const refused = [
      { kind: 'generate', prompt: '' },
      { kind: 'generate', prompt: 'x'.repeat(MAX_PROMPT_CHARS + 1) },
      { kind: 'generate', prompt: 'ok', folder: '/etc' },
      { kind: 'edit', spec: 'not an object', change: 'bigger' },
      { kind: 'edit', spec: {}, change: '' },
      { kind: 'publish', prompt: 'ok' },
    ];
    for (const body of refused) {
      const response = await post(body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
  });

  it('needs the token, and answers a job it does not know with 404 (a malformed id with 400)', async () => {
    expect((await post({ kind: 'generate', prompt: 'A title card' }, false)).status).toBe(401);
    expect((await call('/studio/api/authoring', {}, false)).status).toBe(401);
    const unknown = await call('/studio/api/authoring/jobs/00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('unknown_job');
    expect((await call('/studio/api/authoring/jobs/..%2F..%2Fetc')).status).toBe(400);
  });
});
