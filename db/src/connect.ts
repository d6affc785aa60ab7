// Opens the database: PGlite (PostgreSQL compiled to WASM, in-process) in a data folder when
// no DATABASE_URL is given, a pg Pool otherwise. Above this file there is one code path:
// Kysely's PostgresDialect with CamelCasePlugin (snake_case columns, camelCase properties).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import type { LogConfig } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { lockDataDir } from './data-dir-lock';
import {
  embeddedNotificationSource,
  postgresNotificationSource,
  registerNotificationSource,
} from './notifications';
import { PglitePool } from './pglite-pool';
import { pgTextOids, pgliteParsers } from './type-parsers';

export type DatabaseKind = 'embedded' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** Destroys the Kysely instance and closes the pool or the PGlite instance. */
  close(): Promise<void>;
}

export interface CreateDatabaseOptions {
  /** postgres://… — when unset, the embedded database in `<dataDir>/pglite` is used. */
  databaseUrl?: string | undefined;
  /** Data folder; only the embedded database uses it. */
  dataDir: string;
  /** Passed to Kysely (levels or a function receiving query/error events). */
  log?: LogConfig;
  /** pg Pool size in server mode (default 10). */
  poolSize?: number;
}

/** Kysely options shared by both drivers; keep them in one place. */
function createKysely(
  pool: ConstructorParameters<typeof PostgresDialect>[0]['pool'],
  log?: LogConfig,
): Kysely<Database> {
  return new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    // jsonb contents (permissions, details, …) are returned exactly as stored.
    plugins: [new CamelCasePlugin({ maintainNestedObjectKeys: true })],
    ...(log ? { log } : {}),
  });
}

/** pg type parsers matching the embedded driver (see type-parsers.ts). */
export const pgTypes = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (pgTextOids.includes(oid) && format !== 'binary') return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

export async function createPostgresDatabase(
  databaseUrl: string,
  opts: { log?: LogConfig; poolSize?: number } = {},
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.poolSize ?? 10,
    types: pgTypes,
  });
  // An idle client that loses its server connection emits 'error' on the pool; without a
  // listener that would crash the process instead of failing the next query.
  pool.on('error', () => undefined);
  const db = createKysely(pool, opts.log);
  registerNotificationSource(db, postgresNotificationSource(databaseUrl, pgTypes));
  return {
    db,
    kind: 'postgres',
    close: () => db.destroy(),
  };
}

/**
 * The embedded database's settings, written to its postgresql.conf at every start (issue 12):
 * - shared_buffers 32 MB instead of PostgreSQL's 128 MB: PGlite allocates them in the
 *   process's WebAssembly memory, which never shrinks; measured on a reopened data folder
 *   the process holds ~120 MiB less at 16 MB. 32 MB keeps the case list's hot pages cached.
 * - max_wal_size 64 MB and min_wal_size 32 MB: what a checkpoint keeps of the write-ahead
 *   log. PGlite runs no checkpointer, so the log only shrinks at a CHECKPOINT, which the
 *   server runs every few minutes (maintenance.ts); with PostgreSQL's 1 GB default a
 *   checkpoint would keep up to 1 GB (measured: 637 MB of a 741 MB folder at 100,000 cases).
 */
export const EMBEDDED_SETTINGS: readonly string[] = [
  'shared_buffers = 32MB',
  'max_wal_size = 64MB',
  'min_wal_size = 32MB',
];

/**
 * Creates a new embedded database folder in a worker thread that ends when it is done.
 * Creating the cluster (initdb) grows PGlite's WebAssembly memory to several hundred MiB, and
 * WebAssembly memory never shrinks: done in the server's own thread, a fresh install's server
 * kept ~680 MiB resident until its first restart; done here, that memory goes with the worker
 * (measured: 310 MiB after opening, against 680).
 */
async function createClusterInWorker(dir: string): Promise<void> {
  const code = `
    const { workerData, parentPort } = require('node:worker_threads');
    import(workerData.pglite)
      .then(async ({ PGlite }) => {
        const db = await PGlite.create(workerData.dir, { postgresqlconf: workerData.settings });
        await db.close();
        parentPort.postMessage({ ok: true });
      })
      .catch((error) => parentPort.postMessage({ ok: false, message: String(error) }));`;
  const worker = new Worker(code, {
    eval: true,
    workerData: {
      pglite: import.meta.resolve('@electric-sql/pglite'),
      dir,
      settings: [...EMBEDDED_SETTINGS],
    },
  });
  try {
    const answer = await new Promise<unknown>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`initdb worker exited with ${String(code)}`)));
    });
    // The worker's one message: { ok: true } or { ok: false, message }.
    const ok =
      typeof answer === 'object' && answer !== null && 'ok' in answer && answer.ok === true;
    if (!ok) {
      const message =
        typeof answer === 'object' && answer !== null && 'message' in answer
          ? String(answer.message)
          : 'no answer';
      throw new Error(`Could not create the embedded database: ${message}`);
    }
  } finally {
    await worker.terminate();
  }
}

/**
 * Opens PGlite at `pgliteDir` (a folder), or in memory when it is undefined. A folder is
 * claimed for this process first (data-dir-lock.ts): a second process on it fails with
 * DataDirLockedError instead of corrupting it.
 */
export async function createEmbeddedDatabase(
  pgliteDir: string | undefined,
  opts: { log?: LogConfig; acquireTimeoutMs?: number } = {},
): Promise<DatabaseHandle> {
  if (pgliteDir) await mkdir(pgliteDir, { recursive: true });
  const lock = pgliteDir ? await lockDataDir(pgliteDir) : null;
  let pglite: PGlite;
  try {
    if (pgliteDir && !existsSync(path.join(pgliteDir, 'PG_VERSION')))
      await createClusterInWorker(pgliteDir);
    // pg_trgm: trigram indexes for case search by name (migration 2026-11-21T0810-case-search).
    pglite = await PGlite.create(pgliteDir ?? 'memory://', {
      parsers: pgliteParsers,
      extensions: { pg_trgm },
      postgresqlconf: [...EMBEDDED_SETTINGS],
    });
  } catch (error) {
    await lock?.release();
    throw error;
  }
  const pool = new PglitePool(
    pglite,
    opts.acquireTimeoutMs === undefined ? {} : { acquireTimeoutMs: opts.acquireTimeoutMs },
  );
  const db = createKysely(pool, opts.log);
  registerNotificationSource(db, embeddedNotificationSource(pglite, pool));
  return {
    db,
    kind: 'embedded',
    close: async () => {
      try {
        await db.destroy();
        if (!pglite.closed) await pglite.close();
      } finally {
        await lock?.release();
      }
    },
  };
}

export async function createDatabase(opts: CreateDatabaseOptions): Promise<DatabaseHandle> {
  const extra = { ...(opts.log ? { log: opts.log } : {}) };
  if (opts.databaseUrl) {
    return createPostgresDatabase(opts.databaseUrl, {
      ...extra,
      ...(opts.poolSize ? { poolSize: opts.poolSize } : {}),
    });
  }
  return createEmbeddedDatabase(path.join(opts.dataDir, 'pglite'), extra);
}
