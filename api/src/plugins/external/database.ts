// Opens the database (embedded PGlite in DATA_DIR, or PostgreSQL at DATABASE_URL), runs the
// migrations, and exposes Kysely as `fastify.db`. A failed migration fails the start: the
// server must never run against a schema it does not know.
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import { createDatabase } from '@rescuelog/db/connect';
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

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Runs pending migrations; throws a MigrationError that says which one failed and why. */
export async function migrateOrThrow(db: Kysely<Database>): Promise<void> {
  try {
    await migrateToLatest(db);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Database migration failed, the server was not started: ${detail}`, { cause: error });
  }
}

export const databasePlugin = fp<{ database?: Kysely<Database> | undefined }>(
  async (fastify, options) => {
    let db = options.database;
    if (db === undefined) {
      const handle = await createDatabase({ databaseUrl: fastify.config.databaseUrl, dataDir: fastify.config.dataDir });
      db = handle.db;
      fastify.addHook('onClose', async () => {
        await handle.close();
      });
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
