// The embedded database's upkeep (PGlite has no autovacuum): after it, the planner knows how
// many rows a table holds, and the row versions edits left behind are reclaimed.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedDatabase, type DatabaseHandle } from '../src/connect';
import {
  analyzeIfDue,
  autovacuumIsOn,
  checkpoint,
  checkpointIfDue,
  vacuumAnalyze,
} from '../src/maintenance';
import { createTestDatabase, type TestDatabaseHandle } from '../src/testing';
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
  /** About `mib` MB of log: PGlite never checkpoints by itself. */
  const writeLog = async (mib: number): Promise<void> => {
    for (let i = 0; i < Math.ceil(mib / 25); i += 1)
      await sql`insert into wal_fill (body) select repeat(md5(g::text), 20) from generate_series(1, 25000) g`.execute(
        h.db,
      );
  };

  it('creates a new folder with 1 MB log segments and small buffers', async () => {
    const { rows } = await sql<{
      buffers: string;
      segment: string;
      max: string;
      min: string;
    }>`select current_setting('shared_buffers') as buffers, current_setting('wal_segment_size') as segment,
              current_setting('max_wal_size') as max, current_setting('min_wal_size') as min`.execute(
      h.db,
    );
    expect(rows[0]).toEqual({ buffers: '16MB', segment: '1MB', max: '16MB', min: '4MB' });
  });

  it('keeps the upkeep’s statistics sample small (its memory is held for good)', async () => {
    await sql`create table sampled (id int primary key)`.execute(h.db);
    await sql`insert into sampled select g from generate_series(1, 20000) g`.execute(h.db);
    await vacuumAnalyze(h.db);
    const { rows } = await sql<{ target: string; buckets: number }>`
      select current_setting('default_statistics_target') as target,
             array_length(histogram_bounds, 1) as buckets
        from pg_stats where tablename = 'sampled' and attname = 'id'`.execute(h.db);
    // 25 buckets (26 bounds) from a sample of 300 × 25 rows; PostgreSQL's default is 100.
    expect(rows[0]).toEqual({ target: '25', buckets: 26 });
  });

  it('is cut back to max_wal_size by a checkpoint', async () => {
    await sql`create table wal_fill (id serial primary key, body text)`.execute(h.db);
    await writeLog(150);
    expect(await walMiB()).toBeGreaterThan(100);
    await checkpoint(h.db);
    // max_wal_size (16 MB) of recycled segments, plus the few in use.
    expect(await walMiB()).toBeLessThanOrEqual(16 + 4);
  });

  it('checkpoints when half of max_wal_size was written, and not for a few rows', async () => {
    await checkpoint(h.db);
    await sql`insert into wal_fill (body) values ('one row')`.execute(h.db);
    const quiet = await checkpointIfDue(h.db, { maxAgeMs: 60 * 60_000 });
    expect(quiet.durationMs).toBeUndefined();
    expect(quiet.walBytes).toBeLessThan(1024 * 1024);

    await writeLog(25);
    const due = await checkpointIfDue(h.db, { maxAgeMs: 60 * 60_000 });
    expect(due.walBytes).toBeGreaterThan(8 * 1024 * 1024);
    expect(due.durationMs).toBeGreaterThan(0);
    expect(await walMiB()).toBeLessThanOrEqual(16 + 4);
    // Nothing written since: nothing due, even past the age.
    expect((await checkpointIfDue(h.db, { maxAgeMs: 0 })).durationMs).toBeUndefined();
  });

  it('checkpoints a little log once the last checkpoint is old enough', async () => {
    await checkpoint(h.db);
    await sql`insert into wal_fill (body) select repeat('x', 200) from generate_series(1, 50)`.execute(
      h.db,
    );
    expect((await checkpointIfDue(h.db, { maxAgeMs: 60 * 60_000 })).durationMs).toBeUndefined();
    expect((await checkpointIfDue(h.db, { maxAgeMs: 0 })).durationMs).toBeGreaterThan(0);
  });
});

describe('embedded folder from before 1 MB log segments', () => {
  let dir: string;
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('opens with settings its 16 MB segments allow, and keeps them', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rescuelog-wal16-'));
    // A folder as earlier versions created it: initdb's default segments.
    const old = await PGlite.create(path.join(dir, 'pglite'));
    await old.exec('create table kept (n int); insert into kept values (42);');
    await old.close();

    const h = await createEmbeddedDatabase(path.join(dir, 'pglite'));
    try {
      const { rows } = await sql<{
        segment: string;
        max: string;
        min: string;
        n: number;
      }>`select current_setting('wal_segment_size') as segment, current_setting('max_wal_size') as max,
                current_setting('min_wal_size') as min, (select n from kept) as n`.execute(h.db);
      expect(rows[0]).toEqual({ segment: '16MB', max: '64MB', min: '32MB', n: 42 });
    } finally {
      await h.close();
    }
  });
});

// A PostgreSQL server whose autovacuum is off gets its statistics from the server's own look
// for tables due an analyze (api database plugin, decision 052). On both databases here.
describe('analyze when due (autovacuum rule)', () => {
  let t: TestDatabaseHandle;
  beforeAll(async () => {
    t = await createTestDatabase();
    // The table's own autovacuum is off, so on a server where it runs it cannot analyze first.
    await sql`create table upkeep_rows (n int) with (autovacuum_enabled = false)`.execute(t.db);
  });
  afterAll(async () => {
    await t.close();
  });

  const add = async (count: number) => {
    await sql`insert into upkeep_rows select generate_series(1, ${count}::int)`.execute(t.db);
    // The changed-row counts reach the statistics when the connection reports them.
    await sql`select pg_stat_force_next_flush()`.execute(t.db);
    await sql`select pg_stat_clear_snapshot()`.execute(t.db);
  };
  const plannerRows = async (): Promise<number> => {
    const { rows } = await sql<{
      reltuples: number;
    }>`select reltuples::float8 as reltuples from pg_class where relname = 'upkeep_rows'`.execute(
      t.db,
    );
    return Number(rows[0]?.reltuples);
  };

  it('analyzes a table once 50 rows and a tenth of its counted rows changed, and only then', async () => {
    await add(49);
    expect((await analyzeIfDue(t.db)).tables).not.toContain('public.upkeep_rows');
    await add(1);
    expect((await analyzeIfDue(t.db)).tables).toContain('public.upkeep_rows');
    expect(await plannerRows()).toBe(50);
    // Counted 50: due again at 50 + 5 changed rows.
    await add(54);
    expect((await analyzeIfDue(t.db)).tables).not.toContain('public.upkeep_rows');
    await add(1);
    expect((await analyzeIfDue(t.db)).tables).toContain('public.upkeep_rows');
    expect(await plannerRows()).toBe(105);
    expect((await analyzeIfDue(t.db)).tables).toEqual([]);
  });

  it('leaves alone a table its user may not analyze (PostgreSQL would skip it at every look)', async () => {
    const suffix = randomBytes(4).toString('hex');
    const server = `upkeep_server_${suffix}`;
    const other = `upkeep_other_${suffix}`;
    await sql`create role ${sql.id(server)}`.execute(t.db);
    await sql`create role ${sql.id(other)}`.execute(t.db);
    try {
      for (const [table, owner] of [
        ['upkeep_mine', server],
        ['upkeep_theirs', other],
      ] as const) {
        await sql`create table ${sql.id(table)} (n int) with (autovacuum_enabled = false)`.execute(
          t.db,
        );
        await sql`alter table ${sql.id(table)} owner to ${sql.id(owner)}`.execute(t.db);
        await sql`insert into ${sql.id(table)} select generate_series(1, 100)`.execute(t.db);
      }
      await sql`select pg_stat_force_next_flush()`.execute(t.db);
      const tables = await t.db.connection().execute(async (conn) => {
        await sql`set role ${sql.id(server)}`.execute(conn);
        try {
          await sql`select pg_stat_clear_snapshot()`.execute(conn);
          return (await analyzeIfDue(conn)).tables;
        } finally {
          await sql`reset role`.execute(conn);
        }
      });
      expect(tables).toContain('public.upkeep_mine');
      expect(tables).not.toContain('public.upkeep_theirs');
    } finally {
      await sql`drop table if exists upkeep_mine, upkeep_theirs`.execute(t.db);
      await sql`drop role ${sql.id(server)}`.execute(t.db);
      await sql`drop role ${sql.id(other)}`.execute(t.db);
    }
  });

  it('reads whether the database runs autovacuum', async () => {
    const on = await autovacuumIsOn(t.db);
    const { rows } = await sql<{
      setting: string;
    }>`select setting from pg_settings where name = 'autovacuum'`.execute(t.db);
    expect(on).toBe(rows[0]?.setting === 'on');
  });
});
