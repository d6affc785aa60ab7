// `npm start`: install, build the web app and the API, then serve both from one process
// on the embedded database (PGlite in ./data) unless DATABASE_URL is set.
import { readFileSync } from 'node:fs';
import { pnpm } from './pnpm.mjs';

// The server process's environment (server-process-env.json, also used by the test harness
// that starts the built server): glibc's allocator serves blocks of 32 KiB and more with
// mmap and gives them back when freed, instead of keeping the compilers' freed working
// memory in its arenas for good. On the embedded database that keeps ~70 MiB off the idle
// server (decision 032). Ignored by other C libraries; a value already set wins.
const serverEnv = JSON.parse(readFileSync(new URL('./server-process-env.json', import.meta.url)));

pnpm(['install', '--frozen-lockfile']);
pnpm(['run', 'build']);
pnpm(['--filter', '@rescuelog/api', 'run', 'serve'], { env: { ...serverEnv, ...process.env } });
