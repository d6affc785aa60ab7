// Opens the database: PGlite (PostgreSQL compiled to WASM, in-process) in a data folder when
// no DATABASE_URL is given, a pg Pool otherwise. Above this file there is one code path:
// Kysely's PostgresDialect with CamelCasePlugin (snake_case columns, camelCase properties).
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
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
    // pg_trgm: trigram indexes for case search by name (migration 2026-11-21T0810-case-search).
    pglite = await PGlite.create(pgliteDir ?? 'memory://', {
      parsers: pgliteParsers,
      extensions: { pg_trgm },
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
