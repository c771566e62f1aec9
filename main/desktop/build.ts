// Builds the desktop app's two bundles into dist/desktop/ (run with Node 24: node main/desktop/build.ts):
// - main.mjs: the entry Electron starts; it imports the unbundled main/ sources (see entry.ts).
// - preload.cjs: the sandboxed preload, one CommonJS file that requires nothing but 'electron'.
// It also restores build/resources/icon.png (electron-builder's icon) when it is missing.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { BuildOptions } from 'esbuild';
import { ensureIcon } from './make-icon.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const DESKTOP_OUT_DIR = path.join(ROOT, 'dist', 'desktop');

/** Every require() in a bundle; a sandboxed preload may only require 'electron'. */
export function requiredModules(code: string): string[] {
  return [...code.matchAll(/\brequire\(\s*(["'`])([^"'`]*)\1\s*\)/g)].map((match) => match[2]!);
}

export async function buildDesktop(outDir = DESKTOP_OUT_DIR): Promise<{ main: string; preload: string }> {
  const main = path.join(outDir, 'main.mjs');
  const preload = path.join(outDir, 'preload.cjs');
  const common: BuildOptions = {
    bundle: true,
    external: ['electron'],
    logLevel: 'warning',
    legalComments: 'none',
  };
  await Promise.all([
    build({
      ...common,
      entryPoints: [path.join(ROOT, 'main', 'desktop', 'entry.ts')],
      outfile: main,
      platform: 'node',
      format: 'esm',
      target: 'node22',
    }),
    build({
      ...common,
      entryPoints: [path.join(ROOT, 'preload', 'index.ts')],
      outfile: preload,
      platform: 'browser',
      format: 'cjs',
      target: 'es2023',
    }),
  ]);
  const stray = requiredModules(await readFile(preload, 'utf8')).filter((name) => name !== 'electron');
  if (stray.length > 0 || /\brequire\(\s*[^"'`\s]/.test(await readFile(preload, 'utf8'))) {
    throw new Error(
      `the preload bundle requires more than 'electron' (${stray.join(', ') || 'a computed name'})`,
    );
  }
  return { main, preload };
}

if (import.meta.main) {
  const { main, preload } = await buildDesktop();
  if (await ensureIcon()) process.stdout.write('build/resources/icon.png\n');
  process.stdout.write(`${path.relative(ROOT, main)}\n${path.relative(ROOT, preload)}\n`);
}
