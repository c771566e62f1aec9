// app://kino/: the built UI (dist/renderer) for the welcome screen, shown when no composition is
// open. A privileged standard scheme, so the page gets a real origin for 'self' in the CSP, ES
// modules and fetch, without the looser rules file:// pages get.
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { protocol } from 'electron';
import type { Session } from 'electron';
import { APP_ORIGIN, APP_SCHEME, contentSecurityPolicy, originOf, resolveAppFile } from './security.ts';
import { contentTypeFor } from '../http/content-type.ts';

/** Must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ]);
}

function notFound(): Response {
  return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain' } });
}

/** Serves files under `root` only: the path is checked, then the real path (no symlinks out). */
export function serveAppProtocol(session: Session, root: string): void {
  const realRoot = realpath(root).catch(() => path.resolve(root));
  session.protocol.handle(APP_SCHEME, async (request) => {
    if (request.method !== 'GET' || originOf(request.url) !== APP_ORIGIN) return notFound();
    const file = resolveAppFile(root, new URL(request.url).pathname);
    if (!file) return notFound();
    try {
      const real = await realpath(file);
      const relative = path.relative(await realRoot, real);
      if (relative.startsWith('..') || path.isAbsolute(relative)) return notFound();
      const body = await readFile(real);
      return new Response(body, {
        headers: {
          'content-type': contentTypeFor(real),
          'content-security-policy': contentSecurityPolicy(),
          'x-content-type-options': 'nosniff',
          'cache-control': 'no-cache',
        },
      });
    } catch {
      return notFound();
    }
  });
}
