// ESLint flat config. The important rule: workflow code (src/domains/*/workflows/ and the shared
// workflows/ library) is replayed deterministically by Temporal, so it must not reach Node
// built-ins, the database, the web server or any value outside workflow files (type-only imports
// are fine: they vanish at compile time).
import tseslint from 'typescript-eslint'
import { builtinModules } from 'node:module'

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)]

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', 'test-results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['workflows/**/*.ts', 'src/domains/**/workflows/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({ name, message: 'Workflows must be deterministic: no Node built-ins.' })),
            { name: 'postgres', message: 'Workflows must not touch the database; use an activity.' },
            { name: 'koa', message: 'Workflows must not import the web server.' },
          ],
          patterns: [
            {
              // Relative imports that leave the folder must land in a workflows/ folder (a domain's or the library).
              regex: '^\\.\\./(?!.*/workflows/)(?!workflows/)',
              allowTypeImports: true,
              message: 'Workflows may import values only from workflow files (a workflows/ folder); `import type` the rest, and reach activities through proxyActivities.',
            },
          ],
        },
      ],
    },
  },
)
