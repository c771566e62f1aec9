// Shiki's grammars and themes for the browser preview. Bundling them would put every one of them
// (about 9.5 MB) in each bundle, so browser bundles keep `@shikijs/langs/*` and `@shikijs/themes/*`
// external, the page's import map points those names here, and only the few a video uses load.
import { createRequire } from 'node:module';
import path from 'node:path';

/** Module names the browser bundles leave to the page's import map. */
export const SHIKI_EXTERNALS = ['@shikijs/langs/*', '@shikijs/themes/*'];

const require = createRequire(import.meta.url);
const DIST = {
  langs: path.dirname(require.resolve('@shikijs/langs/typescript')),
  themes: path.dirname(require.resolve('@shikijs/themes/github-dark')),
};

/** The import map entries, relative to the page: "@shikijs/langs/x" loads ./shiki/langs/x. */
export function shikiImportMap(langsRoute: string, themesRoute: string): Record<string, string> {
  return { '@shikijs/langs/': `.${langsRoute}`, '@shikijs/themes/': `.${themesRoute}` };
}

const MODULE_NAME = /^[a-z0-9][a-z0-9-]*(?:\.mjs)?$/;

/** The file a route's module name stands for ("typescript" or "typescript.mjs"), if it is one. */
export function shikiModuleFile(kind: 'langs' | 'themes', name: string): string | undefined {
  if (!MODULE_NAME.test(name)) return undefined;
  return path.join(DIST[kind], name.endsWith('.mjs') ? name : `${name}.mjs`);
}
