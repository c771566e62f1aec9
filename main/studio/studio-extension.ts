// The studio on a workspace server: the UI's static files at /studio/ (public: no secrets in them),
// the host API at /studio/api/ (the HTTP equivalent of the desktop preload, token required) and the
// live preview at /studio/preview/<key>/ and the exported files at /studio/exports/<key>/ (for a
// <video>, which cannot send the token).
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { WorkspaceExtension } from '../workspace/server.ts';
import { contentSecurityPolicy } from './content-security-policy.ts';
import type { PreviewSite } from '../preview/preview-site.ts';
import { PREVIEW_PREFIX, previewKeyFor, studioPreviewRoutes } from './preview-routes.ts';
import { hostApiRoutes } from './host-api-routes.ts';
import { studioExportRoutes } from './export-routes.ts';
import { EXPORTS_PREFIX } from '../../shared/studio/export-url.ts';
import { authoringRoutes } from './authoring-routes.ts';
import type { StudioHostApi } from './host-api-routes.ts';

export const STUDIO_PREFIX = '/studio/';

/** What the studio asks of its live preview: a PreviewSite, or one that starts on first use. */
export type StudioPreview = Pick<PreviewSite, 'serve' | 'close'>;

export interface StudioExtensionOptions {
  host: StudioHostApi;
  preview: StudioPreview;
  uiDir: string;
}

function isStaticPath(pathname: string): boolean {
  if (pathname === '/studio' || pathname === STUDIO_PREFIX || pathname === '/studio/index.html') return true;
  return /^\/studio\/assets\/[\w.-]+$/.test(pathname) || /^\/studio\/[\w-]+\.(svg|png|ico)$/.test(pathname);
}

export function studioExtension(options: StudioExtensionOptions): WorkspaceExtension {
  const { host, preview, uiDir } = options;
  return {
    isPublic: (pathname) =>
      isStaticPath(pathname) || pathname.startsWith(PREVIEW_PREFIX) || pathname.startsWith(EXPORTS_PREFIX),
    register(app: FastifyInstance, ctx) {
      const csp = contentSecurityPolicy();
      app.get('/studio', (_request, reply) => reply.redirect(STUDIO_PREFIX));
      void app.register(fastifyStatic, {
        root: uiDir,
        prefix: STUDIO_PREFIX,
        index: 'index.html',
        wildcard: false,
        dotfiles: 'deny',
        setHeaders(response, file) {
          response.header('x-content-type-options', 'nosniff');
          if (file.endsWith('.html')) {
            response.header('content-security-policy', csp);
            response.header('cache-control', 'no-store');
            response.header('referrer-policy', 'no-referrer');
            response.header('x-frame-options', 'DENY');
          } else {
            // Vite names assets by content hash.
            response.header('cache-control', 'public, max-age=31536000, immutable');
          }
        },
      });
      studioPreviewRoutes(app, preview, previewKeyFor(ctx.token));
      studioExportRoutes(app, ctx.resultsDir, previewKeyFor(ctx.token));
      hostApiRoutes(app, { host, ctx, previewKey: previewKeyFor(ctx.token) });
      authoringRoutes(app, { authoring: host.authoring, ctx });
    },
    close: () => preview.close(),
  };
}
