// What a browser preview of one composition serves, wherever it is mounted (`kino preview` at /, the
// studio under /studio/preview/<key>/): the composition bundled for the browser and rebuilt on every
// change, the build events, the bundled fonts and the project's media. Routes: shared/protocol/preview.ts.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BUILD_EVENT, PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';
import { projectContext } from '../engine/project-context.ts';
import { COMPILE_FAILED } from '../engine/failures.ts';
import { Problem } from '../http/problem.ts';
import { serveFile } from '../http/serve-file.ts';
import type { RenderProject } from '../project/load.ts';
import { EventStream } from './event-stream.ts';
import { bundledFontFaceSheet, FONT_CONTENT_TYPE, fontFileFor } from './font-faces.ts';
import type { FontFaceSheet } from './font-faces.ts';
import { LiveComposition } from './live-composition.ts';
import { serveMedia } from './media-route.ts';
import { shikiModuleFile } from './shiki-modules.ts';
import type { MediaRouteOptions } from './media-route.ts';

export class PreviewSite {
  readonly composition: LiveComposition;
  readonly #events = new EventStream();
  readonly #fonts: FontFaceSheet = bundledFontFaceSheet();
  readonly #media: MediaRouteOptions;

  private constructor(composition: LiveComposition, media: MediaRouteOptions['media']) {
    this.composition = composition;
    this.#media = { media, onServed: (file) => composition.watchFile(file) };
    composition.onChange((state) => this.#events.broadcast(BUILD_EVENT, state));
  }

  /** Compiles the composition once and watches it, its imports, the assets and the project config. */
  static async start(source: string, project: RenderProject): Promise<PreviewSite> {
    const context = await projectContext(project);
    const composition = new LiveComposition({
      entry: source,
      alsoWatch: [project.assetsDir, ...(project.configPath ? [project.configPath] : [])],
    });
    await composition.start();
    return new PreviewSite(composition, context.media);
  }

  /**
   * Answers `route` (the path below the mount point, e.g. "/composition.js"); false when it is not
   * one of the site's routes.
   */
  async serve(route: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (route === PREVIEW_ROUTES.composition) {
      // Whatever ?build= says, the latest good bundle: the query only defeats the module cache.
      const code = this.composition.code;
      if (code === undefined) throw new Problem(409, COMPILE_FAILED, 'the composition does not compile');
      await reply.type('text/javascript; charset=utf-8').header('cache-control', 'no-store').send(code);
      return true;
    }
    if (route === PREVIEW_ROUTES.fontsCss) {
      await reply.type('text/css; charset=utf-8').header('cache-control', 'no-cache').send(this.#fonts.css);
      return true;
    }
    if (route === PREVIEW_ROUTES.events) {
      reply.hijack();
      this.#events.open(reply.raw, { event: BUILD_EVENT, data: this.composition.state });
      return true;
    }
    if (route === PREVIEW_ROUTES.media) {
      const src = (request.query as { src?: unknown }).src;
      await serveMedia(request, reply, typeof src === 'string' ? src : undefined, this.#media);
      return true;
    }
    for (const kind of ['langs', 'themes'] as const) {
      const prefix = kind === 'langs' ? PREVIEW_ROUTES.shikiLangs : PREVIEW_ROUTES.shikiThemes;
      if (!route.startsWith(prefix)) continue;
      const file = shikiModuleFile(kind, route.slice(prefix.length));
      if (!file) return false;
      const contentType = 'text/javascript; charset=utf-8';
      await serveFile(request, reply, { path: file, contentType, cacheControl: 'max-age=3600' });
      return true;
    }
    const font = fontFileFor(this.#fonts, route);
    if (!font) return false;
    await serveFile(request, reply, {
      path: font.path,
      contentType: FONT_CONTENT_TYPE[font.format],
      cacheControl: 'no-cache',
    });
    return true;
  }

  async close(): Promise<void> {
    this.#events.close();
    await this.composition.close();
  }
}
