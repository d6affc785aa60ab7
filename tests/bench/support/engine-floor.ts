// The database engine alone on this machine: what a push's figure is measured against, so
// that figures from machines of different speeds can be read side by side (decision 053).
// The same 1,000 new cases a push phase sends, as rows of a table with nothing but a primary
// key, committed 200 to a transaction straight through the server's own database layer
// (`createDatabase`: the embedded database opened as the server opens it, its commits flushed
// to the disk, decision 034; or a database of its own on PostgreSQL). No HTTP, no validation,
// no secondary index, no audit or bookkeeping row: the cheapest durable write of those rows
// the engine offers. A push ÷ this is the share of the engine's bare write speed the push
// keeps; the rest is everything the push must do besides storing the rows.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type RawBuilder } from 'kysely';
import { createDatabase } from '@rescuelog/db/connect';
import { createBenchDatabase } from '../support';

export interface EngineFloor {
  /** Commits `count` rows, `batch` to a transaction; the time in ms. */
  write(count: number, batch: number, row: (i: number) => unknown): Promise<number>;
  close(): Promise<void>;
}

/** Opens the engine (PostgreSQL when `postgresServerUrl` is given) with an empty table. */
export async function openEngineFloor(postgresServerUrl?: string): Promise<EngineFloor> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rescuelog-floor-'));
  const database = postgresServerUrl ? await createBenchDatabase(postgresServerUrl) : undefined;
  const discard = async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  let handle: Awaited<ReturnType<typeof createDatabase>>;
  try {
    handle = await createDatabase({
      dataDir,
      ...(database ? { databaseUrl: database.url } : {}),
    });
  } catch (error) {
    await discard();
    throw error;
  }
  const { db } = handle;
  const close = async () => {
    await handle.close();
    await discard();
  };
  try {
    await sql`create table floor_rows (id uuid primary key, doc jsonb not null)`.execute(db);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    async write(count, batch, row) {
      const started = performance.now();
      for (let from = 0; from < count; from += batch) {
        const values: RawBuilder<unknown>[] = [];
        for (let i = from; i < Math.min(from + batch, count); i += 1)
          values.push(sql`(${randomUUID()}, ${JSON.stringify(row(i))}::jsonb)`);
        await db.transaction().execute(async (tx) => {
          await sql`insert into floor_rows (id, doc) values ${sql.join(values)}`.execute(tx);
        });
      }
      return performance.now() - started;
    },
    close,
  };
}
