import { globSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import react from '@vitejs/plugin-react';
import { defaultExclude, defineConfig } from 'vitest/config';

/** Tests beside the modules. Fast ones form the `unit` project (npm run test:unit). */
const MODULE_DIRS = ['main', 'shared', 'preload', 'renderer'];
const MODULE_TESTS = [
  'main/**/*.test.ts',
  'shared/**/*.test.ts',
  'preload/**/*.test.ts',
  'renderer/**/*.test.{ts,tsx}',
];

/**
 * Module tests that belong with the end-to-end ones (the `e2e` project, npm run test:e2e) although
 * they sit beside their module: they encode media with ffmpeg (a render, an encoded mix, generated
 * test clips), spawn processes, or start servers (and build the studio UI). Matched by file name in
 * any folder (with its folder where the name alone is too common), so they keep their place when
 * modules move. A new test of that kind is added here; every other test beside a module is a unit
 * test. An entry that matches no file any more is reported when vitest starts.
 */
const SLOW_MODULE_TESTS = [
  // ffmpeg encodes: every output format, encoded audio mixes, fixture clips to probe and decode
  '**/frame-encoder.test.ts',
  '**/audio-mix.test.ts',
  '**/ffmpeg/probe.test.ts',
  '**/verify/verify.test.ts',
  '**/probe-media.test.ts',
  '**/video-frames.test.ts',
  '**/warm-frames.test.ts', // decodes a fixture clip through the workspace's warm sessions
  '**/stitch-video.test.ts', // renders a video whole and in chunks, then stitches them
  '**/render-process-chunk.test.ts', // a chunk rendered by a real render job process
  // processes and servers: `kino preview`, tsc, the preview server, the render API, a workspace
  '**/preview-command.test.ts',
  '**/captions-command.test.ts', // also renders
  '**/round-trip.test.ts',
  '**/preview/server.test.ts',
  '**/embedded-api.test.ts',
  '**/studio-routes.test.ts', // also builds the studio UI with Vite when it is stale
  '**/cli-bundle.test.ts', // bundles the CLI, then draws and renders from it
  '**/audio-checks.test.ts', // encodes test tones with ffmpeg
  // threads and loopback servers: the raster thread pool, a large spec examined in a thread, an
  // S3-protocol server, the AI providers' stand-ins
  '**/raster-pool.test.ts',
  '**/spec-examiner.test.ts',
  '**/s3-storage.test.ts',
  '**/author-spec.test.ts',
  // whole reviews: every sampled frame drawn, twice for determinism
  '**/visual-review.test.ts',
  '**/determinism.test.ts',
];

/** Run by vitest only (it sets VITEST before reading this file), not by the studio UI build. */
function warnOfUnmatched(patterns: string[]): void {
  const matches = (pattern: string) =>
    MODULE_DIRS.some((dir) => globSync(`${dir}/${pattern}`, { cwd: import.meta.dirname }).length > 0);
  for (const pattern of patterns.filter((entry) => !matches(entry))) {
    console.warn(`vite.config.ts: SLOW_MODULE_TESTS entry ${pattern} matches no test (moved or renamed?)`);
  }
}

if (process.env.VITEST) warnOfUnmatched(SLOW_MODULE_TESTS);

/** Cross-process tests and the example render matrix. */
const E2E_TESTS = ['e2e/**/*.test.ts', 'examples/**/*.test.ts'];

// One config for the studio UI build (renderer/studio → dist/renderer, served at /studio/) and for
// vitest (mode 'test'), whose globs are relative to the repository root.
export default defineConfig(({ mode }) => ({
  ...(mode === 'test'
    ? {}
    : {
        root: 'renderer/studio',
        base: '/studio/',
        plugins: [react()],
        build: {
          outDir: '../../dist/renderer',
          emptyOutDir: true,
          // Monaco and its TypeScript worker are large by nature; they load from the local server.
          // e2e/studio-light.test.ts holds what the first load downloads to its budget instead.
          chunkSizeWarningLimit: 12_000,
          sourcemap: false,
          rolldownOptions: {
            // The build runs on a user's first `kino studio` (when dist/renderer is stale), on machines
            // of any speed: how long Vite's own plugins took is nothing the user can act on.
            checks: { bundlerTimings: false },
          },
        },
        worker: { format: 'es' as const },
      }),
  // `npm test` runs both projects; `--project unit` or `--project e2e` one of them. Both inherit the
  // settings below (extends: true).
  test: {
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
    projects: [
      // Unit tests only compute in their own process: one file per core. The end-to-end tests start
      // ffmpeg, servers and browsers that want a core of their own: one core fewer (vitest's default).
      // Vitest runs projects with different worker counts as separate groups: unit first.
      {
        extends: true,
        test: {
          name: 'unit',
          include: MODULE_TESTS,
          exclude: [...defaultExclude, ...SLOW_MODULE_TESTS],
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: [...E2E_TESTS, ...SLOW_MODULE_TESTS],
          maxWorkers: Math.max(availableParallelism() - 1, 1),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
}));
