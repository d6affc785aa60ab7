// The migrate and create-admin commands, run as real processes against a real database
// (a fresh embedded one in a temporary DATA_DIR, or a new database on DATABASE_URL's server).
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type DatabaseHandle } from '@rescuelog/db/connect';
import { createTestDatabase } from '@rescuelog/db/testing';
import { createPasswordHasher } from '../src/plugins/app/passwords';
import { newVapidEnv } from '@rescuelog/sync-protocol/server/vapid-keys';

const run = promisify(execFile);
const apiDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

interface Target {
  env: Record<string, string>;
  /** Opens the database the command used (after it has exited: PGlite is single-process). */
  open(): Promise<DatabaseHandle>;
  cleanup(): Promise<void>;
}

async function target(): Promise<Target> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-cli-'));
  if (process.env.DATABASE_URL) {
    const server = await createTestDatabase({ migrate: false });
    const url = server.databaseUrl ?? '';
    return {
      env: { DATABASE_URL: url, DATA_DIR: dataDir },
      open: async () => ({ ...server, close: async () => undefined }),
      cleanup: async () => {
        await server.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  return {
    env: { DATA_DIR: dataDir },
    open: () => createDatabase({ dataDir }),
    cleanup: () => rm(dataDir, { recursive: true, force: true }),
  };
}

async function cli(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...env };
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', path.join('src', 'cli', script), ...args],
      { cwd: apiDir, env: childEnv },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('command-line tools on one database, in order', { timeout: 120_000 }, () => {
  // One data folder for the sequence: creating an embedded database takes seconds.
  let shared: Target;
  beforeAll(async () => {
    shared = await target();
  });
  afterAll(() => shared.cleanup());

  it('migrate applies every migration once', async () => {
    const first = await cli('migrate.ts', [], shared.env);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('2026-11-21T0500-accounts');
    const second = await cli('migrate.ts', [], shared.env);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('up to date');
  });

  it('create-admin creates an approved administrator, then promotes an existing account', async () => {
    const created = await cli(
      'create-admin.ts',
      ['--email', 'Chief@Example.org', '--name', 'Station Chief'],
      { ...shared.env, ADMIN_PASSWORD: 'station-secret' },
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toContain('Created the approved administrator chief@example.org');

    let handle = await shared.open();
    try {
      const chief = await handle.db
        .selectFrom('users')
        .selectAll()
        .where('email', '=', 'chief@example.org')
        .executeTakeFirstOrThrow();
      expect(chief).toMatchObject({
        role: 'administrator',
        status: 'approved',
        fullName: 'Station Chief',
      });
      const hasher = await createPasswordHasher({ memoryCost: 256, timeCost: 1, parallelism: 1 });
      expect(chief.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await hasher.verify(chief.passwordHash, 'station-secret')).toBe(true);
      await handle.db
        .insertInto('users')
        .values({ email: 'member@example.org', passwordHash: 'x', fullName: 'Pending Member' })
        .execute();
    } finally {
      await handle.close();
    }

    const promoted = await cli(
      'create-admin.ts',
      ['--email', 'member@example.org', '--name', 'Pending Member'],
      shared.env,
    );
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toContain('now an approved administrator');
    handle = await shared.open();
    try {
      const member = await handle.db
        .selectFrom('users')
        .select(['role', 'status', 'passwordHash'])
        .where('email', '=', 'member@example.org')
        .executeTakeFirstOrThrow();
      expect(member).toEqual({ role: 'administrator', status: 'approved', passwordHash: 'x' });
      const audit = await handle.db.selectFrom('auditLog').select('action').orderBy('id').execute();
      expect(audit.map((a) => a.action)).toEqual(['user.create_admin', 'user.promote_admin']);
    } finally {
      await handle.close();
    }
  });

  it('create-admin refuses bad input with the spec messages and without a terminal asks for ADMIN_PASSWORD', async () => {
    const badEmail = await cli(
      'create-admin.ts',
      ['--email', 'nope', '--name', 'Station Chief'],
      shared.env,
    );
    expect(badEmail.code).toBe(1);
    expect(badEmail.stderr).toContain('Valid email address is required');
    const shortPassword = await cli(
      'create-admin.ts',
      ['--email', 'a@example.org', '--name', 'Station Chief'],
      { ...shared.env, ADMIN_PASSWORD: '123' },
    );
    expect(shortPassword.code).toBe(1);
    expect(shortPassword.stderr).toContain('Password must be at least 6 characters');
    const commonPassword = await cli(
      'create-admin.ts',
      ['--email', 'a@example.org', '--name', 'Station Chief'],
      { ...shared.env, ADMIN_PASSWORD: 'Password1' },
    );
    expect(commonPassword.code).toBe(1);
    expect(commonPassword.stderr).toContain('This password is too common');
    const noPassword = await cli(
      'create-admin.ts',
      ['--email', 'a@example.org', '--name', 'Station Chief'],
      shared.env,
    );
    expect(noPassword.code).toBe(1);
    expect(noPassword.stderr).toContain('ADMIN_PASSWORD');
  });

  it('a bad environment variable stops the command with its name', async () => {
    const result = await cli('migrate.ts', [], { ...shared.env, DATABASE_URL: 'mysql://nope' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Invalid environment variable DATABASE_URL');
  });
});

describe('server start', { timeout: 120_000 }, () => {
  let broken: Target | undefined;
  afterAll(() => broken?.cleanup());

  it('the server does not start when a migration fails, and says which one', async () => {
    broken = await target();
    const handle = await broken.open();
    try {
      // A table the first migration creates, already there: its CREATE TABLE fails.
      await sql`create table roles (id integer)`.execute(handle.db);
    } finally {
      await handle.close();
    }
    const result = await cli('../server.ts', [], {
      ...broken.env,
      PORT: '0',
      SESSION_SECRET: 'x'.repeat(40),
      ...newVapidEnv(),
      LOG_LEVEL: 'silent',
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('Database migration failed, the server was not started');
    expect(result.stderr).toContain('2026-11-21T0500-accounts');
  });
});
