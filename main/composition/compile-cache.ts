// Compiled compositions kept on disk. esbuild costs about 0.1 s a compile (its service process
// starts, then bundles the composition with Kino's builder), which every cold `kino frame`, every
// render's drawing thread and every workspace start paid again for a source that had not changed.
// A compile's bundle is kept with its import graph, and reused while every local file in that graph
// and every package manifest it pinned is unchanged (size, mtime, ctime, inode: one stat a file, as
// the CLI's own bundle is checked), for the same esbuild and the same output folder (the inline
// source map names sources relative to it). A hit still writes the bundle under a new name, so the
// composition is imported and evaluated afresh, exactly as after a compile.
//
// What it cannot see: a file that would now resolve in place of one in the graph without any file
// of the graph changing (a new node_modules folder nearer the composition, say). A failed compile is
// never kept.
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { readFile, readdir, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomically } from '../fs/atomic-write.ts';

/** Bumped when what a compile writes changes in a way its inputs do not show. */
const FORMAT = 1;

let esbuildVersion: string | undefined;
/** Read on first use: a JSON spec never compiles, and loads nothing of esbuild. */
function esbuild(): string {
  esbuildVersion ??= (createRequire(import.meta.url)('esbuild/package.json') as { version: string }).version;
  return esbuildVersion;
}

export function compiledCompositionsDir(): string {
  return process.env.KINO_CACHE_DIR
    ? join(process.env.KINO_CACHE_DIR, 'compositions')
    : join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'kino', 'compositions');
}

/** What a compile read and found: its local inputs and the manifests of the packages it pinned. */
export interface CompileGraph {
  inputs: string[];
  packageManifests: string[];
}

interface CacheEntry<G extends CompileGraph> {
  format: number;
  esbuild: string;
  entry: string;
  outDir: string;
  graph: G;
  /** Each input and package manifest with its identity when compiled. */
  files: [string, string][];
  text: string;
}

function identityOf(info: Stats | undefined): string {
  return info ? `${info.size}:${info.mtimeMs}:${info.ctimeMs}:${info.ino}` : 'missing';
}

async function fileIdentity(file: string): Promise<string> {
  return identityOf(await stat(file).catch(() => undefined));
}

function entryFile(entry: string, outDir: string): string {
  const key = JSON.stringify([FORMAT, esbuild(), entry, outDir]);
  return join(
    compiledCompositionsDir(),
    `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`,
  );
}

function watchedFiles(graph: CompileGraph): string[] {
  return [...new Set([...graph.inputs, ...graph.packageManifests])];
}

/** The bundle and graph kept for `entry` compiled into `outDir`, when nothing it read changed since. */
export async function cachedCompile<G extends CompileGraph>(
  entry: string,
  outDir: string,
): Promise<{ text: string; graph: G } | undefined> {
  let kept: CacheEntry<G>;
  try {
    kept = JSON.parse(await readFile(entryFile(entry, outDir), 'utf8')) as CacheEntry<G>;
  } catch {
    return undefined;
  }
  if (
    kept.format !== FORMAT ||
    kept.esbuild !== esbuild() ||
    kept.entry !== entry ||
    kept.outDir !== outDir ||
    !Array.isArray(kept.files) ||
    typeof kept.text !== 'string'
  ) {
    return undefined;
  }
  const now = await Promise.all(kept.files.map(([file]) => fileIdentity(file)));
  if (kept.files.some(([, identity], i) => identity !== now[i])) return undefined;
  return { text: kept.text, graph: kept.graph };
}

/**
 * A file changed this shortly before a compile began may have been changing while esbuild read it
 * (or its filesystem keeps times to the second): then the compile is not kept, so the next load
 * compiles again rather than trusting a bundle that may hold its older text.
 */
const RACY_MS = 2000;

/** Keeps a compile's bundle, begun at `startedMs` (Date.now()), for the next load of `entry`. */
export async function keepCompile<G extends CompileGraph>(
  entry: string,
  outDir: string,
  graph: G,
  text: string,
  startedMs: number,
): Promise<void> {
  const files = await Promise.all(
    watchedFiles(graph).map(async (file) => [file, await stat(file).catch(() => undefined)] as const),
  );
  const racy = files.some(([, info]) => !info || Math.max(info.mtimeMs, info.ctimeMs) >= startedMs - RACY_MS);
  if (racy) return;
  const kept: CacheEntry<G> = {
    format: FORMAT,
    esbuild: esbuild(),
    entry,
    outDir,
    graph,
    files: files.map(([file, info]) => [file, identityOf(info)]),
    text,
  };
  // A cache that cannot be written only costs the next compile.
  await writeFileAtomically(entryFile(entry, outDir), JSON.stringify(kept), { createDirMode: 0o700 }).catch(
    () => undefined,
  );
  await prune();
}

/** Compositions kept at most (each about 0.4 MB, its source map inline): the least recently kept go. */
const MAX_KEPT = 64;

async function prune(): Promise<void> {
  const dir = compiledCompositionsDir();
  const names = (await readdir(dir).catch(() => [])).filter((name) => name.endsWith('.json'));
  if (names.length <= MAX_KEPT) return;
  const dated = await Promise.all(
    names.map(async (name) => ({
      name,
      mtimeMs: (await stat(join(dir, name)).catch(() => undefined))?.mtimeMs ?? 0,
    })),
  );
  dated.sort((a, b) => a.mtimeMs - b.mtimeMs);
  await Promise.all(
    dated
      .slice(0, dated.length - MAX_KEPT)
      .map(({ name }) => rm(join(dir, name), { force: true }).catch(() => undefined)),
  );
}
