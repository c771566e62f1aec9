// /mcp on a real `kino serve` with MCP_ENABLED=true, driven by the SDK's own client over Streamable
// HTTP in both protocol eras, and probed with plain HTTP for the transport's security rules.
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { probeFile } from '../main/ffmpeg/probe.ts';
import { TEST_API_TOKEN, readAnswer, until, useApiServers } from './api-server.ts';
import type { RunningApi } from './api-server.ts';
import { REPO_ROOT } from './cli-helpers.ts';
import {
  QUICK_SPEC,
  SLOW_SPEC,
  TINY_TEXT_SPEC,
  call,
  connect,
  expectEveryTool,
  expectFrameImage,
  expectSuccess,
} from './mcp-harness.ts';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const servers = useApiServers({ MCP_ENABLED: 'true' });

function transport(api: RunningApi, headers: Record<string, string> = {}) {
  return new StreamableHTTPClientTransport(new URL(`${api.baseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${TEST_API_TOKEN}`, ...headers } },
  });
}

const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

async function post(api: RunningApi, body: unknown, headers: Record<string, string> = {}) {
  return fetch(`${api.baseUrl}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${TEST_API_TOKEN}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

describe('MCP over Streamable HTTP (kino serve, MCP_ENABLED=true)', () => {
  it(
    'serves a 2026-07-28 client: tools, a render through the API queue with progress, a signed download',
    { timeout: 120_000 },
    async () => {
      const api = await servers.start();
      const client = await connect(transport(api), { modern: true });
      try {
        expect(client.getProtocolEra()).toBe('modern');
        await expectEveryTool(client);
        const progress: { progress: number; message?: string }[] = [];
        const result = expectSuccess(
          await call(
            client,
            'render_video',
            { spec: QUICK_SPEC, quality: 'draft' },
            { onprogress: (p) => progress.push(p) },
          ),
        );
        expect(result.status).toBe('succeeded');
        expect(progress.length).toBeGreaterThan(0);
        expect(progress.every((p) => p.message?.startsWith(String(result.id)))).toBe(true);
        const values = progress.map((p) => p.progress);
        expect(values).toEqual([...new Set(values)].sort((a, b) => a - b));
        expect(Math.max(...values)).toBeLessThan(100);
        // The render is an API job like any other.
        const job = await readAnswer(await api.api(`/v1/renders/${String(result.id)}`));
        expect(job.status).toBe(200);
        expect(job.body).toMatchObject({ status: 'succeeded', input: { kind: 'spec' } });
        expect((job.body.video as { sha256: string }).sha256).toBe(
          (result.receipt as { sha256: string }).sha256,
        );
        // The download link needs no header.
        const download = await fetch(result.downloadUrl as string);
        expect(download.status).toBe(200);
        const work = mkdtempSync(path.join(tmpdir(), 'kino-mcp-http-'));
        try {
          const file = path.join(work, 'video.mp4');
          writeFileSync(file, new Uint8Array(await download.arrayBuffer()));
          expect((await probeFile(file)).video).toMatchObject({
            codec: 'h264',
            width: 540,
            height: 540,
            frames: 15,
          });
        } finally {
          rmSync(work, { recursive: true, force: true });
        }
      } finally {
        await client.close();
      }
    },
  );

  it('serves a 2025-era client in a session: a frame image and a review', { timeout: 60_000 }, async () => {
    const api = await servers.start();
    const client = await connect(transport(api));
    try {
      expect(client.getProtocolEra()).toBe('legacy');
      const frame = await call(client, 'render_frame', { spec: TINY_TEXT_SPEC, frame: 12 });
      expect(await expectFrameImage(frame)).toEqual({ width: 432, height: 768 });
      expect(expectSuccess(frame).path).toBeUndefined();
      const review = expectSuccess(await call(client, 'review_video', { spec: TINY_TEXT_SPEC, frames: 4 }));
      expect(review.findings).toContainEqual(
        expect.objectContaining({ code: 'text_too_small', pointer: '/scenes/0/elements/1' }),
      );
      expect(review.findings).toContainEqual(
        expect.objectContaining({ code: 'missing_glyph', pointer: '/scenes/0/elements/2' }),
      );
      const composition = expectSuccess(await call(client, 'review_video', { key: 'stats', frames: 2 }));
      expect(composition.framesReviewed).toBe(2);
    } finally {
      await client.close();
    }
  });

  it(
    'refuses a foreign Origin (403), a missing or wrong token (401) and an unsupported protocol version (400)',
    { timeout: 60_000 },
    async () => {
      const api = await servers.start();
      const foreign = await post(api, LIST_TOOLS, { origin: 'https://evil.example' });
      expect(foreign.status).toBe(403);
      expect(await foreign.json()).toMatchObject({
        jsonrpc: '2.0',
        error: { message: expect.stringMatching(/origin/i) },
      });
      // The server's own origin may call it.
      const own = await post(api, INITIALIZE, { origin: api.baseUrl });
      expect(own.status).toBe(200);

      const anonymous = await fetch(`${api.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify(LIST_TOOLS),
      });
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
      const wrong = await post(api, LIST_TOOLS, { authorization: 'Bearer not-the-token-0123456789' });
      expect(wrong.status).toBe(401);

      const unsupported = await post(api, LIST_TOOLS, { 'mcp-protocol-version': '1999-01-01' });
      expect(unsupported.status).toBe(400);
      expect(await unsupported.text()).toMatch(/1999-01-01/);
    },
  );

  it(
    "keeps the 2025 revision's session rules: an id from initialize, 400 without one, 404 after DELETE",
    { timeout: 60_000 },
    async () => {
      const api = await servers.start();
      const opened = await post(api, INITIALIZE);
      expect(opened.status).toBe(200);
      const session = opened.headers.get('mcp-session-id');
      expect(session).toMatch(/^[0-9a-f-]{36}$/);
      const legacy = { 'mcp-protocol-version': '2025-06-18' };
      expect((await post(api, LIST_TOOLS, legacy)).status).toBe(400);
      expect((await post(api, LIST_TOOLS, { ...legacy, 'mcp-session-id': 'not-a-session' })).status).toBe(
        404,
      );
      const listed = await post(api, LIST_TOOLS, { ...legacy, 'mcp-session-id': session! });
      expect(listed.status).toBe(200);
      expect(await listed.text()).toContain('render_video');
      const ended = await fetch(`${api.baseUrl}/mcp`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${TEST_API_TOKEN}`, 'mcp-session-id': session!, ...legacy },
      });
      expect(ended.status).toBe(200);
      expect((await post(api, LIST_TOOLS, { ...legacy, 'mcp-session-id': session! })).status).toBe(404);
    },
  );

  for (const era of ['modern', 'legacy'] as const) {
    it(`cancels the render when a ${era}-era client cancels the call`, { timeout: 120_000 }, async () => {
      const api = await servers.start();
      const client = await connect(transport(api), { modern: era === 'modern' });
      try {
        const controller = new AbortController();
        let id: string | undefined;
        const rendering = call(
          client,
          'render_video',
          { spec: SLOW_SPEC },
          {
            signal: controller.signal,
            onprogress: (update) => {
              id ??= /^(rnd_\S+) /.exec(update.message ?? '')?.[1];
              if (/ rendering \d+ of/.test(update.message ?? '')) controller.abort('stop');
            },
          },
        );
        await expect(rendering).rejects.toThrow();
        expect(id).toBeDefined();
        const job = await until('the render to end canceled', async () => {
          const answer = await readAnswer(await api.api(`/v1/renders/${id}`));
          return answer.body.status === 'running' || answer.body.status === 'queued'
            ? undefined
            : answer.body;
        });
        expect(job).toMatchObject({ status: 'canceled', video: null });
        expect(existsSync(path.join(api.dataDir, 'files', id!))).toBe(false);
      } finally {
        await client.close();
      }
    });
  }

  it('documents itself at /v1/docs/mcp with configs that name this server', { timeout: 30_000 }, async () => {
    const api = await servers.start();
    const page = await fetch(`${api.baseUrl}/v1/docs/mcp`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const html = await page.text();
    expect(html).toContain(`This server serves MCP at <code>${api.baseUrl}/mcp</code>`);
    const blocks = [...html.matchAll(/<pre><code>([^<]+)<\/code><\/pre>/g)].map((m) =>
      m[1]!
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&'),
    );
    const http = JSON.parse(blocks[1]!) as { mcpServers: { kino: { url: string } } };
    expect(http.mcpServers.kino.url).toBe(`${api.baseUrl}/mcp`);
    expect(JSON.parse(blocks[0]!)).toMatchObject({
      mcpServers: { kino: { args: expect.arrayContaining(['mcp']) } },
    });
  });

  it(
    'lets a browser client on an origin of MCP_ALLOWED_ORIGINS call it (CORS)',
    { timeout: 30_000 },
    async () => {
      const api = await servers.start({ env: { MCP_ALLOWED_ORIGINS: 'app.example.com' } });
      const origin = 'https://app.example.com';
      const preflight = await fetch(`${api.baseUrl}/mcp`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(
        /authorization.*mcp-protocol-version/,
      );
      const opened = await post(api, INITIALIZE, { origin });
      expect(opened.status).toBe(200);
      expect(opened.headers.get('access-control-allow-origin')).toBe(origin);
      expect(opened.headers.get('access-control-expose-headers')).toMatch(/mcp-session-id/);
      const other = await fetch(`${api.baseUrl}/mcp`, {
        method: 'OPTIONS',
        headers: { origin: 'https://other.example.com' },
      });
      expect(other.status).toBe(403);
    },
  );

  it('names no server path in a tool error', { timeout: 30_000 }, async () => {
    const api = await servers.start();
    const client = await connect(transport(api));
    try {
      const spec = {
        ...QUICK_SPEC,
        scenes: [{ duration: '1s', elements: [{ type: 'image', src: 'asset:missing/nowhere.png' }] }],
      };
      const answer = await call(client, 'render_frame', { spec });
      expect(answer.isError).toBe(true);
      const text = answer.content.map((block) => block.text ?? '').join('\n');
      expect(text).toMatch(/nowhere\.png/);
      expect(text).not.toContain(REPO_ROOT);
      expect(text).not.toContain(api.dataDir);
    } finally {
      await client.close();
    }
  });

  it(
    'leaves a render it was waiting for alone when the server stops: it is not canceled',
    { timeout: 120_000 },
    async () => {
      const env = { SHUTDOWN_GRACE: '0' };
      const api = await servers.start({ env });
      const client = await connect(transport(api), { modern: true });
      const controller = new AbortController();
      let id: string | undefined;
      const waiting = call(
        client,
        'render_video',
        { spec: SLOW_SPEC },
        {
          signal: controller.signal,
          onprogress: (update) => {
            id ??= /^(rnd_\S+) /.exec(update.message ?? '')?.[1];
          },
        },
      ).catch((error: unknown) => error);
      await until('the render to start', () => id !== undefined);
      expect(await api.stop('SIGTERM')).toBe(0);
      // The client would wait out its own timeout for an answer that will not come: stop waiting.
      controller.abort();
      await waiting;
      await client.close().catch(() => undefined);
      const restarted = await servers.start({ dataDir: api.dataDir, env });
      const job = await readAnswer(await restarted.api(`/v1/renders/${id}`));
      expect(['queued', 'running']).toContain(job.body.status);
      expect((await restarted.api(`/v1/renders/${id}`, { method: 'DELETE' })).status).toBe(200);
    },
  );

  it('is absent unless MCP_ENABLED', { timeout: 30_000 }, async () => {
    const api = await servers.start({ env: { MCP_ENABLED: 'false' } });
    expect((await post(api, LIST_TOOLS)).status).toBe(404);
  });
});
