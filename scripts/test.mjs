// `npm test`: install, then typecheck, lint, unit and integration tests, build and
// end-to-end tests (the workspace's `validate` script). With DATABASE_URL set, the
// database and API suites run against that PostgreSQL server instead of PGlite.
import { pnpm } from './pnpm.mjs';

pnpm(['install', '--frozen-lockfile']);
pnpm(['run', process.argv.includes('--db-only') ? 'test:db' : 'validate']);
