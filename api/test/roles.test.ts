// Roles CRUD over real HTTP (spec §3 roles, §5 role validation): the seeded system roles,
// validation messages, unique names, and what can never be renamed or deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import { build, loginAs, type TestApp, type TestClient, type TestUser } from './helpers';

interface ErrorBody {
  error: string;
  code: string;
  fieldErrors?: Record<string, string[]>;
}

describe('roles', () => {
  let t: TestApp;
  let admin: TestUser;
  let client: TestClient;

  beforeAll(async () => {
    t = await build();
    admin = await t.createUser({ role: 'administrator', status: 'approved' });
    client = await loginAs(t, admin);
  });
  afterAll(() => t.close());

  const patch = (id: number, json: unknown) =>
    client.request('PATCH', `/api/admin/roles/${String(id)}`, { json });
  const remove = (id: number) => client.request('DELETE', `/api/admin/roles/${String(id)}`);

  async function systemRole(name: string): Promise<Role> {
    const { roles } = (await (await client.get('/api/admin/roles')).json()) as { roles: Role[] };
    const role = roles.find((r) => r.name === name);
    if (!role) throw new Error(`no ${name} role`);
    return role;
  }

  it('lists the seeded system roles', async () => {
    const res = await client.get('/api/admin/roles');
    expect(res.status).toBe(200);
    const { roles } = (await res.json()) as { roles: Role[] };
    expect(
      roles
        .filter((r) => r.isSystem)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['administrator', 'member', 'observer', 'responder', 'stores']);
  });

  it('is for administrators only', async () => {
    const member = await loginAs(t, await t.createUser({ status: 'approved' }));
    const res = await member.post('/api/admin/roles', { name: 'sneaky', displayName: 'Sneaky' });
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).code).toBe('ADMIN_REQUIRED');
    expect(
      await t.db.selectFrom('roles').select('id').where('name', '=', 'sneaky').executeTakeFirst(),
    ).toBeUndefined();
  });

  it('creates a role with permissions, audited', async () => {
    const res = await client.post('/api/admin/roles', {
      name: 'shift-lead',
      displayName: 'Shift Lead',
      description: 'Runs a shift',
      permissions: { casesLogged: { view: true, edit: true } },
    });
    expect(res.status).toBe(201);
    const { role } = (await res.json()) as { role: Role };
    expect(role).toMatchObject({
      name: 'shift-lead',
      displayName: 'Shift Lead',
      description: 'Runs a shift',
      isSystem: false,
      permissions: { casesLogged: { view: true, edit: true } },
    });
    const audit = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'role.create')
      .where('entityId', '=', String(role.id))
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actorUserId).toBe(admin.row.id);
  });

  it.each([
    [{ displayName: 'No Name' }, 'name', 'Role name is required'],
    [{ name: '', displayName: 'Empty' }, 'name', 'Role name is required'],
    [{ name: '   ', displayName: 'Blank' }, 'name', 'Role name is required'],
    [{ name: 'no-display' }, 'displayName', 'Display name is required'],
    [{ name: 'empty-display', displayName: '' }, 'displayName', 'Display name is required'],
  ])('refuses %j with the spec message', async (body, field, message) => {
    const res = await client.post('/api/admin/roles', body);
    expect(res.status).toBe(400);
    const error = (await res.json()) as ErrorBody;
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.fieldErrors?.[field]).toContain(message);
  });

  it('refuses a duplicate name with 409 ROLE_NAME_TAKEN, on create and on rename', async () => {
    const dup = await client.post('/api/admin/roles', {
      name: 'member',
      displayName: 'Another member',
    });
    expect(dup.status).toBe(409);
    expect(((await dup.json()) as ErrorBody).code).toBe('ROLE_NAME_TAKEN');

    const created = (await (
      await client.post('/api/admin/roles', { name: 'medic', displayName: 'Medic' })
    ).json()) as { role: Role };
    await client.post('/api/admin/roles', { name: 'paramedic', displayName: 'Paramedic' });
    const rename = await patch(created.role.id, { name: 'paramedic' });
    expect(rename.status).toBe(409);
    expect(((await rename.json()) as ErrorBody).code).toBe('ROLE_NAME_TAKEN');
  });

  it('updates a custom role and records before and after', async () => {
    const { role } = (await (
      await client.post('/api/admin/roles', { name: 'dispatch', displayName: 'Dispatch' })
    ).json()) as { role: Role };
    const res = await patch(role.id, {
      name: 'dispatcher',
      displayName: 'Dispatcher',
      permissions: { newCase: false },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { role: Role }).role).toMatchObject({
      name: 'dispatcher',
      displayName: 'Dispatcher',
      permissions: { newCase: false },
    });
    const [entry] = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'role.update')
      .where('entityId', '=', String(role.id))
      .execute();
    expect(entry?.details).toMatchObject({
      before: { name: 'dispatch', permissions: {} },
      after: { name: 'dispatcher', permissions: { newCase: false } },
    });

    const nothing = await patch(role.id, {});
    expect(nothing.status).toBe(400);
    expect(((await nothing.json()) as ErrorBody).error).toBe('Nothing to change');
  });

  it('keeps a description a patch does not mention, and clears it when given empty', async () => {
    const { role } = (await (
      await client.post('/api/admin/roles', {
        name: 'rescue-diver',
        displayName: 'Diver',
        description: 'Water rescue',
      })
    ).json()) as { role: Role };
    const kept = (await (await patch(role.id, { displayName: 'Rescue Diver' })).json()) as {
      role: Role;
    };
    expect(kept.role.description).toBe('Water rescue');
    const cleared = (await (await patch(role.id, { description: '' })).json()) as { role: Role };
    expect(cleared.role.description).toBeNull();
  });

  it('lets a system role be edited but never renamed or deleted', async () => {
    const member = await systemRole('member');
    const edit = await patch(member.id, {
      displayName: 'Crew Member',
      permissions: { firstAidProtocols: true },
    });
    expect(edit.status).toBe(200);

    const rename = await patch(member.id, { name: 'crew' });
    expect(rename.status).toBe(409);
    expect(((await rename.json()) as ErrorBody).code).toBe('SYSTEM_ROLE_PROTECTED');

    for (const name of ['administrator', 'member', 'responder', 'observer', 'stores']) {
      const role = await systemRole(name);
      const res = await remove(role.id);
      expect(res.status).toBe(409);
      expect(((await res.json()) as ErrorBody).code).toBe('SYSTEM_ROLE_PROTECTED');
    }
    expect((await systemRole('member')).name).toBe('member');
  });

  it('refuses to delete a role users still have, then deletes it once they do not', async () => {
    const { role } = (await (
      await client.post('/api/admin/roles', { name: 'standby', displayName: 'Standby' })
    ).json()) as { role: Role };
    const user = await t.createUser({ status: 'approved' });
    expect(
      (
        await client.request('PATCH', `/api/admin/users/${String(user.row.id)}`, {
          json: { roleId: role.id },
        })
      ).status,
    ).toBe(200);

    const inUse = await remove(role.id);
    expect(inUse.status).toBe(409);
    const body = (await inUse.json()) as ErrorBody;
    expect(body.code).toBe('ROLE_IN_USE');
    expect(body.error).toMatch(/1 user/);

    await client.request('PATCH', `/api/admin/users/${String(user.row.id)}`, {
      json: { roleId: null },
    });
    const ok = await remove(role.id);
    expect(ok.status).toBe(200);
    const { roles } = (await (await client.get('/api/admin/roles')).json()) as { roles: Role[] };
    expect(roles.some((r) => r.id === role.id)).toBe(false);
    expect(
      await t.db
        .selectFrom('auditLog')
        .select('id')
        .where('action', '=', 'role.delete')
        .where('entityId', '=', String(role.id))
        .execute(),
    ).toHaveLength(1);

    const again = await remove(role.id);
    expect(again.status).toBe(404);
    expect(((await again.json()) as ErrorBody).code).toBe('NOT_FOUND');
  });
});
