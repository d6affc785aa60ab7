// Migration 2026-11-28T0500 (decision 059): a new system approves members as Responders who
// see their own patients only; a system already in use keeps the default role it had (Member,
// now written in System Settings) or the one its administrator chose, and its Responder role.
import { sql, type Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { up } from '../src/migrations/2026-11-28T0500-approval-default-role';
import { createTestDatabase, type TestDatabaseHandle } from '../src/testing';

const handles: TestDatabaseHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

async function migrated(): Promise<Kysely<unknown>> {
  const handle = await createTestDatabase();
  handles.push(handle);
  return handle.db as unknown as Kysely<unknown>;
}

async function defaultRoleSetting(db: Kysely<unknown>): Promise<unknown> {
  const { rows } = await sql<{ value: unknown }>`
    select value from system_settings where key = 'defaultRoleId'`.execute(db);
  return rows[0]?.value;
}

async function roleId(db: Kysely<unknown>, name: string): Promise<number> {
  const { rows } = await sql<{ id: number }>`select id from roles where name = ${name}`.execute(db);
  return rows[0]!.id;
}

async function responderPermissions(db: Kysely<unknown>): Promise<Record<string, unknown>> {
  const { rows } = await sql<{ permissions: Record<string, unknown> }>`
    select permissions from roles where name = 'responder'`.execute(db);
  return rows[0]!.permissions;
}

const addAccount = (db: Kysely<unknown>) =>
  sql`insert into users (email, password_hash, full_name) values ('a@example.org', 'x', 'A')`.execute(
    db,
  );

describe('the default role for approval (migration 2026-11-28T0500)', () => {
  it('on a new system: no setting written, and the Responder sees only their own cases', async () => {
    const db = await migrated();
    expect(await defaultRoleSetting(db)).toBeUndefined();
    const permissions = await responderPermissions(db);
    expect(permissions).not.toHaveProperty('casesLogged');
    expect(permissions).toMatchObject({ newCase: { create: true }, cprLogger: { create: true } });
  });

  it('on a system in use: Member is written down, the Responder role is left alone', async () => {
    const db = await migrated();
    await addAccount(db);
    await sql`update roles set permissions = permissions || '{"casesLogged":{"view":true}}'
      where name = 'responder'`.execute(db);
    await up(db);
    expect(await defaultRoleSetting(db)).toBe(await roleId(db, 'member'));
    expect(await responderPermissions(db)).toHaveProperty('casesLogged', { view: true });
  });

  it("keeps an administrator's own choice", async () => {
    const db = await migrated();
    await addAccount(db);
    const observer = await roleId(db, 'observer');
    await sql`insert into system_settings (key, value) values ('defaultRoleId', to_jsonb(${observer}::int))`.execute(
      db,
    );
    await up(db);
    expect(await defaultRoleSetting(db)).toBe(observer);
  });
});
