import { symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BuildState } from '../../shared/protocol/preview.ts';
import { startPreviewServer } from './server.ts';
import type { PreviewServer } from './server.ts';
import { makeTestProject } from './test-project.fixture.ts';
import type { TestProject } from './test-project.fixture.ts';

let project: TestProject | undefined;
let server: PreviewServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  project?.cleanup();
});

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A route under the server's session key. */
function get(path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return getRaw(`${server!.base}${path}`, headers);
}

/** A raw request, so the Host header can be anything (fetch would not let a test forge it). */
function getRaw(path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server!.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const media = (src: string) => get(`/media?src=${encodeURIComponent(src)}`);

async function start(): Promise<PreviewServer> {
  project = makeTestProject();
  server = await startPreviewServer({ file: project.composition });
  return server;
}

/** Reads build events from /events as they arrive. */
function subscribe(): { next(): Promise<BuildState>; close(): void } {
  const queue: BuildState[] = [];
  const waiting: ((state: BuildState) => void)[] = [];
  let buffer = '';
  const req = request({ host: '127.0.0.1', port: server!.port, path: `${server!.base}/events` }, (res) => {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (!/^event: build$/m.test(block) || data === undefined) continue;
        const state = JSON.parse(data) as BuildState;
        const waiter = waiting.shift();
        if (waiter) waiter(state);
        else queue.push(state);
      }
    });
  });
  req.on('error', () => undefined);
  req.end();
  return {
    next: () => {
      const queued = queue.shift();
      return queued ? Promise.resolve(queued) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => req.destroy(),
  };
}

describe('preview server', () => {
  it('serves the page, the page script, the composition and the bundled fonts', async () => {
    await start();
    const page = await get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body.toString()).toContain('<canvas id="canvas"');
    expect(page.body.toString()).toContain('"file":');

    const script = await get('/preview.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body.toString()).toContain('drawFrame');

    const composition = await get('/composition.js?build=x');
    expect(composition.status).toBe(200);
    expect(composition.body.toString()).toContain('Hello preview');

    const css = (await get('/fonts.css')).body.toString();
    for (const family of ['Kino Sans', 'Kino Serif', 'Kino Mono', 'Kino Display']) {
      expect(css).toContain(`font-family: '${family}'`);
    }
    const font = await get('/fonts/0.ttf');
    expect(font.status).toBe(200);
    expect(font.headers['content-type']).toBe('font/ttf');
    expect(font.body.length).toBeGreaterThan(10_000);
    expect((await get('/fonts/9999.ttf')).status).toBe(404);
    // The fallback chain's faces, in the order the drawing code's stacks list them.
    expect(css).toContain("font-family: 'Kino Symbols'");
    const emoji = /url\('fonts\/(\d+)\.woff2'\) format\('woff2'\); font-weight: 100 900;/.exec(css);
    expect(css.slice(css.lastIndexOf('@font-face', emoji!.index))).toMatch(
      /^@font-face \{ font-family: 'Kino Emoji'/,
    );
    const woff2 = await get(`/fonts/${emoji![1]}.woff2`);
    expect(woff2.headers['content-type']).toBe('font/woff2');
    expect(woff2.body.subarray(0, 4).toString('latin1')).toBe('wOF2');
    expect((await get(`/fonts/${emoji![1]}.ttf`)).status).toBe(404);
    expect((await get('/nothing-here')).status).toBe(404);
  });

  it('serves nothing without the session key its printed URL carries', async () => {
    const { url, base } = await start();
    expect(url).toBe(`http://127.0.0.1:${server!.port}${base}/`);
    expect(base).toMatch(/^\/[A-Za-z0-9_-]{24}$/);
    const wrongKey = `/${'A'.repeat(24)}`;
    for (const path of [
      '/',
      '/media?src=asset%3Alogo.png',
      '/media?src=kino.json',
      '/composition.js',
      '/events',
      `${wrongKey}/media?src=asset%3Alogo.png`,
      `${wrongKey}/`,
      `${base.slice(0, -1)}/media?src=asset%3Alogo.png`,
    ]) {
      const reply = await getRaw(path);
      expect(reply.status, path).toBe(404);
      expect(reply.body.toString(), path).toContain('session key');
    }
    expect((await get('/media?src=asset%3Alogo.png')).status).toBe(200);
  });

  it('serves only media from the project: never its config, sources or a .env', async () => {
    await start();
    writeFileSync(join(project!.root, '.env'), 'SECRET=1');
    for (const src of ['kino.json', '.env', 'comp.ts', 'assets/../palette.ts']) {
      const reply = await media(src);
      expect(reply.status, src).not.toBe(200);
      expect(reply.body.toString(), src).not.toContain('SECRET=1');
      expect(reply.body.toString(), src).not.toContain('Hello preview');
    }
    // Refused by the media gate every render shares, before the preview's own media-type check.
    for (const src of ['comp.ts', '.env', 'kino.json']) {
      const refused = await media(src);
      expect(refused.status, src).toBe(403);
      expect(JSON.parse(refused.body.toString()), src).toMatchObject({ code: 'media_private_file' });
    }
  });

  it('answers 403 to any Host but a loopback name on its own port', async () => {
    const { port } = await start();
    expect((await get('/', { host: `localhost:${port}` })).status).toBe(200);
    expect((await get('/', { host: `[::1]:${port}` })).status).toBe(200);
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1:${port + 1}`,
      'localhost',
      'rebind.evil.example',
    ]) {
      expect((await get('/', { host })).status, host).toBe(403);
      expect((await get('/media?src=asset%3Alogo.png', { host })).status, host).toBe(403);
      expect((await get('/events', { host })).status, host).toBe(403);
    }
  });

  it('serves project media by its spec source, with byte ranges', async () => {
    await start();
    const logo = await media('asset:logo.png');
    expect(logo.status).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.body.subarray(1, 4).toString()).toBe('PNG');
    expect((await media('assets/logo.png')).status).toBe(200); // relative to the project root

    // Unchanged since the last load: revalidated without the bytes.
    const etag = String(logo.headers.etag);
    const again = await get('/media?src=asset%3Alogo.png', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);

    const part = await get('/media?src=asset%3Alogo.png', { range: 'bytes=0-9' });
    expect(part.status).toBe(206);
    expect(part.body.length).toBe(10);
    expect(part.headers['content-range']).toMatch(/^bytes 0-9\/\d+$/);
  });

  it('refuses media paths that escape the project', async () => {
    await start();
    const secret = join(project!.base, 'secret.txt');
    symlinkSync(secret, join(project!.root, 'assets', 'link.txt'));
    for (const src of [
      'asset:../../secret.txt',
      '../secret.txt',
      'assets/../../secret.txt',
      secret,
      'file:///etc/passwd',
      'asset:link.txt', // a symlink inside pointing out
    ]) {
      const reply = await media(src);
      expect(reply.status, src).toBe(403);
      expect(reply.body.toString(), src).not.toContain('not for the browser');
    }
    expect((await media('asset:missing.png')).status).toBe(404);
    // Remote hosts need the project's allowHosts, as for a render; this project allows none.
    const remote = await media('https://example.com/a.png');
    expect(remote.status).toBe(403);
    expect(JSON.parse(remote.body.toString())).toMatchObject({ code: 'media_host_not_allowed' });
  });

  it('pushes a new build over SSE when a file in the import graph changes, and compile errors as data', async () => {
    await start();
    await server!.composition.ready();
    const events = subscribe();
    try {
      const first = await events.next();
      expect(first.ok).toBe(true);

      writeFileSync(project!.palette, "export const accent = '#22d3ee';\n");
      const second = await events.next();
      expect(second).toMatchObject({ ok: true });
      expect(second.id).not.toBe(first.id);
      expect((await get('/composition.js')).body.toString()).toContain('#22d3ee');

      writeFileSync(project!.palette, 'export const accent = ;\n');
      const broken = await events.next();
      expect(broken.ok).toBe(false);
      if (!broken.ok) {
        expect(broken.problems[0]).toMatchObject({ file: project!.palette, line: 1, column: 23 });
      }
      // The server keeps running and still serves the last good bundle.
      expect((await get('/')).status).toBe(200);
      expect((await get('/composition.js')).status).toBe(409);

      writeFileSync(project!.palette, "export const accent = '#a3e635';\n");
      expect(await events.next()).toMatchObject({ ok: true });
    } finally {
      events.close();
    }
  });

  it('pushes a new build when an asset changes', async () => {
    await start();
    await server!.composition.ready();
    const events = subscribe();
    try {
      const first = await events.next();
      writeFileSync(join(project!.root, 'assets', 'logo.png'), Buffer.from('changed'));
      expect((await events.next()).id).not.toBe(first.id);
    } finally {
      events.close();
    }
  });
});
