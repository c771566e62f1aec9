// Bearer-token checks. Tokens are compared as SHA-256 digests with timingSafeEqual, so neither
// their content nor their length leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { WindowLimiter } from './window-limiter.ts';
import { Problem } from './problem.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

export function tokensEqual(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an `Authorization: Bearer <token>` header, if there is one. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * A rate-limit key for the caller: which of the server's tokens it holds, else its address. Only a
 * valid token earns its own budget; any other bearer value counts against the address, so inventing
 * tokens buys nothing.
 */
export function rateLimitKey(tokens: () => Record<string, string | undefined>) {
  return (request: FastifyRequest): string => {
    const given = bearerToken(request);
    if (given !== undefined) {
      for (const [name, token] of Object.entries(tokens())) {
        if (token && tokensEqual(given, token)) return `token:${name}`;
      }
    }
    return `ip:${request.ip}`;
  };
}

/**
 * A hook that admits only requests bearing `expected` (`what` names it in the answer). With a
 * limiter, each refusal counts against the caller's address, and an address over its limit is
 * answered 429 before its token is looked at.
 */
export function requireBearer(expected: () => string | undefined, what: string, failures?: WindowLimiter) {
  return async (request: FastifyRequest): Promise<void> => {
    failures?.assertAllowed(request.ip);
    try {
      checkBearer(request, expected(), what);
    } catch (error) {
      failures?.record(request.ip);
      throw error;
    }
  };
}

function checkBearer(request: FastifyRequest, configured: string | undefined, what: string): void {
  const given = bearerToken(request);
  const challenge = { 'www-authenticate': 'Bearer realm="kino"' };
  if (!configured) {
    throw new Problem(
      401,
      'unauthorized',
      `${what} is not configured on this server, so this endpoint is closed`,
      {
        headers: challenge,
      },
    );
  }
  if (given === undefined) {
    throw new Problem(401, 'unauthorized', `send "Authorization: Bearer <${what}>"`, {
      headers: challenge,
    });
  }
  if (!tokensEqual(given, configured)) {
    throw new Problem(401, 'unauthorized', `the bearer token is not the ${what}`, { headers: challenge });
  }
}
