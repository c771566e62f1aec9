// What the preview server and the preview page say to each other: routes, the build state pushed over
// Server-Sent Events, and the page configuration embedded in the HTML. The server imports these as
// types only, so this file stays browser code.
import type { FontFace } from '../../shared/spec/schema.ts';

export const PREVIEW_ROUTES = {
  page: '/',
  script: '/preview.js',
  composition: '/composition.js',
  events: '/events',
  fontsCss: '/fonts.css',
  /** Followed by the font's index in the bundled list, e.g. /fonts/3.ttf. */
  fontFile: '/fonts/',
  /** ?src=<media source as written in the spec>. */
  media: '/media',
} as const;

/** The SSE event name carrying a BuildState. */
export const BUILD_EVENT = 'build';

/** One compile problem, with a 1-based line and column when it has a place in a file. */
export interface PreviewProblem {
  file: string;
  line?: number;
  column?: number;
  message: string;
}

/**
 * The composition's latest build. `id` changes on every rebuild (source or asset change) and is
 * unique per server run, so a page reconnecting to a restarted server still reloads.
 */
export type BuildState = { id: string; ok: true } | { id: string; ok: false; problems: PreviewProblem[] };

/** Embedded in the page as JSON: what the page cannot learn from the composition itself. */
export interface PreviewConfig {
  /** The composition's path as given on the command line, for the title and messages. */
  file: string;
  /** Fonts the project config declares (a model may declare more). */
  projectFonts: FontFace[];
}

/** Element id of the <script type="application/json"> holding the PreviewConfig. */
export const CONFIG_ELEMENT_ID = 'kino-preview-config';

let routeBase = '';

/** The studio serves these routes under its own prefix (/studio/preview/<key>); `kino preview` at /. */
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
