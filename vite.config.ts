import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

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
          chunkSizeWarningLimit: 12_000,
          sourcemap: false,
        },
        worker: { format: 'es' as const },
      }),
  test: {
    include: [
      'main/**/*.test.ts',
      'shared/**/*.test.ts',
      'preload/**/*.test.ts',
      'renderer/**/*.test.{ts,tsx}',
      'e2e/**/*.test.ts',
      'examples/**/*.test.ts',
    ],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
}));
