// Bundles a composition for the browser: one ES module holding the composition, the 'kino' builder
// and any npm packages it imports, with an inline source map so the browser's devtools and stack
// traces point at the author's own lines. Compile errors come back as data for the page's overlay.
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
      sourcemap: 'inline',
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
    return { ok: true, code, inputs: localInputs(result.metafile, workingDir) };
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (!Array.isArray(messages) || messages.length === 0) throw error;
    const problems = messages.map((message) => toProblem(message, workingDir, entry));
    return { ok: false, problems, inputs: [...new Set([entry, ...problems.map((p) => p.file)])] };
  }
}
