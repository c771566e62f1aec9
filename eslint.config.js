// Lint rules. The layering itself (which folder may import which, no cycles) is checked by
// dependency-cruiser (.dependency-cruiser.cjs, `npm run lint:layers`); these restricted imports give
// the same message in the editor as you type: shared/ is pure, renderer/ never touches Node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import { builtinModules } from 'node:module';

// Every Node built-in, in both spellings ('fs' and 'node:fs'), from Node itself.
const nodeBuiltins = [...new Set(builtinModules.flatMap((name) => [name, `node:${name}`, `${name}/*`]))];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'build/**', '**/build/**', 'out/**', '.kino/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', '**/preload/**'],
              message: 'shared/ must not import from main/, renderer/ or preload/.',
            },
            { group: nodeBuiltins, message: 'shared/ is pure TypeScript: no Node built-ins.' },
            { group: ['@napi-rs/*'], message: 'shared/ draws against the standard Canvas 2D API only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/preload/**'],
              message: 'renderer/ talks to main only through the preload API.',
            },
            { group: nodeBuiltins, message: 'renderer/ never touches Node.' },
          ],
        },
      ],
    },
  },
);
