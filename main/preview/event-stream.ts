// Server-Sent Events to every open preview page: the live-reload channel.
import type { ServerResponse } from 'node:http';

/** Comment lines keep idle connections from being dropped by proxies and browser timeouts. */
const HEARTBEAT_MS = 15_000;

export class EventStream {
  readonly #clients = new Set<ServerResponse>();
  readonly #heartbeat: NodeJS.Timeout;

  constructor() {
    this.#heartbeat = setInterval(() => {
      for (const client of this.#clients) client.write(': keep-alive\n\n');
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  get size(): number {
    return this.#clients.size;
  }

  /** Takes over `response` as an event stream; `first` is sent at once (the current state). */
  open(response: ServerResponse, first?: { event: string; data: unknown }): void {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    // Reconnect quickly after a server restart.
    response.write('retry: 500\n\n');
    this.#clients.add(response);
    response.on('close', () => this.#clients.delete(response));
    if (first) response.write(formatEvent(first.event, first.data));
  }

  broadcast(event: string, data: unknown): void {
    const text = formatEvent(event, data);
    for (const client of this.#clients) client.write(text);
  }

  close(): void {
    clearInterval(this.#heartbeat);
    for (const client of this.#clients) client.end();
    this.#clients.clear();
  }
}

function formatEvent(event: string, data: unknown): string {
  // JSON has no raw newlines, so the payload is always a single data line.
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
