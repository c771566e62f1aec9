import { defineConfig } from 'vitest/config';

// One config for the renderer build (later issues) and for vitest.
export default defineConfig({
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
});
