// `npm start`: install, build the web app and the API, then serve both from one process
// on the embedded database (PGlite in ./data) unless DATABASE_URL is set.
import { pnpm } from './pnpm.mjs';

pnpm(['install', '--frozen-lockfile']);
pnpm(['run', 'build']);
pnpm(['--filter', '@rescuelog/api', 'run', 'serve']);
