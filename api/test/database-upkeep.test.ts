// The server keeps its database in shape when the database does not do it by itself.
// - Embedded (PGlite has no autovacuum nor checkpointer): once ready it runs VACUUM (ANALYZE) on
//   its schedule, so the planner learns the real table sizes, and checkpoints when enough log
//   was written, so the log stays small.
// - PostgreSQL whose autovacuum is off (this machine's and CI's): it analyzes the tables that
//   changed by autovacuum's rule, so a statement it prepared while a table was small does not
//   keep that table's sequential scan as the table grows (decision 052).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createPostgresDatabase } from '@rescuelog/db/connect';
import { autovacuumIsOn } from '@rescuelog/db/maintenance';
import { createTestDatabase, type TestDatabaseHandle } from '@rescuelog/db/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from '@rescuelog/sync-protocol/server/env';
import { buildApp } from '../src/app';
import { resolveConfig } from '../src/config';
import { newVapidEnv } from '@rescuelog/sync-protocol/server/vapid-keys';

const serverUrl = process.env.DATABASE_URL;

function logLines(): { lines: string[]; stream: Writable } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { lines, stream };
}

/** PostgreSQL's `autovacuum` setting on the test server (off on this machine and in CI). */
async function autovacuumOnServer(url: string): Promise<boolean> {
  const server = await createPostgresDatabase(url, { poolSize: 1 });
  try {
    return await autovacuumIsOn(server.db);
  } finally {
    await server.close();
  }
}

const autovacuumOff = serverUrl !== undefined && !(await autovacuumOnServer(serverUrl));

describe.skipIf(serverUrl)('embedded database upkeep', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('runs vacuum and analyze after the start and on its schedule, checkpoints once enough log was written, and stops with the server', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-upkeep-'));
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const env = parseEnv({
      PORT: '0',
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    });
    const app = await buildApp({
      config: resolveConfig(env),
      logger: { level: 'debug', stream },
      databaseUpkeep: {
        firstMs: 20,
        everyMs: 200,
        walCheckEveryMs: 100,
        checkpointMaxAgeMs: 60 * 60_000,
        analyzeCheckEveryMs: 100,
      },
    });
    try {
      // Rows the planner has not counted yet: the migrations' statistics are of empty tables.
      await sql`insert into roles (name, display_name, permissions) select 'role-' || g, 'Role ' || g, '{}'::jsonb from generate_series(1, 30) g`.execute(
        app.db,
      );
      await app.ready();
      const upkeeps = () =>
        lines.filter((l) => l.includes('embedded database upkeep (vacuum, analyze) done')).length;
      await expect.poll(upkeeps, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
      // And checkpoints, which keep the write-ahead log bounded (PGlite has no checkpointer):
      // one once half of max_wal_size (16 MB) was written since the last.
      const checkpoints = () => lines.filter((l) => l.includes('embedded checkpoint done')).length;
      const before = checkpoints();
      await sql`create table wal_fill (body text)`.execute(app.db);
      await sql`insert into wal_fill select repeat(md5(g::text), 20) from generate_series(1, 25000) g`.execute(
        app.db,
      );
      await expect.poll(checkpoints, { timeout: 10_000 }).toBeGreaterThan(before);
      const wal = await sql<{
        bytes: string;
      }>`select coalesce(sum(size), 0) as bytes from pg_ls_waldir()`.execute(app.db);
      // max_wal_size (16 MB) of recycled segments, plus the few in use.
      expect(Number(wal.rows[0]?.bytes) / 1024 / 1024).toBeLessThanOrEqual(16 + 4);
      const { rows } = await sql<{
        reltuples: number;
      }>`select reltuples::float8 as reltuples from pg_class where relname = 'roles'`.execute(
        app.db,
      );
      const counted = await app.db
        .selectFrom('roles')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(counted.n)).toBeGreaterThanOrEqual(30);
      expect(Number(rows[0]?.reltuples)).toBe(Number(counted.n));
    } finally {
      await app.close();
    }
    const after = lines.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(
      lines.slice(after).filter((l) => l.includes('upkeep') || l.includes('checkpoint')),
    ).toEqual([]);
  });
});

describe.runIf(autovacuumOff)('PostgreSQL without autovacuum', () => {
  let handle: TestDatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });

  it('analyzes a table that grew, so a statement prepared while it was small reads its index again', async () => {
    handle = await createTestDatabase();
    const { lines, stream } = logLines();
    const env = parseEnv({
      PORT: '0',
      DATABASE_URL: handle.databaseUrl,
      ...newVapidEnv(),
      WEB_DIST: path.join(tmpdir(), 'rescuelog-no-web'),
      SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    });
    const app = await buildApp({
      config: resolveConfig(env),
      logger: { level: 'debug', stream },
      databaseUpkeep: {
        firstMs: 60 * 60_000,
        everyMs: 60 * 60_000,
        walCheckEveryMs: 60 * 60_000,
        checkpointMaxAgeMs: 60 * 60_000,
        analyzeCheckEveryMs: 100,
      },
    });
    try {
      await app.ready();
      expect(lines.some((l) => l.includes("PostgreSQL's autovacuum is off"))).toBe(true);
      const { id: userId } = await app.db
        .insertInto('users')
        .values({ email: 'upkeep@example.org', passwordHash: 'x', fullName: 'Upkeep Test' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const addCases = (from: number, count: number) =>
        sql`insert into cases (case_id, user_id, patient_name)
            select 'C-UPKEEP-' || g, ${userId}, 'Patient ' || g
              from generate_series(${from}::int, ${from + count - 1}::int) g`.execute(app.db);
      await addCases(1, 20);
      // One connection of the server's pool throughout, as a push's read of the cases it names
      // runs on one: the server prepares the statement (decision 048), and after five runs
      // PostgreSQL keeps one plan for it, chosen while the table holds 20 rows.
      await app.db.connection().execute(async (conn) => {
        const lookup = () =>
          conn.selectFrom('cases').select('id').where('id', '=', randomUUID()).execute();
        for (let i = 0; i < 10; i += 1) await lookup();
        const prepared = await sql<{ name: string }>`
          select name from pg_prepared_statements
           where statement like 'select "id" from "cases" where "id" = $1%'`.execute(conn);
        const name = prepared.rows[0]?.name;
        expect(name).toMatch(/^rl_/);
        const plan = async () => {
          // EXPLAIN EXECUTE takes its arguments inline, not as parameters.
          const explained = await sql<Record<string, string>>`explain execute ${sql.id(
            name ?? '',
          )}(${sql.lit(randomUUID())})`.execute(conn);
          return explained.rows.map((row) => Object.values(row).join('')).join('\n');
        };
        expect(await plan()).toMatch(/Seq Scan on cases/);
        // The table grows; the plan PostgreSQL kept would read all of it at every run.
        await addCases(21, 20_000);
        await expect.poll(plan, { timeout: 15_000, interval: 200 }).toMatch(/Index.* on cases/);
      });
      expect(
        lines.some((l) => l.includes('database analyze done') && l.includes('public.cases')),
      ).toBe(true);
    } finally {
      await app.close();
    }
  });
});
