// The server keeps its embedded database in shape by itself (PGlite has no autovacuum nor
// checkpointer): once ready it runs VACUUM (ANALYZE) on its schedule, so the planner learns
// the real table sizes, and checkpoints when enough log was written, so the log stays small.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { parseEnv } from '@rescuelog/sync-protocol/env';
import { buildApp } from '../src/app';
import { resolveConfig } from '../src/config';

const serverUrl = process.env.DATABASE_URL;

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
      embeddedMaintenance: {
        firstMs: 20,
        everyMs: 200,
        walCheckEveryMs: 100,
        checkpointMaxAgeMs: 60 * 60_000,
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
