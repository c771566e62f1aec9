// `kino preview`: a loopback server that plays a composition in the browser. It serves the page and
// the page script (bundled for the browser by esbuild), and a PreviewSite: the composition rebuilt on
// every change of its sources or assets and pushed over Server-Sent Events, the bundled fonts and the
// project's media. Requests must name the loopback address and port it bound (DNS rebinding).
import { randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import Fastify from 'fastify';
import { PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';
import type { PreviewConfig } from '../../shared/protocol/preview.ts';
import { tokensEqual } from '../http/auth.ts';
import { loopbackOnly } from '../http/loopback-guard.ts';
import { Problem, installProblemHandlers } from '../http/problem.ts';
import { KinoInputError } from '../project/input-error.ts';
import { projectForFile } from '../project/load.ts';
import type { LiveComposition } from './live-composition.ts';
import { bundlePageScript } from './page-script.ts';
import { previewPageHtml } from './page-html.ts';
import { PreviewSite } from './preview-site.ts';

export interface PreviewServerOptions {
  /** The composition (.ts) to preview. */
  file: string;
  /** Default 0: any free port. The server binds 127.0.0.1 only: it serves project files. */
  port?: number;
}

export interface PreviewServer {
  /** The page's address, session key included. */
  url: string;
  /** The path every route sits under: "/<session key>". */
  base: string;
  port: number;
  composition: LiveComposition;
  close(): Promise<void>;
}

/** Nothing here takes a body; a request that sends one anyway is refused early. */
const MAX_BODY_BYTES = 1024;

export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const file = path.resolve(options.file);
  if (!(await stat(file).catch(() => undefined))?.isFile()) {
    throw new KinoInputError(`composition ${file} not found`);
  }
  const project = await projectForFile(file);
  const [site, script] = await Promise.all([
    PreviewSite.start(file, project),
    bundlePageScript().catch((error: unknown) => ({ error })),
  ]);
  if (typeof script !== 'string') {
    await site.close(); // the page script failed to bundle: stop watching before giving up
    throw script.error;
  }
  const config: PreviewConfig = { file: options.file, projectFonts: project.fonts };
  const html = previewPageHtml(config);

  // Every route sits under a random key, as the studio preview's do: another local process (or a
  // page in the browser) that only knows the port cannot read the project's media or sources.
  const base = `/${randomBytes(18).toString('base64url')}`;
  let port = 0;
  const app = Fastify({ logger: false, bodyLimit: MAX_BODY_BYTES, forceCloseConnections: true });
  installProblemHandlers(app, MAX_BODY_BYTES);
  app.addHook(
    'onRequest',
    loopbackOnly(() => port),
  );
  const text = (type: string, body: string) => ({ type: `${type}; charset=utf-8`, body });
  const pages: Record<string, { type: string; body: string }> = {
    [PREVIEW_ROUTES.page]: text('text/html', html),
    [PREVIEW_ROUTES.script]: text('text/javascript', script),
  };
  app.get('/*', async (request, reply) => {
    const pathname = request.url.split('?', 1)[0]!;
    // None, and no 404 in the console for it.
    if (pathname === '/favicon.ico') return reply.code(204).send();
    const slash = pathname.indexOf('/', 1);
    if (slash < 0 || !tokensEqual(pathname.slice(0, slash), base)) {
      throw new Problem(
        404,
        'not_found',
        'open the address "kino preview" printed: its path carries the session key',
      );
    }
    const route = pathname.slice(slash);
    const page = pages[route];
    if (page) {
      return reply
        .type(page.type)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(page.body);
    }
    if (await site.serve(route, request, reply)) return reply;
    throw new Problem(404, 'not_found', `no preview route ${route}`);
  });

  try {
    await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  } catch (error) {
    await site.close();
    await app.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new KinoInputError(
        `port ${options.port} is in use: pick another with --port, or leave it out for a free one`,
      );
    }
    throw error;
  }
  port = (app.server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}${base}/`,
    base,
    port,
    composition: site.composition,
    async close() {
      await site.close();
      await app.close();
    },
  };
}
