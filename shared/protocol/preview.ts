// What a preview server (`kino preview`, or the studio under /studio/preview/<key>) and the page that
// plays the composition in a browser say to each other: routes, the build state pushed over
// Server-Sent Events, and the page configuration embedded in the HTML.
import type { FontFace } from '../spec/schema.ts';
import type { CompileProblem } from './problem.ts';

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
  /** Shiki grammars and themes by name, for the page's import map: /shiki/langs/typescript. */
  shikiLangs: '/shiki/langs/',
  shikiThemes: '/shiki/themes/',
} as const;

/** The SSE event name carrying a BuildState. */
export const BUILD_EVENT = 'build';

/**
 * The composition's latest build. `id` changes on every rebuild (source or asset change) and is
 * unique per server run, so a page reconnecting to a restarted server still reloads.
 */
export type BuildState = { id: string; ok: true } | { id: string; ok: false; problems: CompileProblem[] };

/** Embedded in the page as JSON: what the page cannot learn from the composition itself. */
export interface PreviewConfig {
  /** The composition's path as given on the command line, for the title and messages. */
  file: string;
  /** Fonts the project config declares (a model may declare more). */
  projectFonts: FontFace[];
}

/** Element id of the <script type="application/json"> holding the PreviewConfig. */
export const CONFIG_ELEMENT_ID = 'kino-preview-config';
