// Migrations apply, roll back and re-apply; a failing one is named and leaves nothing behind.
import fc from 'fast-check';
import { sql } from 'kysely';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  MigrationFailedError,
  appliedMigrations,
  migrateDown,
  migrateToLatest,
  migrations,
} from '../src/migrate';
import { PLATFORM_TABLES } from '../src/schema';
import { createTestDatabase } from '../src/testing';
import type { TestDatabaseHandle } from '../src/testing';

const names = Object.keys(migrations);

const toSnake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The tables whose rows take their version from the sync sequence (synced records). */
async function versionTriggered<T>(db: Kysely<T>): Promise<string[]> {
  const result = await sql<{ name: string }>`
    select distinct event_object_table as name from information_schema.triggers
    where trigger_schema = current_schema() and trigger_name like '%\_assign\_version'
    order by 1`.execute(db);
  return result.rows.map((r) => r.name);
}

async function userTables<T>(db: Kysely<T>): Promise<string[]> {
  const result = await sql<{ tableName: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_name not like 'kysely_%'
    order by table_name`.execute(db);
  return result.rows.map((r) => r.tableName);
}

const handles: TestDatabaseHandle[] = [];
async function emptyDatabase(): Promise<TestDatabaseHandle> {
  const h = await createTestDatabase({ migrate: false });
  handles.push(h);
  return h;
}

afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

describe('migrations', () => {
  it('are listed in timestamp order', () => {
    expect(names).toEqual([...names].sort());
    for (const name of names) expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{4}-[a-z0-9-]+$/);
  });

  it('apply to latest, roll back to nothing and apply again', async () => {
    const { db } = await emptyDatabase();
    expect(await migrateToLatest(db)).toEqual(names);
    expect(await appliedMigrations(db)).toEqual(names);
    // The platform's tables, and every other one a synced record's table (its version
    // trigger: createSyncedTable). Which kinds those are is the registry's to say
    // (api/test/record-tables.test.ts): db does not know the record kinds.
    const tables = await userTables(db);
    expect(tables).toEqual(expect.arrayContaining(PLATFORM_TABLES.map(toSnake)));
    const synced = tables.filter((t) => !PLATFORM_TABLES.map(toSnake).includes(t));
    expect(synced.length).toBeGreaterThan(0);
    expect(await versionTriggered(db)).toEqual(synced);
    // Running again is a no-op.
    expect(await migrateToLatest(db)).toEqual([]);

    expect(await migrateDown(db)).toEqual([...names].reverse());
    expect(await userTables(db)).toEqual([]);
    expect(await appliedMigrations(db)).toEqual([]);
    // Functions and the sequence went with them, so a second round starts clean.
    expect(await migrateToLatest(db)).toEqual(names);
    expect(await db.selectFrom('roles').select('name').orderBy('name').execute()).toEqual([
      { name: 'administrator' },
      { name: 'member' },
      { name: 'observer' },
      { name: 'responder' },
      { name: 'stores' },
    ]);
  });

  it('add the system roles without touching a custom role of the same name', async () => {
    const { db } = await emptyDatabase();
    await migrateToLatest(db);
    await migrateDown(db, '2026-11-21T0850-addendum-author');
    await sql`insert into roles (name, display_name, permissions) values
      ('stores', 'Our stores', '{"medicalInventory": {"read": true}}')`.execute(db);
    await migrateToLatest(db);
    const rows = await sql<{ name: string; displayName: string; isSystem: boolean }>`
      select name, display_name, is_system from roles order by name`.execute(db);
    expect(rows.rows).toEqual([
      { name: 'administrator', displayName: 'Administrator', isSystem: true },
      { name: 'member', displayName: 'Member', isSystem: true },
      { name: 'observer', displayName: 'Observer', isSystem: true },
      { name: 'responder', displayName: 'Responder', isSystem: true },
      { name: 'stores', displayName: 'Our stores', isSystem: false },
    ]);
    // Rolling back removes only what the migration added.
    await migrateDown(db, '2026-11-21T0850-addendum-author');
    const left = await sql<{ name: string }>`select name from roles order by name`.execute(db);
    expect(left.rows.map((r) => r.name)).toEqual(['administrator', 'member', 'stores']);
  });

  it('move notifications written before the delivery lifecycle onto it, losing no inbox entry', async () => {
    const { db } = await emptyDatabase();
    await migrateToLatest(db);
    await migrateDown(db, '2026-11-25T0500-auth-epoch');
    await sql`insert into users (id, email, password_hash, full_name, status)
      overriding system value values (1, 'a@example.org', 'x', 'Alice', 'approved')`.execute(db);
    await sql`insert into notifications (id, title, message, status, sent_at, scheduled_for)
      overriding system value values
        (1, 'Sent', 'm', 'sent', now(), null),
        (2, 'Later', 'm', 'scheduled', null, now() + interval '1 day'),
        (3, 'Odd', 'm', 'failed', null, null)`.execute(db);
    await sql`insert into notification_deliveries (notification_id, user_id, status, delivered_at, read_at)
      values (1, 1, 'delivered', now(), now()), (2, 1, 'pending', null, null),
             (3, 1, 'delivered', now(), null)`.execute(db);
    await migrateToLatest(db);
    const notes = await sql<{ id: number; status: string; fanned: boolean }>`
      select id, status, fanned_out_at is not null as fanned from notifications order by id`.execute(
      db,
    );
    expect(notes.rows).toEqual([
      { id: 1, status: 'sent', fanned: true },
      // Recipients of a scheduled one are chosen when it is sent.
      { id: 2, status: 'scheduled', fanned: false },
      { id: 3, status: 'sent', fanned: true },
    ]);
    const deliveries = await sql<{ notificationId: number; status: string }>`
      select notification_id, status from notification_deliveries order by notification_id`.execute(
      db,
    );
    expect(deliveries.rows).toEqual([
      { notificationId: 1, status: 'read' },
      { notificationId: 3, status: 'delivered' },
    ]);
  });

  it('compute the case search grams in one pass, giving the same arrays as the SQL function before', async () => {
    const { db } = await emptyDatabase();
    await migrateToLatest(db);
    const texts = [
      '',
      'a',
      'ab',
      'Thandi Mokoena',
      'sipho dlamini\u001fr7',
      'x\u{1F600}y',
      'e\u0301clair',
      'line\nbreak\ttab',
      ...fc.sample(
        fc.string({ unit: 'binary', maxLength: 40 }).map((t) => t.split('\u0000').join('')),
        { numRuns: 300, seed: 36 },
      ),
    ];
    const grams = async () => {
      const { rows } = await sql<{ grams: string[] | null }>`
        select case_search_grams(t) as grams from unnest(${texts}::text[]) with ordinality u(t, i)
        order by i`.execute(db);
      return rows.map((r) => r.grams);
    };
    const now = await grams();
    await migrateDown(db, '2026-11-26T0900-notification-delivery');
    const before = await grams();
    expect(now).toEqual(before);
    expect(now[2]).toEqual(['a', 'b', 'ab']);
    // Strict: no text, no grams.
    const { rows } = await sql<{ grams: string[] | null }>`
      select case_search_grams(null) as grams`.execute(db);
    expect(rows).toEqual([{ grams: null }]);
  });

  it('drop the case indexes the search covers, on a database with cases, and keep the pull’s', async () => {
    const { db } = await emptyDatabase();
    await migrateToLatest(db);
    await migrateDown(db, '2026-11-26T1500-sync-horizon');
    await sql`insert into users (id, email, password_hash, full_name) values (1, 'a@b', 'x', 'A')`.execute(
      db,
    );
    await sql`insert into cases (id, case_id, user_id, status, created_at)
      select gen_random_uuid(), 'C-' || g, 1, 'completed', now() - g * interval '1 minute'
      from generate_series(1, 50) g`.execute(db);
    await migrateToLatest(db);
    const indexes = async (): Promise<string[]> =>
      (
        await sql<{ indexname: string }>`select indexname from pg_indexes
          where tablename = 'cases' and indexname in
            ('cases_created_idx', 'cases_status_idx', 'cases_user_created_idx')
          order by indexname`.execute(db)
      ).rows.map((r) => r.indexname);
    expect(await indexes()).toEqual(['cases_user_created_idx']);
    // The list's date range and status read the live cases' index, in the list's own order
    // (the table is small: the planner is told not to scan it, as it would not at scale).
    const plan = await db.transaction().execute(async (tx) => {
      await sql`set local enable_seqscan = off`.execute(tx);
      const r = await sql<Record<string, string>>`explain select id from cases
        where deleted_at is null and status = 'completed'
          and created_at >= now() - interval '10 minutes'
        order by created_at desc, case_id collate "C" desc limit 51`.execute(tx);
      return r.rows.map((row) => Object.values(row)[0]).join('\n');
    });
    expect(plan).toMatch(/cases_search_(newest|status)_idx/);
    expect(plan).not.toMatch(/Sort/);
    const counted = await sql<{ n: number }>`select count(*)::int as n from cases
      where deleted_at is null and status = 'completed'`.execute(db);
    expect(counted.rows[0]?.n).toBe(50);
    await migrateDown(db, '2026-11-26T1500-sync-horizon');
    expect(await indexes()).toEqual([
      'cases_created_idx',
      'cases_status_idx',
      'cases_user_created_idx',
    ]);
  });

  it('roll back one step at a time', async () => {
    const { db } = await emptyDatabase();
    await migrateToLatest(db);
    for (let i = names.length - 1; i >= 1; i--) {
      const target = names[i - 1];
      expect(await migrateDown(db, target)).toEqual([names[i]]);
      expect(await appliedMigrations(db)).toEqual(names.slice(0, i));
    }
  });

  it('name the failed migration and apply none of the pending batch', async () => {
    const { db } = await emptyDatabase();
    const broken = {
      ...migrations,
      '2099-01-01T0000-broken': {
        async up(d: Kysely<unknown>) {
          await sql`alter table no_such_table add column x integer`.execute(d);
        },
      },
    };
    const error = await migrateToLatest(db, broken).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(MigrationFailedError);
    const failure = error as MigrationFailedError;
    expect(failure.migrationName).toBe('2099-01-01T0000-broken');
    expect(failure.message).toMatch(
      /^Database migration "2099-01-01T0000-broken" failed to apply: .*no_such_table/,
    );
    // All pending migrations run in one transaction: the good ones were rolled back too.
    expect(await userTables(db)).toEqual([]);
    expect(await appliedMigrations(db)).toEqual([]);
  });

  it('refuse to run when the database has a migration this code does not know', async () => {
    const { db } = await emptyDatabase();
    await migrateToLatest(db);
    const older = Object.fromEntries(Object.entries(migrations).slice(0, 1));
    await expect(migrateToLatest(db, older)).rejects.toThrow(
      /Database migrations could not apply: .*missing/i,
    );
  });
});
