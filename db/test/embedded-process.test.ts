// Creating and migrating an embedded data folder happens in a short-lived process (issue 12:
// what grows PGlite's memory once and for good is given back when that process exits), and
// the opening instance finds a migrated folder. The folder stays locked to this process
// throughout.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type LogEvent } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createDatabase, withShortLivedEmbeddedDatabase } from '../src/connect';
import { DataDirLockedError } from '../src/data-dir-lock';
import { MigrationFailedError, appliedMigrations, migrateDown, migrations } from '../src/migrate';

const serverUrl = process.env.DATABASE_URL;
const ALL = Object.keys(migrations);
const LAST = ALL[ALL.length - 1] ?? '';
const BEFORE_LAST = ALL[ALL.length - 2] ?? '';

/** The statements a handle's own Kysely ran (its `log`). */
function statementLog(): { statements: string[]; log: (event: LogEvent) => void } {
  const statements: string[] = [];
  return { statements, log: (event) => statements.push(event.query.sql) };
}

const schemaChanges = (statements: string[]) =>
  statements.filter((s) => /^\s*(create|alter|drop)\b/i.test(s));

describe.skipIf(serverUrl)(
  'embedded folders are created and migrated in a short-lived process',
  () => {
    let dataDir: string | undefined;
    afterEach(async () => {
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
      dataDir = undefined;
    });

    it('creates and migrates a new folder there; the opening instance only finds the schema', async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-fresh-'));
      const { statements, log } = statementLog();
      const h = await createDatabase({ dataDir, migrate: true, log });
      try {
        expect(h.migrated).toEqual(ALL);
        expect(await appliedMigrations(h.db)).toEqual(ALL);
        // The migrated schema is there (one auth epoch row), and this instance created nothing.
        const { rows } = await sql<{ epoch: string }>`select epoch from auth_epoch`.execute(h.db);
        expect(rows).toHaveLength(1);
        expect(Number(rows[0]?.epoch)).toBeGreaterThanOrEqual(0);
        expect(schemaChanges(statements)).toEqual([]);
      } finally {
        await h.close();
      }
      expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
    });

    it('applies a new version’s migrations to an existing folder there too', async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-upgrade-'));
      const first = await createDatabase({ dataDir, migrate: true });
      await migrateDown(first.db, BEFORE_LAST);
      await first.close();

      const { statements, log } = statementLog();
      const second = await createDatabase({ dataDir, migrate: true, log });
      try {
        expect(second.migrated).toEqual([LAST]);
        expect(await appliedMigrations(second.db)).toEqual(ALL);
        expect(schemaChanges(statements)).toEqual([]);
      } finally {
        await second.close();
      }

      // Up to date: nothing to apply, and the folder is opened once.
      const third = await createDatabase({ dataDir, migrate: true });
      expect(third.migrated).toEqual([]);
      await third.close();
    });

    it('fails the opening with the failed migration’s name, applies none of the batch, and frees the folder', async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-failed-'));
      const first = await createDatabase({ dataDir, migrate: true });
      await migrateDown(first.db, BEFORE_LAST);
      // Something in the way of the last migration, whichever it is: a migration changes the
      // schema, which an event trigger refuses, or the data of the app's tables, which a
      // statement trigger on each of them refuses (made first: they are schema changes too).
      await sql`create function refuse_data_changes() returns trigger language plpgsql
        as $$ begin raise exception 'the test refuses data changes'; end $$`.execute(first.db);
      await sql`do $$ declare t record; begin
        for t in select tablename from pg_tables
          where schemaname = 'public' and tablename not like 'kysely%' loop
          execute format('create trigger refuse_data_changes before insert or update or delete
            on %I for each statement execute function refuse_data_changes()', t.tablename);
        end loop; end $$`.execute(first.db);
      await sql`create function refuse_schema_changes() returns event_trigger language plpgsql
        as $$ begin raise exception 'the test refuses schema changes'; end $$`.execute(first.db);
      await sql`create event trigger refuse_schema_changes on ddl_command_start
        execute function refuse_schema_changes()`.execute(first.db);
      await first.close();

      const failed = createDatabase({ dataDir, migrate: true });
      await expect(failed).rejects.toBeInstanceOf(MigrationFailedError);
      await expect(failed).rejects.toMatchObject({
        migrationName: LAST,
        message: expect.stringMatching(/the test refuses (schema|data) changes/),
      });

      // The folder is free again and unchanged.
      const after = await createDatabase({ dataDir });
      try {
        expect(await appliedMigrations(after.db)).toEqual(ALL.slice(0, -1));
        const { rows } = await sql<{
          name: string;
        }>`select evtname as name from pg_event_trigger`.execute(after.db);
        expect(rows).toEqual([{ name: 'refuse_schema_changes' }]);
      } finally {
        await after.close();
      }
    });

    it('holds the folder’s lock while the short-lived process works on it', async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-locked-'));
      const folder = dataDir;
      const opening = createDatabase({ dataDir: folder, migrate: true });
      // The lock is taken before the process starts, and the cluster is not there yet.
      await expect
        .poll(() => existsSync(path.join(folder, 'pglite.lock')), { timeout: 10_000 })
        .toBe(true);
      expect(existsSync(path.join(folder, 'pglite', 'PG_VERSION'))).toBe(false);
      await expect(createDatabase({ dataDir: folder })).rejects.toBeInstanceOf(DataDirLockedError);
      const h = await opening;
      await h.close();
    });

    it('hands back the same values and database errors as the server’s own instance', async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-wire-'));
      const answer = await withShortLivedEmbeddedDatabase(
        path.join(dataDir, 'pglite'),
        async (db) => {
          const { rows } = await sql<Record<string, unknown>>`select
          9007199254740993::int8 as big, 1.10::numeric(4, 2) as num, date '2026-01-02' as day,
          timestamptz '2026-11-21 05:00:00+00' as at, '{"snake_key": [1]}'::jsonb as doc,
          array[1, 2]::int4[] as ints, 5 as small, null::text as nothing`.execute(db);
          await sql`create table pairs (k text constraint pairs_k_key unique)`.execute(db);
          await sql`insert into pairs values (${'a'})`.execute(db);
          const duplicate = await sql`insert into pairs values (${'a'})`.execute(db).then(
            () => undefined,
            (error: unknown) => error,
          );
          return { row: rows[0], duplicate };
        },
      );
      expect(answer.row).toEqual({
        big: '9007199254740993',
        num: '1.10',
        day: '2026-01-02',
        at: new Date('2026-11-21T05:00:00Z'),
        doc: { snake_key: [1] },
        ints: [1, 2],
        small: 5,
        nothing: null,
      });
      expect(answer.duplicate).toBeInstanceOf(Error);
      expect(answer.duplicate).toMatchObject({ code: '23505', constraint: 'pairs_k_key' });
    });
  },
);
