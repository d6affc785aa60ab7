// The embedded database's upkeep (PGlite has no autovacuum): after it, the planner knows how
// many rows a table holds, and the row versions edits left behind are reclaimed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedDatabase, type DatabaseHandle } from '../src/connect';
import { vacuumAnalyze } from '../src/maintenance';
import { migrateToLatest } from '../src/migrate';
import { insertUser } from './helpers';

describe('embedded upkeep', () => {
  let h: DatabaseHandle;
  beforeAll(async () => {
    h = await createEmbeddedDatabase(undefined);
    await migrateToLatest(h.db);
  });
  afterAll(async () => {
    await h.close();
  });

  const plannerRows = async (): Promise<number> => {
    const { rows } = await sql<{
      reltuples: number;
    }>`select reltuples::float8 as reltuples from pg_class where relname = 'users'`.execute(h.db);
    return Number(rows[0]?.reltuples);
  };
  const deadRows = async (): Promise<number> => {
    await sql`select pg_stat_force_next_flush()`.execute(h.db);
    await sql`select 1`.execute(h.db);
    const { rows } = await sql<{
      dead: string;
    }>`select n_dead_tup as dead from pg_stat_user_tables where relname = 'users'`.execute(h.db);
    return Number(rows[0]?.dead ?? 0);
  };

  it('refreshes the statistics the planner uses and reclaims dead row versions', async () => {
    for (let i = 0; i < 40; i++) await insertUser(h.db);
    // Each edit leaves a dead row version behind (as every autosave of a case does).
    for (let i = 0; i < 3; i++)
      await h.db
        .updateTable('users')
        .set({ fullName: `Renamed ${String(i)}` })
        .execute();
    expect(await plannerRows()).toBeLessThan(40);
    expect(await deadRows()).toBeGreaterThan(0);

    const { durationMs } = await vacuumAnalyze(h.db);

    expect(durationMs).toBeGreaterThan(0);
    expect(await plannerRows()).toBe(40);
    expect(await deadRows()).toBe(0);
  });
});
