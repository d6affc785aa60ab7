// Opens the database (embedded PGlite in DATA_DIR, or PostgreSQL at DATABASE_URL), runs the
// migrations, and exposes Kysely as `fastify.db` (and `fastify.pushDb`, where sync pushes run).
// A failed migration fails the start: the server must never run against a schema it does not
// know.
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import { createDatabase, createPostgresDatabase } from '@rescuelog/db/connect';
import {
  analyzeIfDue,
  autovacuumIsOn,
  checkpointIfDue,
  vacuumAnalyze,
} from '@rescuelog/db/maintenance';
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
export interface DatabaseUpkeepSchedule {
  /** Delay of the first vacuum and analyze after the server is ready (kept out of the start's way). */
  firstMs: number;
  /** Delay between vacuums after that. */
  everyMs: number;
  /** Embedded: delay between looks at the write-ahead log (a checkpoint when one is due). */
  walCheckEveryMs: number;
  /** Embedded: age after which a checkpoint is due if anything was written since the last one. */
  checkpointMaxAgeMs: number;
  /** PostgreSQL without autovacuum: delay between looks for tables due an analyze. */
  analyzeCheckEveryMs: number;
}

/**
 * The upkeep the server does when the database does not do it by itself (db/src/maintenance.ts):
 * - the embedded database (no autovacuum, no checkpointer): vacuum and analyze a minute after
 *   the start, then every 6 hours; a look at the write-ahead log every 10 seconds, with a
 *   checkpoint when half of max_wal_size was written since the last one or the last one is 5
 *   minutes old (checkpointIfDue);
 * - PostgreSQL whose autovacuum is off: the same vacuum and analyze, and every 5 seconds an
 *   analyze of the tables that changed by autovacuum's rule (analyzeIfDue, decision 052).
 *   PostgreSQL with autovacuum on needs nothing from the server.
 */
export const DATABASE_UPKEEP: DatabaseUpkeepSchedule = {
  firstMs: 60_000,
  everyMs: 6 * 60 * 60_000,
  walCheckEveryMs: 10_000,
  checkpointMaxAgeMs: 5 * 60_000,
  // Often enough that a busy start (an empty table filled by thousands of cases a second) is
  // caught within a few thousand rows: a 30-second look let the push fall to a fifth first
  // (tests/bench/push-growth.ts). When nothing is due the look is one small query.
  analyzeCheckEveryMs: 5_000,
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
  maintenance?: DatabaseUpkeepSchedule | undefined;
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
      const timers = new Set<NodeJS.Timeout>();
      let running: Promise<void> = Promise.resolve();
      let closing = false;
      fastify.addHook('onClose', async () => {
        closing = true;
        for (const timer of timers) clearTimeout(timer);
        await running;
        await handle.close();
      });
      /**
       * Runs `task` after `firstMs`, then again `everyMs` after each run ends, until the server
       * closes. All upkeep tasks queue on one promise, so two never run at once (on the embedded
       * database they would only wait for each other on its one connection).
       */
      const repeat = (firstMs: number, everyMs: number, task: () => Promise<void>) => {
        const next = (delay: number) => {
          if (closing) return;
          const timer = setTimeout(() => {
            timers.delete(timer);
            running = running.then(task).then(() => next(everyMs));
          }, delay);
          timer.unref();
          timers.add(timer);
        };
        next(firstMs);
      };
      /** A task that logs its failure and is tried again at its next turn. */
      const guarded = (failed: string, task: () => Promise<void>) => async () => {
        try {
          await task();
        } catch (error) {
          fastify.log.warn({ err: error }, failed);
        }
      };
      const plan = options.maintenance ?? DATABASE_UPKEEP;
      const vacuum = guarded('database upkeep failed; it is tried again later', async () => {
        const { durationMs } = await vacuumAnalyze(handle.db);
        fastify.log.info(
          { durationMs: Math.round(durationMs) },
          `${handle.kind} database upkeep (vacuum, analyze) done`,
        );
      });
      if (handle.kind === 'embedded') {
        // PGlite has neither autovacuum nor a checkpointer: without checkpoints its log only grows.
        const writeCheckpoint = guarded(
          'embedded checkpoint failed; it is tried again later',
          async () => {
            const { walBytes, durationMs } = await checkpointIfDue(handle.db, {
              maxAgeMs: plan.checkpointMaxAgeMs,
            });
            if (durationMs !== undefined)
              fastify.log.debug(
                { durationMs: Math.round(durationMs), walBytes },
                'embedded checkpoint done',
              );
          },
        );
        fastify.addHook('onReady', async () => {
          repeat(plan.firstMs, plan.everyMs, vacuum);
          repeat(plan.walCheckEveryMs, plan.walCheckEveryMs, writeCheckpoint);
        });
      } else {
        const analyze = guarded('database analyze failed; it is tried again later', async () => {
          const { tables, durationMs } = await analyzeIfDue(handle.db);
          if (tables.length > 0)
            fastify.log.debug(
              { tables, durationMs: Math.round(durationMs) },
              'database analyze done',
            );
        });
        fastify.addHook('onReady', async () => {
          // A failed read must not fail the start: the server then does the upkeep itself,
          // which costs little beside an autovacuum that runs after all.
          const on = await autovacuumIsOn(handle.db).catch((error: unknown) => {
            fastify.log.warn({ err: error }, "could not read PostgreSQL's autovacuum setting");
            return false;
          });
          if (on) return;
          fastify.log.warn(
            "PostgreSQL's autovacuum is off (or unknown): the server analyzes tables that changed and vacuums every 6 hours itself; turn autovacuum on to leave this to PostgreSQL",
          );
          repeat(plan.analyzeCheckEveryMs, plan.analyzeCheckEveryMs, analyze);
          repeat(plan.firstMs, plan.everyMs, vacuum);
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
