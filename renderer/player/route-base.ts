// Where this page reaches its preview server: the routes of shared/protocol/preview.ts under the
// prefix the page was served from (the studio serves them under /studio/preview/<key>; `kino
// preview` at /).
import { PREVIEW_ROUTES } from '../../shared/protocol/preview.ts';

let routeBase = '';

export function setPreviewRouteBase(base: string): void {
  routeBase = base.replace(/\/+$/, '');
}

export function previewRoute(route: string): string {
  return routeBase + route;
}

/** The URL the page loads a media source from. */
export function mediaUrl(src: string): string {
  return `${previewRoute(PREVIEW_ROUTES.media)}?src=${encodeURIComponent(src)}`;
}
