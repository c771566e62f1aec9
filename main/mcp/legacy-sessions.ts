// 2025-era clients over Streamable HTTP, with sessions as that revision defines them: initialize
// opens one (Mcp-Session-Id), later requests must carry it (400 without, 404 for an unknown or
// ended one), DELETE ends it. A session keeps one server instance, so a client's
// notifications/cancelled reaches the call it cancels (stateless serving would hand it to a fresh
// instance that knows nothing of the render). Sessions live in this process's memory, at most
// MAX_SESSIONS, and end after IDLE_MS without a request.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { isInitializeRequest } from '@modelcontextprotocol/server';
import type { McpServer } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';

export const MAX_SESSIONS = 200;
export const IDLE_MS = 30 * 60_000;

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
}

function refuse(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

export class LegacySessions {
  readonly #sessions = new Map<string, Session>();
  readonly #factory: () => McpServer;
  readonly #log: Logger;
  readonly #sweep: NodeJS.Timeout;

  constructor(factory: () => McpServer, log: Logger) {
    this.#factory = factory;
    this.#log = log;
    this.#sweep = setInterval(() => this.#endIdle(), 60_000);
    this.#sweep.unref();
  }

  get size(): number {
    return this.#sessions.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const header = req.headers['mcp-session-id'];
    const id = Array.isArray(header) ? header[0] : header;
    if (id !== undefined) {
      const session = this.#sessions.get(id);
      if (!session) {
        refuse(res, 404, -32001, 'Session not found: it ended or never existed; initialize a new one');
        return;
      }
      session.lastSeen = Date.now();
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      refuse(res, 400, -32000, 'Bad Request: Mcp-Session-Id header required (send initialize first)');
      return;
    }
    if (this.#sessions.size >= MAX_SESSIONS) {
      this.#endIdle();
      if (this.#sessions.size >= MAX_SESSIONS) {
        refuse(
          res,
          503,
          -32000,
          `too many MCP sessions (${MAX_SESSIONS}); end one with DELETE, or retry later`,
        );
        return;
      }
    }
    const server = this.#factory();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        this.#sessions.set(sessionId, { transport, server, lastSeen: Date.now() });
      },
      onsessionclosed: (sessionId) => {
        this.#sessions.delete(sessionId);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) this.#sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  /** Ends sessions idle longer than `idleMs` (all idle ones at 0). */
  #endIdle(idleMs = IDLE_MS): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      if (now - session.lastSeen < idleMs) continue;
      this.#sessions.delete(id);
      void session.server.close().catch((error: unknown) => this.#log.debug({ err: error }, 'session close'));
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.server.close().catch(() => undefined)));
  }
}
