// `kino preview`: a loopback HTTP server that plays a composition in the browser. It serves the page,
// the page script and the composition, each bundled for the browser by esbuild, the bundled fonts and
// the project's media, and pushes a new build over Server-Sent Events whenever the composition's
// sources or assets change.
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { BUILD_EVENT, PREVIEW_ROUTES } from '../../renderer/preview/protocol.ts';
import type { PreviewConfig } from '../../renderer/preview/protocol.ts';
import { projectContext } from '../engine/project-context.ts';
import { KinoInputError } from '../project/input-error.ts';
import { projectForFile } from '../project/load.ts';
import { EventStream } from './event-stream.ts';
import { bundledFontFaceSheet, fontFileFor } from './font-faces.ts';
import type { FontFaceSheet } from './font-faces.ts';
import { isAllowedHost } from './host-check.ts';
import { LiveComposition } from './live-composition.ts';
import { sendJson, serveMedia } from './media-route.ts';
import type { MediaRouteOptions } from './media-route.ts';
import { bundlePageScript } from './page-script.ts';
import { previewPageHtml } from './page-html.ts';
import { serveFile } from './serve-file.ts';

export interface PreviewServerOptions {
  /** The composition (.ts) to preview. */
  file: string;
  /** Default 0: any free port. The server binds 127.0.0.1 only: it serves project files. */
  port?: number;
}

export interface PreviewServer {
  url: string;
  port: number;
  composition: LiveComposition;
  close(): Promise<void>;
}

interface Site {
  port: () => number;
  html: string;
  script: string;
  fonts: FontFaceSheet;
  composition: LiveComposition;
  events: EventStream;
  media: MediaRouteOptions;
}

const TEXT_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function send(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { ...TEXT_HEADERS, 'content-type': `${type}; charset=utf-8` }).end(body);
}

async function route(site: Site, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (!isAllowedHost(request.headers.host, site.port())) {
    send(response, 403, 'text/plain', 'kino preview answers only to localhost on its own port\n');
    return;
  }
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.writeHead(405, { allow: 'GET, HEAD' }).end();
    return;
  }
  const url = new URL(request.url ?? '/', 'http://localhost');
  switch (url.pathname) {
    case PREVIEW_ROUTES.page:
      return send(response, 200, 'text/html', site.html);
    case PREVIEW_ROUTES.script:
      return send(response, 200, 'text/javascript', site.script);
    case PREVIEW_ROUTES.fontsCss:
      return send(response, 200, 'text/css', site.fonts.css);
    case PREVIEW_ROUTES.composition: {
      // Whatever ?build= says, the latest good bundle: the query only defeats the module cache.
      const code = site.composition.code;
      if (code === undefined) return send(response, 409, 'text/plain', 'the composition does not compile\n');
      return send(response, 200, 'text/javascript', code);
    }
    case PREVIEW_ROUTES.events:
      return site.events.open(response, { event: BUILD_EVENT, data: site.composition.state });
    case PREVIEW_ROUTES.media:
      return serveMedia(request, response, url, site.media);
    case '/favicon.ico':
      response.writeHead(204).end(); // none, and no 404 in the console for it
      return;
  }
  const font = fontFileFor(site.fonts, url.pathname);
  if (font) return serveFile(request, response, font, 'font/ttf');
  send(response, 404, 'text/plain', 'not found\n');
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE') {
        reject(
          new KinoInputError(
            `port ${port} is in use: pick another with --port, or leave it out for a free one`,
          ),
        );
      } else reject(error);
    });
    server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

export async function startPreviewServer(options: PreviewServerOptions): Promise<PreviewServer> {
  const file = path.resolve(options.file);
  if (!(await stat(file).catch(() => undefined))?.isFile()) {
    throw new KinoInputError(`composition ${file} not found`);
  }
  const project = await projectForFile(file);
  const context = await projectContext(project);
  const composition = new LiveComposition({
    entry: file,
    alsoWatch: [project.assetsDir, ...(project.configPath ? [project.configPath] : [])],
  });
  let script: string;
  try {
    [script] = await Promise.all([bundlePageScript(), composition.start()]);
  } catch (error) {
    await composition.close(); // the page script failed to bundle: stop watching before giving up
    throw error;
  }
  const config: PreviewConfig = { file: options.file, projectFonts: project.fonts };
  const events = new EventStream();
  composition.onChange((state) => events.broadcast(BUILD_EVENT, state));

  let port = 0;
  const site: Site = {
    port: () => port,
    html: previewPageHtml(config),
    script,
    fonts: bundledFontFaceSheet(),
    composition,
    events,
    media: { media: context.media, onServed: (served) => composition.watchFile(served) },
  };
  const server = createServer((request, response) => {
    route(site, request, response).catch((error: unknown) => {
      if (response.headersSent) response.destroy();
      else
        sendJson(response, 500, {
          code: 'internal',
          message: error instanceof Error ? error.message : String(error),
        });
    });
  });
  try {
    port = await listen(server, options.port ?? 0);
  } catch (error) {
    await composition.close();
    events.close();
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}/`,
    port,
    composition,
    async close() {
      events.close();
      await composition.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
