// One lint setup for the whole workspace. Besides the usual TypeScript rules it keeps
// the dependency direction fixed in docs/architecture: web, sw and api may import
// sync-protocol; api may import db; nothing imports web or api; web features do not
// import each other.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const ours = ['web', 'sw', 'sync-protocol', 'api', 'db', 'tests'];

/** The patterns that forbid importing any of our packages not in `allowed`. */
function directionPatterns(pkg, allowed) {
  const forbidden = ours.filter((p) => p !== pkg && !allowed.includes(p));
  return forbidden.flatMap((p) => [
    {
      group: [`@rescuelog/${p}`, `@rescuelog/${p}/*`],
      message: `${pkg} must not import ${p} (see docs/architecture).`,
    },
    {
      group: [`**/../${p}/*`, `../../${p}/*`],
      message: `${pkg} must not reach into ${p} by path.`,
    },
  ]);
}

/** Forbid importing any of our packages that is not in `allowed`. */
function direction(pkg, allowed) {
  return {
    files: [`${pkg}/**/*.{ts,tsx,js,mjs}`],
    rules: {
      'no-restricted-imports': ['error', { patterns: directionPatterns(pkg, allowed) }],
    },
  };
}

/**
 * The generic sync engine (sync-protocol platform/ and client/, the server's
 * services/sync/) reaches record kinds only through a registry: it never imports the
 * domain (records/ and the domain folders: cases/, cpr/, mci/, incidents/…). A kind is added
 * in its domain folder and one line of records/registry.ts without touching it.
 */
const DOMAIN_MESSAGE =
  'The generic sync engine never imports a record kind or the clinical domain: take it from the registry (docs/decisions/014).';
const genericEngine = [
  {
    files: ['sync-protocol/src/platform/**/*.ts', 'sync-protocol/src/client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...directionPatterns('sync-protocol', []),
            {
              group: [
                '../records/*',
                '../cases/*',
                '../cpr/*',
                '../mci/*',
                '../incidents/*',
                '../inventory/*',
                '../reference/*',
              ],
              message: DOMAIN_MESSAGE,
            },
          ],
        },
      ],
    },
  },
  {
    files: ['api/src/services/sync/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            ...directionPatterns('api', ['sync-protocol', 'db']),
            {
              group: [
                '@rescuelog/sync-protocol/records/*',
                '@rescuelog/sync-protocol/cases/*',
                '@rescuelog/sync-protocol/cases/api',
                '@rescuelog/sync-protocol/cases/list',
              ],
              message: DOMAIN_MESSAGE,
            },
          ],
        },
      ],
    },
  },
];

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
  // The benchmarks may open the database engine through the server's own database layer, to
  // measure the engine alone beside the app (decision 053); the end-to-end tests stay outside.
  { ...direction('tests', ['sync-protocol', 'db']), files: ['tests/bench/**/*.{ts,tsx,js,mjs}'] },
  ...genericEngine,
  {
    // A stray .only runs one test and the run passes (Vitest's allowOnly and Playwright's
    // forbidOnly refuse it when the tests run; this says so at the line, before).
    files: ['**/test/**/*.{ts,tsx}', '**/*.test.{ts,tsx}', 'tests/e2e/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[property.name='only'][object.name=/^(it|test|describe|suite)$/]",
          message: 'Remove .only: it runs this test alone and lets the rest go unchecked.',
        },
        {
          selector:
            "MemberExpression[property.name='only'][object.type='MemberExpression'][object.object.name=/^(it|test|describe|suite)$/]",
          message: 'Remove .only: it runs this test alone and lets the rest go unchecked.',
        },
      ],
    },
  },
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
