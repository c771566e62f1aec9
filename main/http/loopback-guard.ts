// Who may talk to a loopback server (the workspace, the studio, `kino preview`): only this machine,
// through the address it bound, and for the workspace with its token.
// - Host must name the loopback address and port the server listens on: a web page that rebinds
//   its own DNS name to 127.0.0.1 still sends its own name, and is refused (403).
// - An Origin, when sent, must be the server's own: another site's scripts are refused (403).
// - X-Kino-Token is compared in constant time; a token in the query string is refused outright, so
//   it never lands in a log, a history or a Referer.
import type { FastifyRequest } from 'fastify';
import { tokensEqual } from './auth.ts';
import { TOKEN_HEADER } from '../../shared/protocol/workspace.ts';
import { Problem } from './problem.ts';

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

/** True when `host` (the Host header) names a loopback address and exactly the server's port. */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  return host !== undefined && allowedHosts(port).has(host.toLowerCase());
}

/**
 * The Host and Origin checks alone: for a server with nothing secret to guard but the project files
 * it serves (`kino preview`), which a DNS-rebinding page must not read.
 */
export function loopbackOnly(port: () => number) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!isLoopbackHost(request.headers.host, port())) {
      throw new Problem(
        403,
        'forbidden_host',
        `Host "${request.headers.host ?? ''}" is not this server's loopback address (127.0.0.1:${port()})`,
      );
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !allowedOrigins(port()).has(origin.toLowerCase())) {
      throw new Problem(403, 'forbidden_origin', `Origin "${origin}" is not this server's own origin`);
    }
  };
}

export function workspaceGuard(token: string, port: () => number, options: GuardOptions = {}) {
  const checkLoopback = loopbackOnly(port);
  return async (request: FastifyRequest): Promise<void> => {
    await checkLoopback(request);
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
