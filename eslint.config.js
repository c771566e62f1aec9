// Lint rules, including the layering rules from DEVELOPERS.md:
// shared/ is pure (no main/, renderer/, preload/, no Node built-ins); renderer/ never touches Node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'child_process',
  'os',
  'crypto',
  'http',
  'https',
  'net',
  'url',
  'stream',
];

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
