// Bundles the preview page's script (renderer/player/page.ts: the shared drawing code plus the
// browser host and controls) with esbuild when the server starts, so there is no prebuilt artefact
// to go stale.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { SHIKI_EXTERNALS } from './shiki-modules.ts';

export const PAGE_ENTRY = fileURLToPath(new URL('../../renderer/player/page.ts', import.meta.url));

export async function bundlePageScript(): Promise<string> {
  const result = await build({
    entryPoints: [PAGE_ENTRY],
    outfile: 'preview.js', // not written; names the output for the source map
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    sourcemap: 'inline',
    external: SHIKI_EXTERNALS,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
