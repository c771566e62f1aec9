// Compiles a composition file (TypeScript, importing 'kino') into one ES module that Node can import.
// Local files are bundled; npm packages stay external but are pinned to the absolute file each one
// resolves to from its importer, so the bundle can be written anywhere (a temp dir) and still finds
// the composition's packages and kino's own. A compile of unchanged files is reused from disk
// (compile-cache.ts), so esbuild does not even start.
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Message, Metafile, Plugin } from 'esbuild';
import type { CompileProblem } from '../../shared/protocol/problem.ts';
import { cachedCompile, keepCompile } from './compile-cache.ts';

/** The builder API that compositions import as 'kino'. */
export const KINO_BUILDER_ENTRY = fileURLToPath(new URL('../../shared/builder/index.ts', import.meta.url));

export interface CompileOptions {
  /** Where the bundle is written; default a kino directory in the system temp dir. */
  outDir?: string;
}

export interface PackageRef {
  name: string;
  version: string;
}

export interface CompiledComposition extends CompositionGraph {
  /** The bundle: an ES module with an inline source map, named uniquely per compile. */
  bundlePath: string;
}

export class CompositionCompileError extends Error {
  readonly problems: CompileProblem[];

  constructor(problems: CompileProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'CompositionCompileError';
    this.problems = problems;
  }
}

function formatProblem({ file, line, column, message }: CompileProblem): string {
  const place = line === undefined ? file : `${file}:${line}:${column ?? 1}`;
  return `${place}: ${message}`;
}

/** An esbuild message as a problem at a file, line and 1-based column. */
export function toProblem(message: Message, workingDir: string, entry: string): CompileProblem {
  const location = message.location;
  if (!location) return { file: entry, message: message.text };
  // esbuild columns count from 0; editors (and the desktop app's links) count from 1.
  return {
    file: path.resolve(workingDir, location.file),
    line: location.line,
    column: location.column + 1,
    message: message.text,
  };
}

// esbuild filters are Go regular expressions (no lookahead); absolute Windows paths are skipped below.
const BARE_SPECIFIER = /^[^./]/;

interface PackageWithManifest extends PackageRef {
  manifest: string;
}

/** The package a resolved file belongs to: the nearest package.json with a name. */
async function owningPackage(file: string): Promise<PackageWithManifest | undefined> {
  let dir = path.dirname(file);
  for (;;) {
    try {
      const manifestPath = path.join(dir, 'package.json');
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (typeof manifest.name === 'string') {
        return {
          name: manifest.name,
          version: typeof manifest.version === 'string' ? manifest.version : '0.0.0',
          manifest: manifestPath,
        };
      }
    } catch {
      // No (readable) manifest here: keep walking up.
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function externalPackages(found: Map<string, PackageWithManifest>): Plugin {
  return {
    name: 'kino-externals',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^kino$/ }, () => ({ path: KINO_BUILDER_ENTRY }));
      pluginBuild.onResolve({ filter: BARE_SPECIFIER }, async (args) => {
        if ((args.pluginData as { kinoInner?: boolean } | undefined)?.kinoInner) return undefined;
        if (path.isAbsolute(args.path)) return undefined;
        const resolved = await pluginBuild.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: { kinoInner: true },
        });
        // Unresolvable: let esbuild report it at the import, with its usual message.
        if (resolved.errors.length > 0) return undefined;
        if (resolved.external) return { path: args.path, external: true };
        const owner = await owningPackage(resolved.path);
        if (owner) found.set(owner.name, owner);
        return { path: pathToFileURL(resolved.path).href, external: true };
      });
    },
  };
}

/** The local files (not other esbuild namespaces) in a build's metafile, absolute and sorted. */
export function localInputs(metafile: Metafile, workingDir: string): string[] {
  return Object.keys(metafile.inputs)
    .filter((key) => !/^[a-z-]+:/.test(key)) // other namespaces are not files
    .map((key) => path.resolve(workingDir, key))
    .sort();
}

export interface CompositionGraph {
  /** Absolute paths of the local files in the import graph (kino's own included), sorted. */
  inputs: string[];
  /** npm packages the graph imports, with their installed versions, sorted by name. */
  packages: PackageRef[];
  /** The package.json of each of those packages: a reinstall shows up as a change to one of them. */
  packageManifests: string[];
}

async function assertEntryExists(entry: string): Promise<void> {
  const found = await stat(entry).catch(() => undefined);
  if (!found?.isFile()) {
    throw new CompositionCompileError([{ file: entry, message: 'composition file not found' }]);
  }
}

async function bundle(
  entry: string,
  outfile: string | undefined,
): Promise<CompositionGraph & { text: string | undefined }> {
  const workingDir = path.dirname(entry);
  const packages = new Map<string, PackageWithManifest>();
  // Imported on the first compile: rendering a JSON spec never loads esbuild.
  const { build } = await import('esbuild');
  try {
    const result = await build({
      entryPoints: [entry],
      // Written by the caller, which also keeps it (compile-cache.ts).
      ...(outfile ? { outfile } : { outdir: path.join(tmpdir(), 'kino-scan') }),
      write: false,
      absWorkingDir: workingDir,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      sourcemap: outfile ? 'inline' : false,
      metafile: true,
      logLevel: 'silent',
      plugins: [externalPackages(packages)],
    });
    const sorted = [...packages.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
    return {
      inputs: localInputs(result.metafile, workingDir),
      packages: sorted.map(({ name, version }) => ({ name, version })),
      packageManifests: sorted.map((p) => p.manifest),
      text: outfile ? result.outputFiles?.find((file) => file.path === outfile)?.text : undefined,
    };
  } catch (error) {
    const messages = (error as { errors?: Message[] }).errors;
    if (!Array.isArray(messages) || messages.length === 0) throw error;
    throw new CompositionCompileError(messages.map((message) => toProblem(message, workingDir, entry)));
  }
}

/** The composition's import graph and packages, without writing a bundle (for fingerprinting). */
export async function scanComposition(entryPath: string): Promise<CompositionGraph> {
  const entry = path.resolve(entryPath);
  await assertEntryExists(entry);
  const { inputs, packages, packageManifests } = await bundle(entry, undefined);
  return { inputs, packages, packageManifests };
}

export async function compileComposition(
  entryPath: string,
  opts: CompileOptions = {},
): Promise<CompiledComposition> {
  const entry = path.resolve(entryPath);
  await assertEntryExists(entry);
  const outDir = path.resolve(opts.outDir ?? path.join(tmpdir(), 'kino-compositions'));
  await mkdir(outDir, { recursive: true });
  const stem = path.basename(entry).replace(/\.[^.]*$/, '');
  // A new name per compile: Node caches modules by URL, so a changed source must get a new one.
  const bundlePath = path.join(
    outDir,
    `${stem}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}.mjs`,
  );
  const started = Date.now();
  const cached = await cachedCompile<CompositionGraph>(entry, outDir);
  if (cached) {
    await writeFile(bundlePath, cached.text);
    return { bundlePath, ...cached.graph };
  }
  const { text, ...graph } = await bundle(entry, bundlePath);
  if (text === undefined) throw new Error(`esbuild wrote no bundle for ${entry}`);
  await writeFile(bundlePath, text);
  await keepCompile(entry, outDir, graph, text, started);
  return { bundlePath, ...graph };
}
