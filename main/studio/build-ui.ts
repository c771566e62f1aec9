// Builds the studio UI with Vite (vite.config.ts: renderer/studio → dist/renderer). Concurrent
// builds (two test files, two `kino studio` runs) wait on one lock so they never clobber each other.
// A source checkout builds on first use (studioUiDir); an installed app ships dist/renderer.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DataDirInUseError, acquirePidLock } from '../fs/pid-lock.ts';
import { BUILD_STAMP, PREBUILT_TYPES, REPO_ROOT, STUDIO_UI_DIR, studioUiIsStale } from './ui-files.ts';

async function lockBuild(): Promise<() => Promise<void>> {
  const lockFile = path.join(REPO_ROOT, 'dist', '.studio-build.lock');
  for (;;) {
    try {
      return await acquirePidLock(lockFile, (pid) => `pid ${pid}`, 'the studio UI build lock is contended');
    } catch (error) {
      if (!(error instanceof DataDirInUseError)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

export async function buildStudioUi(options: { force?: boolean } = {}): Promise<void> {
  await mkdir(path.join(REPO_ROOT, 'dist'), { recursive: true });
  const release = await lockBuild();
  try {
    if (!options.force && !(await studioUiIsStale())) return; // another process built it meanwhile
    const { build } = await import('vite');
    await build({
      configFile: path.join(REPO_ROOT, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'warn',
    });
    // An installed app has no TypeScript compiler to generate Monaco's Kino types: ship them built.
    const { builderTypeLibraries } = await import('../composition/builder-types.ts');
    await writeFile(PREBUILT_TYPES, JSON.stringify(await builderTypeLibraries()));
    await writeFile(path.join(STUDIO_UI_DIR, BUILD_STAMP), `${new Date().toISOString()}\n`);
  } finally {
    await release();
  }
}

/** The built UI's folder, building it first when a checkout's build is missing or stale. */
export async function studioUiDir(log: (line: string) => void = () => {}): Promise<string> {
  if (await studioUiIsStale()) {
    log('kino: building the studio UI (once per change of its sources)…');
    await buildStudioUi();
  }
  return STUDIO_UI_DIR;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  await buildStudioUi({ force: process.argv.includes('--force') });
  process.stdout.write(
    `studio UI built into ${STUDIO_UI_DIR} in ${Math.round(performance.now() - started)} ms\n`,
  );
}
