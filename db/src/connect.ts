// Opens the database: PGlite (PostgreSQL compiled to WASM, in-process) in a data folder when
// no DATABASE_URL is given, a pg Pool otherwise. Above this file there is one code path:
// Kysely's PostgresDialect with CamelCasePlugin (snake_case columns, camelCase properties).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { CamelCasePlugin, Kysely, PostgresDialect } from 'kysely';
import type { LogConfig } from 'kysely';
import pg from 'pg';
import type { Database } from './schema';
import { lockDataDir } from './data-dir-lock';
import { createDurableNodeFS, EMBEDDED_START_PARAMS, flushFolder } from './durable-fs';
import { openShortLivedEmbeddedDatabase, type EmbeddedOpenOptions } from './embedded-process';
import { migrateToLatest, pendingMigrations } from './migrate';
import {
  embeddedNotificationSource,
  postgresNotificationSource,
  registerNotificationSource,
} from './notifications';
import { PglitePool } from './pglite-pool';
import { withStatementCache } from './statement-cache';
import { pgTextOids, pgliteParsers } from './type-parsers';

export type DatabaseKind = 'embedded' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /** The migrations applied while opening (with `migrate`), in order. */
  migrated: string[];
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
  /**
   * Apply pending migrations before handing the database out (the server, the migrate
   * command); throws MigrationFailedError naming the one that failed. On an embedded data
   * folder they run in a short-lived process (createEmbeddedDatabase).
   */
  migrate?: boolean;
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
  opts: { log?: LogConfig; poolSize?: number; migrate?: boolean } = {},
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: opts.poolSize ?? 10,
    types: pgTypes,
  });
  // An idle client that loses its server connection emits 'error' on the pool; without a
  // listener that would crash the process instead of failing the next query.
  pool.on('error', () => undefined);
  const db = createKysely(withStatementCache(pool), opts.log);
  let migrated: string[] = [];
  if (opts.migrate) {
    try {
      migrated = await migrateToLatest(db);
    } catch (error) {
      await db.destroy();
      throw error;
    }
  }
  registerNotificationSource(db, postgresNotificationSource(databaseUrl, pgTypes));
  return {
    db,
    kind: 'postgres',
    migrated,
    close: () => db.destroy(),
  };
}

/**
 * The embedded database's settings, written to its postgresql.conf at every start (issue 12):
 * - shared_buffers 16 MB instead of PostgreSQL's 128 MB: PGlite allocates and touches them in
 *   the process's WebAssembly memory, which never shrinks, so they are resident from the
 *   first second (measured on a reopened folder: 29 MiB of WebAssembly memory at 16 MB, 47
 *   at 32 MB, 13 at 128 kB). The tables stay in the operating system's page cache either
 *   way: a buffer miss costs a copy, not a disk read.
 * - max_wal_size and min_wal_size: what a checkpoint keeps of the write-ahead log. PGlite
 *   runs no checkpointer (and a single-user PostgreSQL never checkpoints by itself), so the
 *   log only shrinks at a CHECKPOINT, which the server runs when the log since the last one
 *   passes half of max_wal_size (maintenance.ts checkpointIfDue). With PostgreSQL's 1 GB
 *   default a checkpoint kept up to 1 GB (measured: 637 MB of a 741 MB folder at 100,000
 *   cases).
 * - wal_sync_method = fsync: PostgreSQL's default on Linux, fdatasync, reaches a stub in
 *   PGlite's Emscripten layer and flushes nothing; fsync reaches the data folder's files
 *   (durable-fs.ts, decision 034).
 * - default_statistics_target = 25 instead of 100: ANALYZE (the upkeep, maintenance.ts) holds
 *   a sample of 300 × the target rows per table in that same memory, so at 100,000 cases the
 *   upkeep grew it for good by ~80 MiB with 30,000-row samples; with 7,500, by a few MiB, and
 *   it took half the time (decision 032's addendum). Statistics of 25 buckets still tell
 *   the planner a table's size and spread, which is what the case list needs (decision 013).
 */
const SHARED_SETTINGS = [
  'shared_buffers = 16MB',
  'wal_sync_method = fsync',
  'default_statistics_target = 25',
];

/**
 * Folders created since issue 12 have 1 MB log segments (initdb --wal-segsize=1) instead of
 * 16 MB, so a checkpoint can cut the log back to a few MB: min_wal_size must be at least two
 * segments, which with 16 MB segments is 32 MB, as much as a small service's data.
 */
export const NEW_FOLDER_INITDB_ARGS: readonly string[] = ['--wal-segsize=1'];

export const EMBEDDED_SETTINGS = {
  /** Folders with 1 MB log segments (every folder created since issue 12, and in memory). */
  smallSegments: [...SHARED_SETTINGS, 'max_wal_size = 16MB', 'min_wal_size = 4MB'],
  /** Older folders, with initdb's 16 MB segments. */
  largeSegments: [...SHARED_SETTINGS, 'max_wal_size = 64MB', 'min_wal_size = 32MB'],
} as const;

/** The size of the log segments of an existing folder (undefined when it holds none yet). */
function walSegmentBytes(pgliteDir: string): number | undefined {
  const walDir = path.join(pgliteDir, 'pg_wal');
  if (!existsSync(walDir)) return undefined;
  const segment = readdirSync(walDir).find((name) => /^[0-9A-F]{24}$/.test(name));
  return segment === undefined ? undefined : statSync(path.join(walDir, segment)).size;
}

/** The settings for a folder (new, or in memory: small segments). */
function embeddedOpenOptions(pgliteDir: string | undefined): EmbeddedOpenOptions {
  const segment = pgliteDir === undefined ? undefined : walSegmentBytes(pgliteDir);
  const small = segment === undefined || segment <= 1024 * 1024;
  return {
    settings: small ? EMBEDDED_SETTINGS.smallSegments : EMBEDDED_SETTINGS.largeSegments,
    initdbArgs: NEW_FOLDER_INITDB_ARGS,
    startParams: EMBEDDED_START_PARAMS,
  };
}

/**
 * Runs `work` on the embedded data folder `pgliteDir` in a short-lived process
 * (embedded-process.ts), creating the database first when the folder holds none. The caller
 * holds the folder's lock and has no instance of its own open on it. Creating a
 * cluster (initdb) and migrating grow PGlite's WebAssembly memory, which never shrinks, and
 * leave freed memory the process's allocator keeps; done here, all of it goes back to the
 * system with the process, and the server's own instance opens a migrated folder.
 * (Measured: a server that created its folder in a worker thread and migrated in its own
 * held 414 MiB at idle; reopening the same folder, 260.)
 */
export async function withShortLivedEmbeddedDatabase<T>(
  pgliteDir: string,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  const child = await openShortLivedEmbeddedDatabase(pgliteDir, embeddedOpenOptions(pgliteDir));
  const db = createKysely(new PglitePool(child));
  let result: T;
  try {
    result = await work(db);
  } finally {
    await db.destroy();
    await child.close();
  }
  return result;
}

/**
 * PGlite's options for the server's instance on `pgliteDir` (in memory when undefined). A
 * folder's files are flushed to the disk when PostgreSQL asks (durable-fs.ts, decision 034).
 */
export function embeddedPgliteOptions(pgliteDir: string | undefined): PGliteOptions {
  const open = embeddedOpenOptions(pgliteDir);
  return {
    ...(pgliteDir === undefined
      ? { dataDir: 'memory://' }
      : { fs: createDurableNodeFS(NodeFS, pgliteDir) }),
    parsers: pgliteParsers,
    // pg_trgm: trigram indexes for case search by name (migration 2026-11-21T0810-case-search).
    extensions: { pg_trgm },
    postgresqlconf: [...open.settings],
    initDbStartParams: [...open.initdbArgs],
    startParams: [...open.startParams],
  };
}

async function openPglite(pgliteDir: string | undefined): Promise<PGlite> {
  return PGlite.create(embeddedPgliteOptions(pgliteDir));
}

async function hasPendingMigrations(pglite: PGlite): Promise<boolean> {
  const probe = createKysely(new PglitePool(pglite));
  try {
    return (await pendingMigrations(probe)).length > 0;
  } finally {
    await probe.destroy();
  }
}

/**
 * Opens PGlite at `pgliteDir` (a folder), or in memory when it is undefined. A folder is
 * claimed for this process first (data-dir-lock.ts): a second process on it fails with
 * DataDirLockedError instead of corrupting it.
 */
export async function createEmbeddedDatabase(
  pgliteDir: string | undefined,
  opts: { log?: LogConfig; acquireTimeoutMs?: number; migrate?: boolean } = {},
): Promise<DatabaseHandle> {
  if (pgliteDir) await mkdir(pgliteDir, { recursive: true });
  const lock = pgliteDir ? await lockDataDir(pgliteDir) : null;
  let pglite: PGlite | undefined;
  let migrated: string[] = [];
  try {
    if (pgliteDir) {
      // A new folder: created, and migrated, in a short-lived process; then flushed to the
      // disk as a whole, since initdb's files were written without a flush (durable-fs.ts).
      if (!existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
        migrated = await withShortLivedEmbeddedDatabase(pgliteDir, (db) =>
          opts.migrate ? migrateToLatest(db) : Promise.resolve([]),
        );
        await flushFolder(pgliteDir);
      }
      pglite = await openPglite(pgliteDir);
      // An existing folder with migrations to apply (a new version of the app): they run in a
      // short-lived process too, between two openings of this one.
      if (opts.migrate && (await hasPendingMigrations(pglite))) {
        await pglite.close();
        pglite = undefined;
        migrated = await withShortLivedEmbeddedDatabase(pgliteDir, migrateToLatest);
        pglite = await openPglite(pgliteDir);
      }
    } else {
      pglite = await openPglite(undefined);
    }
  } catch (error) {
    if (pglite && !pglite.closed) await pglite.close();
    await lock?.release();
    throw error;
  }
  const instance = pglite;
  const pool = new PglitePool(
    instance,
    opts.acquireTimeoutMs === undefined ? {} : { acquireTimeoutMs: opts.acquireTimeoutMs },
  );
  const db = createKysely(pool, opts.log);
  const close = async () => {
    try {
      await db.destroy();
      if (!instance.closed) await instance.close();
    } finally {
      await lock?.release();
    }
  };
  // In memory there is no folder to hand to another process: the migrations run here.
  if (!pgliteDir && opts.migrate) {
    try {
      migrated = await migrateToLatest(db);
    } catch (error) {
      await close();
      throw error;
    }
  }
  registerNotificationSource(db, embeddedNotificationSource(instance, pool));
  return { db, kind: 'embedded', migrated, close };
}

export async function createDatabase(opts: CreateDatabaseOptions): Promise<DatabaseHandle> {
  const extra = {
    ...(opts.log ? { log: opts.log } : {}),
    ...(opts.migrate ? { migrate: true } : {}),
  };
  if (opts.databaseUrl) {
    return createPostgresDatabase(opts.databaseUrl, {
      ...extra,
      ...(opts.poolSize ? { poolSize: opts.poolSize } : {}),
    });
  }
  return createEmbeddedDatabase(path.join(opts.dataDir, 'pglite'), extra);
}
