// The `kino` CLI as a prebuilt bundle. Node runs the TypeScript sources directly, but loading them
// one module at a time is most of a cold start: ~150 of Kino's files for `kino frame`, and zod and
// culori (~250 more files between them). esbuild bundles them into a few ES modules (one chunk per
// lazily imported command, so a command still loads only what it uses), which start faster.
//
// The bundle is built in the background the first time `kino` finds none, or finds one older than
// its sources, and used from the next run on: no run waits for it. It lives in
// node_modules/.cache/kino/cli, so packages left out of it resolve as they do from the sources. Every
// input's size and modification time is checked before a run uses it. KINO_BUNDLE=0 runs the sources
// always. Plain JavaScript: it runs before any TypeScript.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SOURCE_ENTRY = join('main', 'cli', 'main.ts');
/** Pure ES module packages on the start-up path, bundled in; every other package is imported. */
const INLINE_PACKAGES = new Set(['zod', 'culori']);
/** Files that change the build without being in its module graph. */
const BUILD_INPUTS = [
  'main/launcher/cli-bundle.mjs',
  'tsconfig.json',
  'package.json',
  'node_modules/esbuild/package.json',
];
/** Raised when the manifest's shape changes. */
const MANIFEST_FORMAT = 1;
/** A build that has not finished in this time is taken to have died: another may start. */
const LOCK_STALE_MS = 120_000;
/** Builds kept besides the current one, for processes still importing chunks from them. */
const KEEP_OLD_BUILDS = 3;

/** Where bundles are kept: inside node_modules, so that the packages they import resolve. */
export function bundleRoot(root = REPO) {
  return join(root, 'node_modules', '.cache', 'kino', 'cli');
}

function readManifest(dir) {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'current.json'), 'utf8'));
    return manifest?.format === MANIFEST_FORMAT ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/** The URL of the bundle's entry when a bundle exists and every input is as it was built from. */
export function freshBundle(root = REPO, dir = bundleRoot(root)) {
  const manifest = readManifest(dir);
  if (!manifest) return undefined;
  for (const [file, mtimeMs, size] of manifest.inputs) {
    const found = statSync(join(root, file), { throwIfNoEntry: false });
    if (!found || found.mtimeMs !== mtimeMs || found.size !== size) return undefined;
  }
  const entry = join(dir, manifest.build, 'main.mjs');
  return statSync(entry, { throwIfNoEntry: false }) ? pathToFileURL(entry).href : undefined;
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Packages stay imports (except INLINE_PACKAGES), and each of Kino's files keeps its own
 * import.meta.url: the code finds fonts, worker entries, examples and package.json beside its source.
 */
function kinoBundlePlugin() {
  return {
    name: 'kino-cli-bundle',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith('node:') || !INLINE_PACKAGES.has(packageName(args.path))) {
          return { path: args.path, external: true };
        }
        return undefined;
      });
      build.onLoad({ filter: /\.(ts|mjs|js)$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        return {
          contents: text.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
          loader: args.path.endsWith('.ts') ? 'ts' : 'js',
        };
      });
    },
  };
}

/** A package's files are checked by its package.json alone: an install or update rewrites it. */
function packageManifestOf(file) {
  const at = file.lastIndexOf('node_modules/');
  if (at < 0) return file;
  const rest = file.slice(at + 'node_modules/'.length).split('/');
  const name = rest[0].startsWith('@') ? rest.slice(0, 2) : rest.slice(0, 1);
  return [file.slice(0, at + 'node_modules/'.length) + name.join('/'), 'package.json'].join('/');
}

/** Whether a process that once ran this build is still alive (it may yet import a chunk lazily). */
function buildInUse(buildDir) {
  let pids;
  try {
    pids = readdirSync(join(buildDir, 'in-use'));
  } catch {
    return false;
  }
  return pids.some((pid) => {
    try {
      process.kill(Number(pid), 0);
      return true;
    } catch (error) {
      return error?.code === 'EPERM';
    }
  });
}

/** Records that this process runs from a build, so the build is not removed under it. */
function markInUse(entryUrl) {
  try {
    const dir = join(fileURLToPath(new URL('.', entryUrl)), 'in-use');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, String(process.pid)), '');
  } catch {
    // Unmarked, the build may be removed after KEEP_OLD_BUILDS newer ones: a rare lazy import fails.
  }
}

export function removeOldBuilds(dir, current) {
  const builds = readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== current)
    .map((entry) => ({ name: entry.name, mtimeMs: statSync(join(dir, entry.name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const old of builds.slice(KEEP_OLD_BUILDS)) {
    // A long-running kino (serve, mcp, studio) still imports chunks from its build when a command
    // first needs them: its build stays while it lives.
    if (buildInUse(join(dir, old.name))) continue;
    rmSync(join(dir, old.name), { recursive: true, force: true });
  }
}

/**
 * Builds the bundle and makes it current. Returns its entry's URL, or undefined when a source
 * changed while it was built (the next run builds again).
 */
export async function buildBundle(root = REPO, dir = bundleRoot(root)) {
  const { build } = await import('esbuild');
  const started = Date.now();
  const id = `${started.toString(36)}-${process.pid}`;
  const outdir = join(dir, id);
  const result = await build({
    absWorkingDir: root,
    entryPoints: { main: join(root, SOURCE_ENTRY) },
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    outdir,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunk-[hash]',
    metafile: true,
    logLevel: 'silent',
    plugins: [kinoBundlePlugin()],
  });
  const files = [
    ...Object.keys(result.metafile.inputs)
      .filter((key) => !/^[a-z-]+:/.test(key))
      .map(packageManifestOf),
    ...BUILD_INPUTS,
  ];
  const inputs = [];
  for (const file of new Set(files)) {
    const found = statSync(join(root, file), { throwIfNoEntry: false });
    // Changed while esbuild read it (or gone): this bundle may hold a mix of old and new.
    if (!found || found.mtimeMs >= started) {
      rmSync(outdir, { recursive: true, force: true });
      return undefined;
    }
    inputs.push([file, found.mtimeMs, found.size]);
  }
  const manifest = { format: MANIFEST_FORMAT, build: id, builtAt: new Date(started).toISOString(), inputs };
  const temp = join(dir, `current.${id}.json`);
  writeFileSync(temp, JSON.stringify(manifest));
  renameSync(temp, join(dir, 'current.json'));
  removeOldBuilds(dir, id);
  return pathToFileURL(join(outdir, 'main.mjs')).href;
}

/** Starts a detached build unless one is running; any failure only means no bundle this time. */
function buildInBackground(root, dir) {
  try {
    mkdirSync(dir, { recursive: true });
    const lock = join(dir, 'build.lock');
    const held = statSync(lock, { throwIfNoEntry: false });
    if (held && Date.now() - held.mtimeMs < LOCK_STALE_MS) return;
    writeFileSync(lock, String(process.pid), { flag: held ? 'w' : 'wx' });
    const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--build', root, dir], {
      detached: true,
      stdio: 'ignore',
    });
    child.on('error', () => rmSync(lock, { force: true }));
    child.unref();
  } catch {
    // A read-only install, a lost race for the lock: the sources run as they are.
  }
}

/** The CLI's module: the bundle when it is fresh, else the sources (and a bundle is built for next time). */
export async function importCli(env = process.env) {
  const sources = pathToFileURL(join(REPO, SOURCE_ENTRY)).href;
  if (env.KINO_BUNDLE === '0') return import(sources);
  const bundled = freshBundle();
  if (!bundled) {
    // Under the test runner no build starts mid-suite: which code a test runs must not depend on
    // when a build lands.
    if (!env.VITEST) buildInBackground(REPO, bundleRoot());
    return import(sources);
  }
  try {
    markInUse(bundled);
    return await import(bundled);
  } catch {
    // A bundle that cannot be loaded (a chunk removed by hand, say) must not stop kino.
    return import(sources);
  }
}

// Used as: node main/launcher/cli-bundle.mjs --build [root] [dir] (what buildInBackground starts).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href && process.argv[2] === '--build') {
  const root = process.argv[3] ?? REPO;
  const dir = process.argv[4] ?? bundleRoot(root);
  try {
    await buildBundle(root, dir);
  } catch {
    // A source that does not compile: kino keeps running the sources, which report it.
  } finally {
    rmSync(join(dir, 'build.lock'), { force: true });
  }
}
