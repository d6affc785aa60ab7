// One lint setup for the whole workspace. Besides the usual TypeScript rules it keeps
// the dependency direction fixed in docs/architecture: web, sw and api may import
// sync-protocol; api may import db; nothing imports web or api; web features do not
// import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const ours = ['web', 'sw', 'sync-protocol', 'api', 'db', 'tests'];

/** Forbid importing any of our packages that is not in `allowed`. */
function direction(pkg, allowed) {
  const forbidden = ours.filter((p) => p !== pkg && !allowed.includes(p));
  return {
    files: [`${pkg}/**/*.{ts,tsx,js,mjs}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: forbidden.flatMap((p) => [
            {
              group: [`@rescuelog/${p}`, `@rescuelog/${p}/*`],
              message: `${pkg} must not import ${p} (see docs/architecture).`,
            },
            {
              group: [`**/../${p}/*`, `../../${p}/*`],
              message: `${pkg} must not reach into ${p} by path.`,
            },
          ]),
        },
      ],
    },
  };
}

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      '**/playwright-report/**',
      '**/test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}', 'sw/**/*.ts'],
    languageOptions: { globals: { ...globals.browser, ...globals.serviceworker } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  direction('sync-protocol', []),
  direction('db', []),
  direction('api', ['sync-protocol', 'db']),
  direction('web', ['sync-protocol']),
  direction('sw', ['sync-protocol']),
  direction('tests', ['sync-protocol']),
  {
    // bulletproof-react: a feature composes shared pieces, never another feature.
    files: ['web/src/features/*/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@rescuelog/web', '@rescuelog/api', '@rescuelog/db'],
              message: 'web imports only sync-protocol.',
            },
            {
              group: ['../../features/*', '@/features/*'],
              message:
                'Features do not import each other; move the shared piece to src/components, src/lib or src/hooks.',
            },
          ],
        },
      ],
    },
  },
);
