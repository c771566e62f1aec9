// 2025-era clients over Streamable HTTP, with sessions as that revision defines them: initialize
// opens one (Mcp-Session-Id), later requests must carry it (400 without, 404 for an unknown or
// ended one), DELETE ends it. A session keeps one server instance, so a client's
// notifications/cancelled reaches the call it cancels (stateless serving would hand it to a fresh
// instance that knows nothing of the render). Sessions live in this process's memory: at most
// MAX_SESSIONS (a new one then ends the least recently used session with no call in progress), and a
// session with no call in progress ends after IDLE_MS without a request.
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
  /** Requests whose responses are still open (a tool call waiting for its render). */
  inFlight: number;
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
  /** Sessions being opened: counted against the cap before they exist. */
  #opening = 0;

  readonly #maxSessions: number;

  constructor(factory: () => McpServer, log: Logger, maxSessions = MAX_SESSIONS) {
    this.#factory = factory;
    this.#log = log;
    this.#maxSessions = maxSessions;
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
      session.inFlight++;
      res.once('close', () => {
        session.inFlight--;
        session.lastSeen = Date.now();
      });
      await session.transport.handleRequest(req, res, body);
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      refuse(res, 400, -32000, 'Bad Request: Mcp-Session-Id header required (send initialize first)');
      return;
    }
    if (this.#sessions.size + this.#opening >= this.#maxSessions && !this.#endLeastRecentlyUsed()) {
      refuse(res, 503, -32000, `too many MCP sessions busy (${this.#maxSessions}); retry later`);
      return;
    }
    this.#opening++;
    res.once('close', () => this.#opening--);
    const server = this.#factory();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        this.#sessions.set(sessionId, { transport, server, lastSeen: Date.now(), inFlight: 0 });
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

  #end(id: string, session: Session): void {
    this.#sessions.delete(id);
    void session.server.close().catch((error: unknown) => this.#log.debug({ err: error }, 'session close'));
  }

  /** Ends sessions with no call in progress and no request for IDLE_MS. */
  #endIdle(): void {
    const now = Date.now();
    for (const [id, session] of this.#sessions) {
      if (session.inFlight === 0 && now - session.lastSeen >= IDLE_MS) this.#end(id, session);
    }
  }

  /** Ends the least recently used session with no call in progress; false when every one is busy. */
  #endLeastRecentlyUsed(): boolean {
    let oldest: [string, Session] | undefined;
    for (const entry of this.#sessions) {
      if (entry[1].inFlight === 0 && (!oldest || entry[1].lastSeen < oldest[1].lastSeen)) oldest = entry;
    }
    if (!oldest) return false;
    this.#end(...oldest);
    return true;
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
    const sessions = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.all(sessions.map((session) => session.server.close().catch(() => undefined)));
  }
}
