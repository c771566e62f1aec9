// The studio's live preview: the composition bundled for the browser (rebuilt on every change), the
// bundled fonts, the project's media and the build events, under /studio/preview/<key>/. Images,
// videos, fonts and module imports cannot send the X-Kino-Token header, so these read-only routes
// take a preview key in the path instead: derived from the token (HMAC), it opens nothing but the
// preview, and the token itself never appears in a URL.
import { createHmac } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BUILD_EVENT, PREVIEW_ROUTES } from '../../renderer/preview/protocol.ts';
import { tokensEqual } from '../api/auth.ts';
import { Problem } from '../api/problem.ts';
import { projectContext } from '../engine/project-context.ts';
import { EventStream } from '../preview/event-stream.ts';
import { bundledFontFaceSheet, fontFileFor } from '../preview/font-faces.ts';
import type { FontFaceSheet } from '../preview/font-faces.ts';
import { LiveComposition } from '../preview/live-composition.ts';
import { serveMedia } from '../preview/media-route.ts';
import type { MediaRouteOptions } from '../preview/media-route.ts';
import { serveFile } from '../preview/serve-file.ts';
import type { RenderProject } from '../project/load.ts';

export const PREVIEW_PREFIX = '/studio/preview/';

export function previewKeyFor(token: string): string {
  return createHmac('sha256', token).update('kino-studio-preview').digest('hex').slice(0, 32);
}

export class StudioPreview {
  readonly composition: LiveComposition;
  readonly #events = new EventStream();
  readonly #fonts: FontFaceSheet = bundledFontFaceSheet();
  readonly #media: MediaRouteOptions;

  private constructor(composition: LiveComposition, media: MediaRouteOptions['media']) {
    this.composition = composition;
    this.#media = { media, onServed: (file) => composition.watchFile(file) };
    composition.onChange((state) => this.#events.broadcast(BUILD_EVENT, state));
  }

  static async start(source: string, project: RenderProject): Promise<StudioPreview> {
    const context = await projectContext(project);
    const composition = new LiveComposition({
      entry: source,
      alsoWatch: [project.assetsDir, ...(project.configPath ? [project.configPath] : [])],
    });
    await composition.start();
    return new StudioPreview(composition, context.media);
  }

  register(app: FastifyInstance, previewKey: string): void {
    app.get(`${PREVIEW_PREFIX}:key/*`, async (request: FastifyRequest, reply: FastifyReply) => {
      const { key, '*': rest } = request.params as { key: string; '*': string };
      if (!tokensEqual(key, previewKey)) {
        throw new Problem(404, 'not_found', 'no such preview: the studio page is out of date, reload it');
      }
      const route = `/${rest}`;
      if (route === PREVIEW_ROUTES.composition) {
        // Whatever ?build= says, the latest good bundle: the query only defeats the module cache.
        const code = this.composition.code;
        if (code === undefined) {
          throw new Problem(409, 'compile_failed', 'the composition does not compile');
        }
        return reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(code);
      }
      if (route === PREVIEW_ROUTES.fontsCss) {
        return reply.type('text/css; charset=utf-8').send(this.#fonts.css);
      }
      reply.hijack();
      const url = new URL(request.url, 'http://localhost');
      if (route === PREVIEW_ROUTES.events) {
        return this.#events.open(reply.raw, { event: BUILD_EVENT, data: this.composition.state });
      }
      if (route === PREVIEW_ROUTES.media) return serveMedia(request.raw, reply.raw, url, this.#media);
      const font = fontFileFor(this.#fonts, route);
      if (font) return serveFile(request.raw, reply.raw, font, 'font/ttf');
      reply.raw.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
    });
  }

  async close(): Promise<void> {
    this.#events.close();
    await this.composition.close();
  }
}
