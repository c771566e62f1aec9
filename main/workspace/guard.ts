// Who may talk to a workspace: only this machine, through the address it bound, with the token.
// - Host must name the loopback address and port the server listens on: a web page that rebinds
//   its own DNS name to 127.0.0.1 still sends its own name, and is refused (403).
// - An Origin, when sent, must be the server's own: another site's scripts are refused (403).
// - X-Kino-Token is compared in constant time; a token in the query string is refused outright, so
//   it never lands in a log, a history or a Referer.
import type { FastifyRequest } from 'fastify';
import { tokensEqual } from '../api/auth.ts';
import { Problem } from '../api/problem.ts';

export const TOKEN_HEADER = 'x-kino-token';

/** The names a workspace answers to (and the only endpoints the session CLI sends its token to). */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

export function allowedHosts(port: number): Set<string> {
  return new Set(LOOPBACK_HOSTS.map((host) => `${host}:${port}`));
}

export function allowedOrigins(port: number): Set<string> {
  return new Set(LOOPBACK_HOSTS.map((host) => `http://${host}:${port}`));
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface GuardOptions {
  /** Static UI files: served to the loopback origin without the token (no secrets in them). */
  isPublic?: (pathname: string) => boolean;
}

export function workspaceGuard(token: string, port: () => number, options: GuardOptions = {}) {
  return async (request: FastifyRequest): Promise<void> => {
    const host = request.headers.host?.toLowerCase();
    if (!host || !allowedHosts(port()).has(host)) {
      throw new Problem(
        403,
        'forbidden_host',
        `Host "${request.headers.host ?? ''}" is not this workspace's loopback address (127.0.0.1:${port()})`,
      );
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins(port()).has(origin.toLowerCase())) {
      throw new Problem(403, 'forbidden_origin', `Origin "${origin}" is not this workspace's own origin`);
    }
    // Looked for in the raw query, any case, any separator: "?a=1?token=…" is refused too.
    const query = request.url.slice(request.url.indexOf('?') + 1 || request.url.length);
    if (/(^|[?&;])(x-kino-)?token=/i.test(decodeURIComponentSafe(query))) {
      throw new Problem(
        400,
        'token_in_query',
        'the token is accepted only in the X-Kino-Token header, never in the URL',
      );
    }
    if (options.isPublic && request.method === 'GET') {
      const pathname = request.url.split('?', 1)[0] ?? '';
      if (!pathname.includes('%') && options.isPublic(pathname)) return;
    }
    const given = request.headers[TOKEN_HEADER];
    if (typeof given !== 'string' || given === '') {
      throw new Problem(401, 'unauthorized', 'send the workspace token in the X-Kino-Token header');
    }
    if (!tokensEqual(given, token)) {
      throw new Problem(401, 'unauthorized', "the X-Kino-Token is not this workspace's token");
    }
  };
}
