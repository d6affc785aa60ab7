// The embedded database's upkeep (PGlite has no autovacuum): after it, the planner knows how
// many rows a table holds, and the row versions edits left behind are reclaimed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedDatabase, type DatabaseHandle } from '../src/connect';
import { checkpoint, vacuumAnalyze } from '../src/maintenance';
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

describe('embedded write-ahead log', () => {
  let dir: string;
  let h: DatabaseHandle;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rescuelog-wal-'));
    h = await createEmbeddedDatabase(dir);
  });
  afterAll(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
  });

  const walMiB = async (): Promise<number> => {
    const { rows } = await sql<{
      bytes: string;
    }>`select coalesce(sum(size), 0) as bytes from pg_ls_waldir()`.execute(h.db);
    return Number(rows[0]?.bytes ?? 0) / 1024 / 1024;
  };

  it('runs with small buffers and is cut back to max_wal_size by a checkpoint', async () => {
    const { rows } = await sql<{
      buffers: string;
      max: string;
    }>`select current_setting('shared_buffers') as buffers, current_setting('max_wal_size') as max`.execute(
      h.db,
    );
    expect(rows[0]).toEqual({ buffers: '32MB', max: '64MB' });
    // About 150 MB of log: far past max_wal_size, and PGlite never checkpoints by itself.
    await sql`create table wal_fill (id serial primary key, body text)`.execute(h.db);
    for (let i = 0; i < 6; i += 1)
      await sql`insert into wal_fill (body) select repeat(md5(g::text), 20) from generate_series(1, 25000) g`.execute(
        h.db,
      );
    const before = await walMiB();
    expect(before).toBeGreaterThan(100);
    await checkpoint(h.db);
    expect(await walMiB()).toBeLessThanOrEqual(64 + 16);
  });
});
