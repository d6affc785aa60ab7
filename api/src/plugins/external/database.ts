// Opens the database (embedded PGlite in DATA_DIR, or PostgreSQL at DATABASE_URL), runs the
// migrations, and exposes Kysely as `fastify.db`. A failed migration fails the start: the
// server must never run against a schema it does not know.
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import { createDatabase } from '@rescuelog/db/connect';
import { checkpoint, vacuumAnalyze } from '@rescuelog/db/maintenance';
import { migrateToLatest } from '@rescuelog/db/migrate';
import type { Database } from '@rescuelog/db/schema';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
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
  /** Delay between checkpoints, which keep the write-ahead log bounded. */
  checkpointEveryMs: number;
}

/**
 * The embedded database's upkeep: vacuum and analyze a minute after the start, then every 6
 * hours; a checkpoint every 5 minutes.
 */
export const EMBEDDED_MAINTENANCE: EmbeddedMaintenanceSchedule = {
  firstMs: 60_000,
  everyMs: 6 * 60 * 60_000,
  checkpointEveryMs: 5 * 60_000,
};

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Runs pending migrations; throws a MigrationError that says which one failed and why. */
export async function migrateOrThrow(db: Kysely<Database>): Promise<void> {
  try {
    await migrateToLatest(db);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Database migration failed, the server was not started: ${detail}`, {
      cause: error,
    });
  }
}

export const databasePlugin = fp<{
  database?: Kysely<Database> | undefined;
  maintenance?: EmbeddedMaintenanceSchedule | undefined;
}>(
  async (fastify, options) => {
    let db = options.database;
    if (db === undefined) {
      const handle = await createDatabase({
        databaseUrl: fastify.config.databaseUrl,
        poolSize: fastify.config.databasePoolSize,
        dataDir: fastify.config.dataDir,
      });
      db = handle.db;
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
            const { durationMs } = await checkpoint(handle.db);
            fastify.log.debug({ durationMs: Math.round(durationMs) }, 'embedded checkpoint done');
          } catch (error) {
            fastify.log.warn({ err: error }, 'embedded checkpoint failed; it is tried again later');
          }
        };
        const scheduleCheckpoint = () => {
          if (closing) return;
          checkpointTimer = setTimeout(() => {
            running = running.then(writeCheckpoint).then(scheduleCheckpoint);
          }, plan.checkpointEveryMs);
          checkpointTimer.unref();
        };
        fastify.addHook('onReady', async () => {
          schedule(plan.firstMs);
          scheduleCheckpoint();
        });
      }
    }
    await migrateOrThrow(db);
    const database = db;
    fastify.decorate('db', database);
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
