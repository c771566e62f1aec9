// The declaration files the studio's editor (Monaco) needs so that `import { ... } from 'kino'` in a
// composition type-checks: shared/builder/index.ts and everything it imports, emitted as .d.ts by the
// TypeScript compiler in memory, plus the typings of the npm packages those declarations use (zod),
// all laid out as one virtual package:
//
//   file:///node_modules/kino/package.json           {"name":"kino","types":"index.d.ts"}
//   file:///node_modules/kino/index.d.ts             export * from './shared/builder/index.ts'
//   file:///node_modules/kino/shared/**.d.ts         kino's sources as declarations (the repo's layout)
//   file:///node_modules/kino/node_modules/zod/**    zod's own typings, nested so only kino sees them
//
// The emitted declarations keep the sources' relative `.ts` specifiers; TypeScript resolves those to
// the sibling .d.ts (a declaration file may import .ts paths whatever the options).
//
// Generating takes 1.5–3 s (loading TypeScript, inferring zod's types) and blocks the event loop
// meanwhile, so the result (~400 KB in 133 files, ~63 KB gzipped as JSON) is kept in memory for the
// process and on disk (os.tmpdir()/kino-types) across processes, checked against a hash of every
// input file before it is reused (~10–30 ms).
import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type TypeScript from 'typescript';
import { KINO_TYPES_ROOT } from '../../shared/studio/type-library.ts';
import type { TypeLibrary } from '../../shared/studio/type-library.ts';
import { writeFileAtomically } from '../fs/atomic-write.ts';

export type { TypeLibrary } from '../../shared/studio/type-library.ts';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BUILDER_ENTRY = path.join(REPO_ROOT, 'shared', 'builder', 'index.ts');
const TSCONFIG = path.join(REPO_ROOT, 'tsconfig.json');
/** The disk cache's entry format (the generator's own source is one of the inputs checked). */
const CACHE_FORMAT = 1;

/** Package.json fields TypeScript's module resolution reads; the rest are left out of the copies. */
const RESOLUTION_FIELDS = ['name', 'version', 'type', 'types', 'typings', 'main', 'module', 'exports'];

const require = createRequire(import.meta.url);

let memory: Promise<TypeLibrary[]> | undefined;

/**
 * The declaration files Monaco needs for `import { ... } from 'kino'`, each at a file URI under
 * file:///node_modules/kino/. Computed once per process (from the disk cache when its inputs are
 * unchanged); every call returns the same frozen array.
 */
export function builderTypeLibraries(): Promise<TypeLibrary[]> {
  memory ??= loadBuilderTypeLibraries().then(
    ({ libraries }) => libraries,
    (error: unknown) => {
      memory = undefined; // let the next request try again
      throw error;
    },
  );
  return memory;
}

export interface LoadOptions {
  /** Where generated libraries are cached across processes; null: no disk cache. */
  cacheDir?: string | null;
}

export interface LoadedTypeLibraries {
  libraries: TypeLibrary[];
  /** 'disk': read from the disk cache; 'generated': emitted by the compiler just now. */
  source: 'disk' | 'generated';
  /** Wall time of the load, in milliseconds. */
  ms: number;
}

export const DEFAULT_CACHE_DIR = path.join(tmpdir(), 'kino-types');

/** Loads the libraries without the in-memory cache: from the disk cache when valid, else generated. */
export async function loadBuilderTypeLibraries(options: LoadOptions = {}): Promise<LoadedTypeLibraries> {
  const started = performance.now();
  const cacheDir = options.cacheDir === undefined ? DEFAULT_CACHE_DIR : options.cacheDir;
  const cacheFile = cacheDir === null ? undefined : path.join(cacheDir, `${cacheName()}.json`);
  if (cacheFile) {
    const cached = await readCache(cacheFile);
    if (cached) return { libraries: freeze(cached), source: 'disk', ms: performance.now() - started };
  }
  const { libraries, inputs } = await generateBuilderTypeLibraries();
  if (cacheFile) await writeCache(cacheFile, { libraries, inputs: await hashFiles(inputs) });
  return { libraries: freeze(libraries), source: 'generated', ms: performance.now() - started };
}

export interface GeneratedTypeLibraries {
  libraries: TypeLibrary[];
  /** Absolute paths of every file the result depends on. */
  inputs: string[];
}

/** Emits the declarations and collects the package typings they use (no caching). */
export async function generateBuilderTypeLibraries(): Promise<GeneratedTypeLibraries> {
  const ts = await import('typescript').then(
    (module) => module.default,
    (error: unknown) => {
      // typescript is a devDependency: an installed app needs the libraries made at build time.
      throw new Error(`The editor's Kino types need the typescript package: ${String(error)}`);
    },
  );
  const outDir = path.join(REPO_ROOT, '.kino-types-out'); // never written: emit goes to a callback
  const program = ts.createProgram({
    rootNames: [BUILDER_ENTRY],
    options: await emitOptions(ts, outDir),
  });

  const libraries: TypeLibrary[] = [];
  const result = program.emit(undefined, (fileName, text) => {
    if (!fileName.endsWith('.d.ts')) return;
    libraries.push({ path: virtualPath(path.relative(outDir, fileName)), content: text });
  });
  const errors = result.diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (result.emitSkipped || errors.length > 0) {
    const host: TypeScript.FormatDiagnosticsHost = {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => REPO_ROOT,
      getNewLine: () => '\n',
    };
    throw new Error(`Could not emit the builder's declarations:\n${ts.formatDiagnostics(errors, host)}`);
  }

  // Declaration files the sources use as they are: the typings of npm packages (zod), file for file,
  // under kino's own node_modules, with their package.json for the resolution of the package name.
  const inputs = [
    fileURLToPath(import.meta.url), // this generator, and the layout it follows
    fileURLToPath(new URL('../../shared/studio/type-library.ts', import.meta.url)),
    TSCONFIG,
    require.resolve('typescript/package.json'),
  ];
  const manifests = new Set<string>();
  for (const file of program.getSourceFiles()) {
    if (program.isSourceFileDefaultLibrary(file)) continue;
    const fileName = path.resolve(file.fileName);
    inputs.push(fileName);
    if (!file.isDeclarationFile) continue;
    const relative = repoRelative(fileName);
    libraries.push({ path: virtualPath(relative), content: file.text });
    if (!relative.split(path.sep).includes('node_modules')) continue;
    const manifest = await packageManifest(fileName);
    if (manifest) manifests.add(manifest);
  }
  for (const manifest of manifests) {
    inputs.push(manifest);
    const fields = JSON.parse(await readFile(manifest, 'utf8')) as Record<string, unknown>;
    const kept = Object.fromEntries(RESOLUTION_FIELDS.filter((f) => f in fields).map((f) => [f, fields[f]]));
    libraries.push({ path: virtualPath(repoRelative(manifest)), content: JSON.stringify(kept) });
  }

  libraries.push(
    {
      path: `${KINO_TYPES_ROOT}package.json`,
      content: JSON.stringify({ name: 'kino', type: 'module', types: 'index.d.ts' }),
    },
    {
      path: `${KINO_TYPES_ROOT}index.d.ts`,
      content: `// Kino's composition API.\nexport * from './${toPosix(path.relative(REPO_ROOT, BUILDER_ENTRY))}';\n`,
    },
  );
  libraries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { libraries, inputs: [...new Set(inputs)].sort() };
}

/** The repository's compiler options, set up to emit only declarations into `outDir`. */
async function emitOptions(ts: typeof TypeScript, outDir: string): Promise<TypeScript.CompilerOptions> {
  const text = await readFile(TSCONFIG, 'utf8');
  const parsed = ts.parseConfigFileTextToJson(TSCONFIG, text);
  const raw = (parsed.config as { compilerOptions?: unknown } | undefined)?.compilerOptions ?? {};
  const { options } = ts.convertCompilerOptionsFromJson(raw, REPO_ROOT, TSCONFIG);
  return {
    ...options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    inlineSourceMap: false,
    outDir,
    rootDir: REPO_ROOT,
    // Declarations only need the types the sources name: no ambient @types (node), no JSX runtime,
    // and no full check (tsc does that; emit still infers what it has to). About 40% faster.
    types: [],
    jsx: undefined,
    paths: undefined,
    noCheck: true,
    skipLibCheck: true,
  };
}

/**
 * A file's path relative to the repository root. Package typings are found by their real paths, so
 * a node_modules that is a link to another folder (a git worktree sharing one install, pnpm) names
 * them outside the repository: they are placed under node_modules/ as the resolution sees them.
 */
function repoRelative(fileName: string): string {
  const relative = path.relative(REPO_ROOT, fileName);
  if (!relative.startsWith('..')) return relative;
  let modules: string;
  try {
    modules = realpathSync(path.join(REPO_ROOT, 'node_modules'));
  } catch {
    return relative;
  }
  const inModules = path.relative(modules, fileName);
  return inModules.startsWith('..') || path.isAbsolute(inModules)
    ? relative
    : path.join('node_modules', inModules);
}

/** The virtual file URI of a path relative to the repository root (or to the emit's outDir). */
function virtualPath(relative: string): string {
  const posix = toPosix(relative);
  if (posix.startsWith('../') || path.isAbsolute(relative)) {
    throw new Error(`A declaration the builder needs lies outside the repository: ${relative}`);
  }
  return KINO_TYPES_ROOT + posix;
}

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

/** The package.json of the package a file belongs to: the nearest one with a name. */
async function packageManifest(file: string): Promise<string | undefined> {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    const fields = await readFile(manifest, 'utf8').then(
      (text) => JSON.parse(text) as { name?: unknown },
      () => undefined,
    );
    if (typeof fields?.name === 'string') return manifest;
  }
  return undefined;
}

function freeze(libraries: TypeLibrary[]): TypeLibrary[] {
  for (const library of libraries) Object.freeze(library);
  return Object.freeze(libraries) as TypeLibrary[];
}

// --- disk cache ---------------------------------------------------------------------------------

interface CacheEntry {
  generator: number;
  /** Every input file (absolute path) and the SHA-256 of its content when the entry was written. */
  inputs: Record<string, string>;
  libraries: TypeLibrary[];
}

/** One cache entry per checkout; its inputs' hashes decide if it is current. */
function cacheName(): string {
  return createHash('sha256').update(`${CACHE_FORMAT}\0${REPO_ROOT}`).digest('hex').slice(0, 24);
}

async function hashFiles(files: string[]): Promise<Record<string, string>> {
  const hash = async (file: string) =>
    createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
  return Object.fromEntries(await Promise.all(files.map(async (file) => [file, await hash(file)] as const)));
}

async function readCache(file: string): Promise<TypeLibrary[] | undefined> {
  try {
    const entry = JSON.parse(await readFile(file, 'utf8')) as Partial<CacheEntry>;
    if (entry.generator !== CACHE_FORMAT || !entry.inputs || !Array.isArray(entry.libraries)) {
      return undefined;
    }
    const files = Object.keys(entry.inputs);
    if (files.length === 0) return undefined;
    const current = await hashFiles(files);
    if (files.some((f) => current[f] !== entry.inputs?.[f])) return undefined;
    return entry.libraries;
  } catch {
    return undefined; // missing, unreadable, or an input is gone: generate afresh
  }
}

async function writeCache(file: string, entry: Omit<CacheEntry, 'generator'>): Promise<void> {
  // Atomic: a concurrent reader sees the old entry or the new one.
  await writeFileAtomically(file, JSON.stringify({ generator: CACHE_FORMAT, ...entry }), {
    createDirMode: 0o755,
  }).catch(() => {
    // A cache that cannot be written only costs the next process a regeneration.
  });
}
