// The two drivers under the one Kysely code path: same JavaScript values from both, the
// embedded database persisted in its data folder, and PGlite's single connection handed
// out one holder at a time (a transaction owns it until COMMIT/ROLLBACK).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, createEmbeddedDatabase } from '../src/connect';
import type { DatabaseHandle } from '../src/connect';
import { DataDirLockedError } from '../src/data-dir-lock';
import { migrateToLatest } from '../src/migrate';
import { createTestDatabase } from '../src/testing';
import { insertUser } from './helpers';

const serverUrl = process.env.DATABASE_URL;

const sample = sql<Record<string, unknown>>`select
  9007199254740993::int8 as big,
  count(*) as counted,
  1.10::numeric(4, 2) as num,
  date '2026-01-02' as day,
  timestamptz '2026-11-21 05:00:00+00' as at,
  '{"snake_key": [1, "two"]}'::jsonb as doc,
  array[1, 2]::int4[] as ints,
  array['a', 'b']::text[] as texts,
  true as flag,
  5::int4 as small,
  null::text as nothing
  from (values (1), (2)) as v(x)`;

const expectedSample = {
  big: '9007199254740993',
  counted: '2',
  num: '1.10',
  day: '2026-01-02',
  at: new Date('2026-11-21T05:00:00Z'),
  doc: { snake_key: [1, 'two'] },
  ints: [1, 2],
  texts: ['a', 'b'],
  flag: true,
  small: 5,
  nothing: null,
};

describe('value parsing', () => {
  it('embedded: int8 and numeric as exact strings, date as YYYY-MM-DD, timestamptz as Date', async () => {
    const h = await createEmbeddedDatabase(undefined);
    try {
      const { rows } = await sample.execute(h.db);
      expect(rows[0]).toEqual(expectedSample);
    } finally {
      await h.close();
    }
  });

  it.runIf(serverUrl)('postgres: exactly the same values as embedded', async () => {
    const h = await createDatabase({ databaseUrl: serverUrl, dataDir: '/nonexistent' });
    try {
      expect(h.kind).toBe('postgres');
      const { rows } = await sample.execute(h.db);
      expect(rows[0]).toEqual(expectedSample);
    } finally {
      await h.close();
    }
  });
});

describe('embedded data folder', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-db-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps data in <dataDir>/pglite across restarts', async () => {
    const first = await createDatabase({ dataDir });
    expect(first.kind).toBe('embedded');
    await migrateToLatest(first.db);
    await insertUser(first.db, 'kept@example.org');
    await first.close();
    expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);

    const second = await createDatabase({ dataDir });
    try {
      expect(await migrateToLatest(second.db)).toEqual([]);
      const user = await second.db.selectFrom('users').select('email').executeTakeFirst();
      expect(user?.email).toBe('kept@example.org');
    } finally {
      await second.close();
    }
  });
});

describe('one process per embedded data folder', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-lock-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  const lockFile = () => path.join(dataDir, 'pglite.lock');

  it('refuses a second opening of a folder in use, saying what to do, and frees it on close', async () => {
    const first = await createDatabase({ dataDir });
    try {
      const second = createDatabase({ dataDir });
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(second).rejects.toThrow(
        /in use by another RescueLog process \(pid \d+ .*Stop that process first/,
      );
      // The refused opening left the folder and the first holder untouched.
      await expect(sql`select 1 as one`.execute(first.db)).resolves.toBeTruthy();
    } finally {
      await first.close();
    }
    expect(existsSync(lockFile())).toBe(false);
    const again = await createDatabase({ dataDir });
    await again.close();
  });

  it('takes over a lock left by a process that is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.exit(0)']);
    await writeFile(
      lockFile(),
      JSON.stringify({ pid: gone.pid, host: hostname(), startedAt: '2026-11-20T10:00:00.000Z' }),
    );
    const h = await createDatabase({ dataDir });
    try {
      expect(JSON.parse(await readFile(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
    } finally {
      await h.close();
    }
  });

  it('takes over a lock naming this process that it does not hold (a restarted container gets the same pid again)', async () => {
    await writeFile(
      lockFile(),
      JSON.stringify({ pid: process.pid, host: hostname(), startedAt: '2026-11-20T10:00:00.000Z' }),
    );
    const h = await createDatabase({ dataDir });
    try {
      expect(JSON.parse(await readFile(lockFile(), 'utf8'))).not.toMatchObject({
        startedAt: '2026-11-20T10:00:00.000Z',
      });
      // Held now: a second opening in this same process is still refused.
      await expect(createDatabase({ dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
    } finally {
      await h.close();
    }
  });

  it.runIf(existsSync('/proc/sys/kernel/random/boot_id'))(
    'takes over a lock from an earlier boot even when its pid is alive now',
    async () => {
      // pid 1 always exists; after a power cut the old server's pid may name another program.
      await writeFile(
        lockFile(),
        JSON.stringify({
          pid: 1,
          host: hostname(),
          startedAt: '2026-11-20T10:00:00.000Z',
          bootId: 'an-earlier-boot',
        }),
      );
      const h = await createDatabase({ dataDir });
      try {
        expect(JSON.parse(await readFile(lockFile(), 'utf8'))).toMatchObject({ pid: process.pid });
      } finally {
        await h.close();
      }
      // The same lock from this boot is respected.
      const bootId = (await readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim();
      await writeFile(
        lockFile(),
        JSON.stringify({ pid: 1, host: hostname(), startedAt: '2026-11-20T10:00:00.000Z', bootId }),
      );
      await expect(createDatabase({ dataDir })).rejects.toBeInstanceOf(DataDirLockedError);
      await rm(lockFile());
    },
  );

  it('respects a lock held from another machine (a shared folder) and one being written just now', async () => {
    await writeFile(
      lockFile(),
      JSON.stringify({ pid: 1, host: 'another-host', startedAt: '2026-11-20T10:00:00.000Z' }),
    );
    await expect(createDatabase({ dataDir })).rejects.toThrow(/pid 1 on another-host/);
    await writeFile(lockFile(), '');
    await expect(createDatabase({ dataDir })).rejects.toThrow(
      /being opened by another process just now/,
    );
    await rm(lockFile());
  });
});

describe('embedded connection', () => {
  let h: DatabaseHandle;
  beforeAll(async () => {
    h = await createEmbeddedDatabase(undefined, { acquireTimeoutMs: 500 });
    await migrateToLatest(h.db);
  });
  afterAll(async () => {
    await h.close();
  });

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('runs two concurrent transactions one after the other, never interleaved', async () => {
    const steps: string[] = [];
    const run = (name: string, email: string) =>
      h.db.transaction().execute(async (trx) => {
        steps.push(`${name}:begin`);
        const before = await trx
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow();
        await pause(50);
        await trx
          .insertInto('users')
          .values({ email, passwordHash: 'h', fullName: name })
          .execute();
        await pause(50);
        steps.push(`${name}:commit`);
        return Number(before.n);
      });
    const [a, b] = await Promise.all([run('A', 'a@serial.test'), run('B', 'b@serial.test')]);
    expect(steps).toEqual(['A:begin', 'A:commit', 'B:begin', 'B:commit']);
    // B began after A committed, so it saw A's row.
    expect(b).toBe(a + 1);
  });

  it('makes a plain query wait until the open transaction has finished', async () => {
    const steps: string[] = [];
    const trx = h.db.transaction().execute(async (t) => {
      await insertUser(t, 'pending-commit@serial.test');
      await pause(100);
      steps.push('commit');
    });
    await pause(10);
    const read = h.db
      .selectFrom('users')
      .select('email')
      .where('email', '=', 'pending-commit@serial.test')
      .execute()
      .then((rows) => {
        steps.push('read');
        return rows;
      });
    const [, rows] = await Promise.all([trx, read]);
    expect(steps).toEqual(['commit', 'read']);
    expect(rows).toHaveLength(1);
  });

  it('rolls back a failed transaction and frees the connection', async () => {
    await expect(
      h.db.transaction().execute(async (trx) => {
        await insertUser(trx, 'rolled-back@serial.test');
        await sql`select 1 / 0`.execute(trx);
      }),
    ).rejects.toThrow(/division by zero/);
    const rows = await h.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'rolled-back@serial.test')
      .execute();
    expect(rows).toEqual([]);
  });

  it('fails clearly, instead of hanging, when code inside a transaction uses db', async () => {
    await expect(
      h.db.transaction().execute(async (trx) => {
        await insertUser(trx, 'deadlock@serial.test');
        await h.db.selectFrom('users').select('id').execute();
      }),
    ).rejects.toThrow(/instead of the transaction/);
    // The transaction was rolled back and the connection is usable again.
    const rows = await h.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'deadlock@serial.test')
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('test databases', () => {
  it.runIf(serverUrl)('on a server: a fresh database that close() drops', async () => {
    const h = await createTestDatabase();
    expect(h.kind).toBe('postgres');
    const name = new URL(h.databaseUrl ?? '').pathname.slice(1);
    expect(name).toMatch(/^test_[0-9a-f]{12}$/);
    expect(await h.db.selectFrom('users').selectAll().execute()).toEqual([]);
    await h.close();
    const admin = await createDatabase({ databaseUrl: serverUrl, dataDir: '/nonexistent' });
    try {
      const { rows } = await sql<{
        n: string;
      }>`select count(*) as n from pg_database where datname = ${name}`.execute(admin.db);
      expect(rows[0]?.n).toBe('0');
    } finally {
      await admin.close();
    }
  });

  it.skipIf(serverUrl)('embedded: in memory, migrated and empty', async () => {
    const h = await createTestDatabase();
    try {
      expect(h.kind).toBe('embedded');
      expect(h.databaseUrl).toBeUndefined();
      expect(await h.db.selectFrom('users').selectAll().execute()).toEqual([]);
      expect(await h.db.selectFrom('roles').select('name').execute()).toHaveLength(5);
    } finally {
      await h.close();
    }
  });
});
