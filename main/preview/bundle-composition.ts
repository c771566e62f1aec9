// Bundles a composition for the browser: one ES module holding the composition, the 'kino' builder
// and any npm packages it imports, with an inline source map so the browser's devtools and stack
// traces point at the author's own lines. The map carries the text of the author's files only: the
// builder's and the packages' sources (zod alone is 800 KB) would double what every preview
// downloads, and stacks are mapped without them. Compile errors come back as data for the page's
// overlay.
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import type { Message, Plugin } from 'esbuild';
import type { CompileProblem } from '../../shared/protocol/problem.ts';
import { KINO_BUILDER_ENTRY, localInputs, toProblem } from '../composition/compile.ts';
import { SHIKI_EXTERNALS } from './shiki-modules.ts';

export type BrowserBundle =
  { ok: true; code: string; inputs: string[] } | { ok: false; problems: CompileProblem[]; inputs: string[] };

const kinoAlias: Plugin = {
  name: 'kino-builder',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^kino$/ }, () => ({ path: KINO_BUILDER_ENTRY }));
  },
};

/** Kino's own sources (the builder and what it draws with), beside the composition in every bundle. */
const KINO_SOURCES = path.dirname(path.dirname(KINO_BUILDER_ENTRY));

/** Whether a bundled file is the author's (its text stays in the map) rather than Kino's or a package's. */
export function isAuthorSource(file: string): boolean {
  return !file.split(path.sep).includes('node_modules') && !file.startsWith(KINO_SOURCES + path.sep);
}

interface EmittedSourceMap {
  sources: string[];
  sourcesContent?: (string | null)[];
}

/** `code` with `map` appended as a data URL, its sources' texts kept for the author's files only. */
function withInlineMap(code: string, map: string | undefined, workingDir: string): string {
  const withoutLink = code.replace(/\/\/# sourceMappingURL=\S+\s*$/, '');
  if (!map) return withoutLink;
  const parsed = JSON.parse(map) as EmittedSourceMap;
  parsed.sourcesContent = parsed.sources.map((source, index) =>
    isAuthorSource(path.resolve(workingDir, source)) ? (parsed.sourcesContent?.[index] ?? null) : null,
  );
  const encoded = Buffer.from(JSON.stringify(parsed)).toString('base64');
  return `${withoutLink}//# sourceMappingURL=data:application/json;base64,${encoded}\n`;
}

/**
 * Bundles `entryPath` for the browser. Never throws for the composition's own mistakes: they are
 * returned as problems, with `inputs` still naming the files worth watching for a fix.
 */
export async function bundleCompositionForBrowser(entryPath: string): Promise<BrowserBundle> {
  const entry = path.resolve(entryPath);
  if (!(await stat(entry).catch(() => undefined))?.isFile()) {
    return { ok: false, problems: [{ file: entry, message: 'composition file not found' }], inputs: [entry] };
  }
  const workingDir = path.dirname(entry);
  try {
    const result = await build({
      entryPoints: [entry],
      // Not written (write: false); it only anchors the source map's relative paths.
      outfile: path.join(workingDir, 'kino-preview-composition.js'),
      absWorkingDir: workingDir,
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      sourcemap: 'external', // inlined below, with the author's sources only
      // Sources are relative to the bundle's folder; the root makes them absolute, so the page can
      // show an error's place as a path an editor opens.
      sourceRoot: `${workingDir.split(path.sep).join('/')}/`,
      metafile: true,
      logLevel: 'silent',
      define: { 'process.env.NODE_ENV': '"development"' },
      plugins: [kinoAlias],
      external: SHIKI_EXTERNALS,
    });
    const code = result.outputFiles.find((file) => file.path.endsWith('.js'))?.text ?? '';
    const map = result.outputFiles.find((file) => file.path.endsWith('.js.map'))?.text;
    return {
      ok: true,
      code: withInlineMap(code, map, workingDir),
      inputs: localInputs(result.metafile, workingDir),
    };
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (!Array.isArray(messages) || messages.length === 0) throw error;
    const problems = messages.map((message) => toProblem(message, workingDir, entry));
    return { ok: false, problems, inputs: [...new Set([entry, ...problems.map((p) => p.file)])] };
  }
}
