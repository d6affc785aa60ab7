// Opens the database (embedded PGlite in DATA_DIR, or PostgreSQL at DATABASE_URL), runs the
// migrations, and exposes Kysely as `fastify.db` (and `fastify.pushDb`, where sync pushes run).
// A failed migration fails the start: the server must never run against a schema it does not
// know.
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import { createDatabase, createPostgresDatabase } from '@rescuelog/db/connect';
import { checkpointIfDue, vacuumAnalyze } from '@rescuelog/db/maintenance';
import { MigrationFailedError, migrateToLatest } from '@rescuelog/db/migrate';
import type { Database } from '@rescuelog/db/schema';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    /**
     * Where sync pushes run. On PostgreSQL a pool of its own, of `SYNC_PUSHES_AT_ONCE`
     * connections beside `db`'s: a push the gate lets in never waits for a connection behind
     * the screens' reads, and never takes one from them (decision 042). The embedded database
     * is one connection: `db` itself.
     */
    pushDb: Kysely<Database>;
    /** True when the database answers a trivial query (GET /api/ready). */
    databaseReachable(): Promise<boolean>;
  }
}

const READY_TIMEOUT_MS = 2000;
export interface EmbeddedMaintenanceSchedule {
  /** Delay of the first upkeep after the server is ready (kept out of the start's way). */
  firstMs: number;
  /** Delay between upkeeps after that. */
  everyMs: number;
  /** Delay between looks at the write-ahead log (a checkpoint when one is due). */
  walCheckEveryMs: number;
  /** Age after which a checkpoint is due if anything was written since the last one. */
  checkpointMaxAgeMs: number;
}

/**
 * The embedded database's upkeep: vacuum and analyze a minute after the start, then every 6
 * hours; a look at the write-ahead log every 10 seconds, with a checkpoint when half of
 * max_wal_size was written since the last one or the last one is 5 minutes old
 * (db/src/maintenance.ts checkpointIfDue).
 */
export const EMBEDDED_MAINTENANCE: EmbeddedMaintenanceSchedule = {
  firstMs: 60_000,
  everyMs: 6 * 60 * 60_000,
  walCheckEveryMs: 10_000,
  checkpointMaxAgeMs: 5 * 60_000,
};

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** A failed migration as a MigrationError that says which one failed and why. */
function migrationError(error: unknown): MigrationError {
  const detail = error instanceof Error ? error.message : String(error);
  return new MigrationError(`Database migration failed, the server was not started: ${detail}`, {
    cause: error,
  });
}

/** Runs pending migrations; throws a MigrationError that says which one failed and why. */
export async function migrateOrThrow(db: Kysely<Database>): Promise<void> {
  try {
    await migrateToLatest(db);
  } catch (error) {
    throw migrationError(error);
  }
}

export const databasePlugin = fp<{
  database?: Kysely<Database> | undefined;
  /** The pushes' pool for a database handed in (tests); without it, pushes use `database`. */
  pushDatabase?: Kysely<Database> | undefined;
  maintenance?: EmbeddedMaintenanceSchedule | undefined;
}>(
  async (fastify, options) => {
    let db = options.database;
    let pushDb = options.pushDatabase;
    if (db === undefined) {
      // Opened migrated: on the embedded database the migrations run in a short-lived process
      // (db/src/connect.ts), so their memory is not this server's for its whole life.
      const handle = await createDatabase({
        databaseUrl: fastify.config.databaseUrl,
        poolSize: fastify.config.databasePoolSize,
        dataDir: fastify.config.dataDir,
        migrate: true,
      }).catch((error: unknown) => {
        throw error instanceof MigrationFailedError ? migrationError(error) : error;
      });
      db = handle.db;
      const url = fastify.config.databaseUrl;
      if (handle.kind === 'postgres' && url !== undefined) {
        const pushes = await createPostgresDatabase(url, {
          poolSize: fastify.config.syncPushesAtOnce,
        });
        pushDb = pushes.db;
        fastify.addHook('onClose', () => pushes.close());
      }
      let timer: NodeJS.Timeout | undefined;
      let checkpointTimer: NodeJS.Timeout | undefined;
      let running: Promise<void> = Promise.resolve();
      let closing = false;
      fastify.addHook('onClose', async () => {
        closing = true;
        clearTimeout(timer);
        clearTimeout(checkpointTimer);
        await running;
        await handle.close();
      });
      if (handle.kind === 'embedded') {
        // PGlite has no autovacuum (db/src/maintenance.ts).
        const plan = options.maintenance ?? EMBEDDED_MAINTENANCE;
        const upkeep = async () => {
          try {
            const { durationMs } = await vacuumAnalyze(handle.db);
            fastify.log.info(
              { durationMs: Math.round(durationMs) },
              'embedded database upkeep (vacuum, analyze) done',
            );
          } catch (error) {
            fastify.log.warn(
              { err: error },
              'embedded database upkeep failed; it is tried again later',
            );
          }
        };
        const schedule = (delay: number) => {
          if (closing) return;
          timer = setTimeout(() => {
            running = running.then(upkeep).then(() => schedule(plan.everyMs));
          }, delay);
          timer.unref();
        };
        // PGlite has no checkpointer either: without checkpoints its log only grows.
        const writeCheckpoint = async () => {
          try {
            const { walBytes, durationMs } = await checkpointIfDue(handle.db, {
              maxAgeMs: plan.checkpointMaxAgeMs,
            });
            if (durationMs !== undefined)
              fastify.log.debug(
                { durationMs: Math.round(durationMs), walBytes },
                'embedded checkpoint done',
              );
          } catch (error) {
            fastify.log.warn({ err: error }, 'embedded checkpoint failed; it is tried again later');
          }
        };
        const scheduleCheckpoint = () => {
          if (closing) return;
          checkpointTimer = setTimeout(() => {
            running = running.then(writeCheckpoint).then(scheduleCheckpoint);
          }, plan.walCheckEveryMs);
          checkpointTimer.unref();
        };
        fastify.addHook('onReady', async () => {
          schedule(plan.firstMs);
          scheduleCheckpoint();
        });
      }
    }
    // A database handed in by the caller (tests) is migrated here.
    if (options.database !== undefined) await migrateOrThrow(db);
    const database = db;
    fastify.decorate('db', database);
    fastify.decorate('pushDb', pushDb ?? database);
    fastify.decorate('databaseReachable', async () => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), READY_TIMEOUT_MS);
      });
      const probe = sql`select 1`.execute(database).then(
        () => true,
        () => false,
      );
      try {
        return await Promise.race([probe, timeout]);
      } finally {
        clearTimeout(timer);
      }
    });
  },
  { name: 'database', dependencies: ['env'] },
);
