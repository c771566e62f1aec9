import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/server';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { LegacySessions } from './legacy-sessions.ts';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const LIST = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function serve(maxSessions: number) {
  const sessions = new LegacySessions(
    () => new McpServer({ name: 't', version: '1' }),
    pino({ level: 'silent' }),
    maxSessions,
  );
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => void sessions.handle(req, res, text ? JSON.parse(text) : undefined));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = async () => {
    await sessions.close();
    await new Promise((resolve) => server.close(resolve));
  };
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const post = (body: unknown, session?: string) =>
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        ...(session ? { 'mcp-session-id': session } : {}),
      },
      body: JSON.stringify(body),
    });
  return { sessions, post };
}

describe('LegacySessions', () => {
  it('at the cap, a new session ends the least recently used idle one', async () => {
    const { sessions, post } = await serve(2);
    const open = async () => (await post(INITIALIZE)).headers.get('mcp-session-id')!;
    const first = await open();
    const second = await open();
    expect((await post(LIST, first)).status).toBe(200); // first is now the more recently used
    const third = await open();
    expect(third).toBeTruthy();
    expect(sessions.size).toBe(2);
    expect((await post(LIST, second)).status).toBe(404);
    expect((await post(LIST, first)).status).toBe(200);
    expect((await post(LIST, third)).status).toBe(200);
  });

  it('refuses requests without a session, and unknown sessions', async () => {
    const { post } = await serve(2);
    expect((await post(LIST)).status).toBe(400);
    expect((await post(LIST, 'nope')).status).toBe(404);
  });
});
