// The studio's routes on a real workspace (in-process, real HTTP on loopback): who may fetch what.
import { mkdtempSync, realpathSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StudioHost } from './host.ts';
import { previewKeyFor } from './preview-routes.ts';
import { studioUiDir } from './build-ui.ts';

const COMPOSITION = `import { scene, text, video } from 'kino';
export default video({ fps: 30, aspect: 'square' }, [scene({ duration: '1s' }, [text('Hello')])]);
`;

describe('studio routes', () => {
  let root: string;
  let host: StudioHost;
  let endpoint: string;
  let token: string;

  const get = (pathname: string, headers: Record<string, string> = {}) =>
    fetch(`${endpoint}${pathname}`, { headers, redirect: 'manual' });
  const authed = (pathname: string, init: RequestInit = {}) =>
    fetch(`${endpoint}${pathname}`, {
      ...init,
      headers: { 'x-kino-token': token, 'content-type': 'application/json', ...init.headers },
    });

  beforeAll(async () => {
    root = realpathSync(mkdtempSync(path.join(tmpdir(), 'kino-studio-routes-')));
    mkdirSync(path.join(root, 'assets'));
    writeFileSync(
      path.join(root, 'kino.json'),
      JSON.stringify({ name: 'studio routes', assetsDir: 'assets' }),
    );
    writeFileSync(path.join(root, 'hello.ts'), COMPOSITION);
    writeFileSync(path.join(root, 'notes.txt'), 'not a composition');
    writeFileSync(
      path.join(root, 'card.json'),
      JSON.stringify({ kinoSpec: 1, variables: { who: { type: 'string', default: 'Ada' } }, scenes: [] }),
    );
    host = new StudioHost({
      dataDir: path.join(root, '.data'),
      mode: 'browser',
      appVersion: '0.0.0-test',
      uiDir: await studioUiDir(),
    });
    ({ endpoint, token } = await host.open(path.join(root, 'hello.ts')));
  });

  afterAll(async () => {
    await host?.close();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('serves the UI without the token, with a strict Content-Security-Policy', async () => {
    const page = await get('/studio/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root">');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('refuses another Host and another Origin even for the public UI', async () => {
    // fetch will not send another Host: a raw request does, as a DNS-rebinding page would.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const url = new URL('/studio/', endpoint);
      request(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'evil.example' } },
        (answer) => {
          answer.resume();
          resolve(answer.statusCode);
        },
      )
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
    expect((await get('/studio/', { origin: 'http://evil.example' })).status).toBe(403);
  });

  it('keeps the host API behind the token', async () => {
    expect((await get('/studio/api/session')).status).toBe(401);
    const session = (await (await authed('/studio/api/session')).json()) as Record<string, unknown>;
    expect(session.source).toBe(path.join(root, 'hello.ts'));
    expect(session.previewKey).toBe(previewKeyFor(token));
    expect(session.mode).toBe('browser');
  });

  it('serves the preview only under the preview key, never the token', async () => {
    const key = previewKeyFor(token);
    const code = await get(`/studio/preview/${key}/composition.js`);
    expect(code.status).toBe(200);
    expect(await code.text()).toContain('Hello');
    expect((await get(`/studio/preview/${'0'.repeat(32)}/composition.js`)).status).toBe(404);
    expect((await get(`/studio/preview/${token}/composition.js`)).status).toBe(404);
  });

  it('serves an export for its player under the preview key, in ranges, and nothing else', async () => {
    const key = previewKeyFor(token);
    const session = (await (await authed('/studio/api/session')).json()) as { resultsDir: string };
    const renders = path.join(session.resultsDir, 'renders');
    mkdirSync(renders, { recursive: true });
    writeFileSync(path.join(renders, 'hello-abc.mp4'), 'not really a video, but bytes');
    writeFileSync(path.join(renders, 'hello-abc.render.json'), '{}');

    const whole = await get(`/studio/exports/${key}/hello-abc.mp4`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(await whole.text()).toBe('not really a video, but bytes');
    const part = await get(`/studio/exports/${key}/hello-abc.mp4`, { range: 'bytes=4-9' });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('really');

    const refused = [
      `/studio/exports/${'0'.repeat(32)}/hello-abc.mp4`, // another key
      `/studio/exports/${token}/hello-abc.mp4`, // the token itself is no key
      `/studio/exports/${key}/hello-abc.render.json`, // not a video
      `/studio/exports/${key}/missing.mp4`,
      `/studio/exports/${key}/..%2F..%2Fkino.json`,
      `/studio/exports/${key}/.hidden.mp4`,
    ];
    // 404, or 401 where the guard already refuses a path that leaves the public prefix once decoded.
    for (const pathname of refused) expect([401, 404], pathname).toContain((await get(pathname)).status);
  });

  it('opens only compositions, with a one-line reason', async () => {
    const answer = await authed('/studio/api/open', {
      method: 'POST',
      body: JSON.stringify({ path: 'notes.txt' }),
    });
    expect(answer.status).toBe(400);
    const problem = (await answer.json()) as { code: string; detail: string };
    expect(problem.code).toBe('not_a_composition');
    expect(problem.detail).toMatch(/not a composition/);
  });

  it('reveals only the composition and its results', async () => {
    const answer = await authed('/studio/api/reveal', {
      method: 'POST',
      body: JSON.stringify({ path: path.join(root, 'kino.json') }),
    });
    expect(answer.status).toBe(403);
  });

  it('lists the project inputs by kind and hands Monaco the kino types', async () => {
    const list = (await (await authed('/studio/api/compositions')).json()) as {
      relative: string;
      kind: string;
    }[];
    expect(list.map((entry) => `${entry.relative} ${entry.kind}`)).toEqual([
      'card.json template',
      'hello.ts composition',
    ]);
    const types = (await (await authed('/studio/api/types')).json()) as { path: string }[];
    expect(types.some((lib) => lib.path === 'file:///node_modules/kino/index.d.ts')).toBe(true);
  });
});
