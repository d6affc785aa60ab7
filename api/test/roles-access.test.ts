// Roles as access (issue 11) over real HTTP: approval picks a role (default: the configured
// one), a role's permission change reaches its users at their next request, an administrator
// sees each user's effective permissions and their source, a role with users is deleted only
// by moving them, unknown permissions are PERMISSION_UNKNOWN, and the last administrator
// cannot be demoted or removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EffectivePermissionsResponse, Role } from '@rescuelog/sync-protocol/accounts/roles';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { build, loginAs, type TestApp, type TestClient, type TestUser } from './helpers';

interface ErrorBody {
  error: string;
  code: string;
  fieldErrors?: Record<string, string[]>;
}

describe('roles as access', () => {
  let t: TestApp;
  let admin: TestUser;
  let client: TestClient;
  let roles: Role[];

  beforeAll(async () => {
    t = await build();
    admin = await t.createUser({ role: 'administrator', status: 'approved' });
    client = await loginAs(t, admin);
    roles = ((await (await client.get('/api/admin/roles')).json()) as { roles: Role[] }).roles;
  });
  afterAll(() => t.close());

  const roleId = (name: string) => {
    const role = roles.find((r) => r.name === name);
    if (!role) throw new Error(`no role ${name}`);
    return role.id;
  };
  const me = async (c: TestClient) =>
    ((await (await c.get('/api/user')).json()) as { user: User }).user;
  const createRole = async (body: object) =>
    ((await (await client.post('/api/admin/roles', body)).json()) as { role: Role }).role;

  it('approval gives the Responder role by default, the configured default role, or the one picked', async () => {
    const a = await t.createUser({ status: 'pending' });
    const approved = await client.post(`/api/admin/users/${String(a.row.id)}/approve`);
    expect(approved.status).toBe(200);
    expect(((await approved.json()) as { user: User }).user).toMatchObject({
      status: 'approved',
      role: 'member',
      roleId: roleId('responder'),
      roleName: 'Responder',
    });
    // On a new system the default can do the job: document patients, CPR, mass-casualty
    // incidents and incident reports, and see their own cases, not colleagues' (decision 059).
    const approvedUser = await me(await loginAs(t, a));
    for (const module of ['newCase', 'cprLogger', 'multiPatient', 'incidentReports'] as const)
      expect(approvedUser.permissions[module]).toMatchObject({ create: true });
    expect(approvedUser.permissions.casesLogged).toBeUndefined();
    expect(approvedUser.roleName).toBe('Responder');
    // The approve dialog names the role it will give from the roles list.
    const listed = (await (await client.get('/api/admin/roles')).json()) as {
      approvalRoleId: number | null;
    };
    expect(listed.approvalRoleId).toBe(roleId('responder'));

    const b = await t.createUser({ status: 'pending' });
    const picked = await client.post(`/api/admin/users/${String(b.row.id)}/approve`, {
      roleId: roleId('responder'),
    });
    expect(((await picked.json()) as { user: User }).user.roleId).toBe(roleId('responder'));
    // The responder may now create cases: the dashboard's New Case follows /api/user.
    const responder = await me(await loginAs(t, b));
    expect(responder.permissions.newCase).toEqual({ read: true, create: true });

    expect(
      (
        await client.request('PATCH', '/api/admin/settings', {
          json: { defaultRoleId: roleId('observer') },
        })
      ).status,
    ).toBe(200);
    const c = await t.createUser({ status: 'pending' });
    const byDefault = await client.post(`/api/admin/users/${String(c.row.id)}/approve`);
    expect(((await byDefault.json()) as { user: User }).user.roleId).toBe(roleId('observer'));
    const [entry] = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'user.approve')
      .where('entityId', '=', String(c.row.id))
      .execute();
    expect(entry?.details).toMatchObject({
      before: { status: 'pending', roleId: null },
      after: { status: 'approved', roleId: roleId('observer') },
    });

    const missing = await client.post(`/api/admin/users/${String(c.row.id)}/approve`, {
      roleId: 999999,
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ErrorBody).fieldErrors?.roleId).toEqual(['Role not found']);
  });

  it("a role's permission change reaches its users at their next request", async () => {
    const role = await createRole({
      name: 'first-responder',
      displayName: 'First Responder',
      permissions: { newCase: { read: true, create: true }, cprLogger: { create: true } },
    });
    const member = await t.createUser({ status: 'approved' });
    await client.request('PATCH', `/api/admin/users/${String(member.row.id)}`, {
      json: { roleId: role.id },
    });
    const memberClient = await loginAs(t, member);
    expect((await me(memberClient)).permissions.newCase).toEqual({ read: true, create: true });

    await client.request('PATCH', `/api/admin/roles/${String(role.id)}`, {
      json: { permissions: { newCase: { read: true }, cprLogger: { create: true } } },
    });
    // Same session, no sign-in: the next request already has the narrower role.
    expect((await me(memberClient)).permissions.newCase).toEqual({ read: true });
  });

  it('shows an administrator effective permissions with where each comes from', async () => {
    const role = await createRole({
      name: 'driver',
      displayName: 'Driver',
      permissions: { newCase: { read: true, create: true }, casesLogged: { view: false } },
    });
    const member = await t.createUser({ status: 'approved' });
    await client.request('PATCH', `/api/admin/users/${String(member.row.id)}`, {
      json: { roleId: role.id, permissions: { casesLogged: { view: true, edit: true } } },
    });
    const res = await client.get(`/api/admin/users/${String(member.row.id)}/permissions`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as EffectivePermissionsResponse;
    expect(body.assignedRole).toEqual({ id: role.id, name: 'driver', displayName: 'Driver' });
    const byModule = Object.fromEntries(body.modules.map((m) => [m.module, m]));
    expect(byModule.newCase).toEqual({
      module: 'newCase',
      source: 'role',
      actions: { read: true, create: true, edit: false, delete: false },
    });
    expect(byModule.casesLogged).toEqual({
      module: 'casesLogged',
      source: 'user',
      actions: { view: true, edit: true, delete: false },
    });
    expect(byModule.cprLogger).toEqual({
      module: 'cprLogger',
      source: 'default',
      actions: { read: true, create: false, edit: false, delete: false },
    });
    expect(byModule.userManagement).toEqual({
      module: 'userManagement',
      source: 'default',
      actions: { allowed: false },
    });
    expect((await client.get('/api/admin/users/999999/permissions')).status).toBe(404);
  });

  it('refuses unknown permission modules and flags with PERMISSION_UNKNOWN, changing nothing', async () => {
    const role = await createRole({ name: 'medic-2', displayName: 'Medic' });
    const cases: Array<[object, string]> = [
      [{ permissions: { launchMissiles: true } }, "Unknown permission module: 'launchMissiles'"],
      [
        { permissions: { firstAidProtocols: { create: true } } },
        "Unknown permission flag: 'create'",
      ],
    ];
    for (const [body, message] of cases) {
      const res = await client.request('PATCH', `/api/admin/roles/${String(role.id)}`, {
        json: body,
      });
      expect(res.status).toBe(400);
      const error = (await res.json()) as ErrorBody;
      expect(error).toMatchObject({ code: 'PERMISSION_UNKNOWN', error: message });
    }
    const created = await client.post('/api/admin/roles', {
      name: 'sneaky',
      displayName: 'Sneaky',
      permissions: { newCase: { approve: true } },
    });
    expect(created.status).toBe(400);
    expect(((await created.json()) as ErrorBody).code).toBe('PERMISSION_UNKNOWN');
    const user = await t.createUser({ status: 'approved' });
    const onUser = await client.request('PATCH', `/api/admin/users/${String(user.row.id)}`, {
      json: { permissions: { selfDestruct: true } },
    });
    expect(((await onUser.json()) as ErrorBody).code).toBe('PERMISSION_UNKNOWN');
    const stored = await t.db
      .selectFrom('roles')
      .select('permissions')
      .where('id', '=', role.id)
      .executeTakeFirstOrThrow();
    expect(stored.permissions).toEqual({});
  });

  it('deletes a role with users only by moving them to another role, audited', async () => {
    const role = await createRole({ name: 'night-shift', displayName: 'Night Shift' });
    const users = [
      await t.createUser({ status: 'approved' }),
      await t.createUser({ status: 'approved' }),
    ];
    for (const u of users) {
      await client.request('PATCH', `/api/admin/users/${String(u.row.id)}`, {
        json: { roleId: role.id },
      });
    }
    const listed = ((await (await client.get('/api/admin/roles')).json()) as { roles: Role[] })
      .roles;
    expect(listed.find((r) => r.id === role.id)?.userCount).toBe(2);

    const refused = await client.request('DELETE', `/api/admin/roles/${String(role.id)}`);
    expect(refused.status).toBe(409);
    expect((await refused.json()) as ErrorBody).toMatchObject({
      code: 'ROLE_IN_USE',
      error: 'This role is assigned to 2 users; choose a role to move them to',
    });
    const toItself = await client.request(
      'DELETE',
      `/api/admin/roles/${String(role.id)}?reassignTo=${String(role.id)}`,
    );
    expect(toItself.status).toBe(400);
    const toNowhere = await client.request(
      'DELETE',
      `/api/admin/roles/${String(role.id)}?reassignTo=999999`,
    );
    expect(toNowhere.status).toBe(400);

    const moved = await client.request(
      'DELETE',
      `/api/admin/roles/${String(role.id)}?reassignTo=${String(roleId('responder'))}`,
    );
    expect(moved.status).toBe(200);
    expect(((await moved.json()) as { reassigned: number }).reassigned).toBe(2);
    const rows = await t.db
      .selectFrom('users')
      .select(['roleId', 'role'])
      .where(
        'id',
        'in',
        users.map((u) => u.row.id),
      )
      .execute();
    expect(rows).toEqual([
      { roleId: roleId('responder'), role: 'member' },
      { roleId: roleId('responder'), role: 'member' },
    ]);
    const [entry] = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'role.delete')
      .where('entityId', '=', String(role.id))
      .execute();
    expect(entry?.details).toMatchObject({
      reassignedTo: roleId('responder'),
      reassignedUserIds: users.map((u) => u.row.id).sort((a, b) => a - b),
    });
  });

  it('keeps the default role for new members from being deleted', async () => {
    const role = await createRole({ name: 'probation', displayName: 'Probation' });
    await client.request('PATCH', '/api/admin/settings', { json: { defaultRoleId: role.id } });
    const res = await client.request('DELETE', `/api/admin/roles/${String(role.id)}`);
    expect(res.status).toBe(409);
    expect(((await res.json()) as ErrorBody).code).toBe('ROLE_IN_USE');
    await client.request('PATCH', '/api/admin/settings', { json: { defaultRoleId: null } });
    expect((await client.request('DELETE', `/api/admin/roles/${String(role.id)}`)).status).toBe(
      200,
    );
  });

  it('never leaves the system without an administrator', async () => {
    // `admin` is the only administrator: stepping down or taking another role is refused.
    for (const json of [{ role: 'member' }, { roleId: roleId('responder') }]) {
      const res = await client.request('PATCH', `/api/admin/users/${String(admin.row.id)}`, {
        json,
      });
      expect(res.status).toBe(409);
      expect((await res.json()) as ErrorBody).toMatchObject({
        code: 'LAST_ADMINISTRATOR',
        error: 'This is the only administrator: make someone else an administrator first',
      });
    }
    expect(await me(client)).toMatchObject({ role: 'administrator' });

    // With a second administrator, the first may step down (and the second is now the last).
    const second = await t.createUser({ status: 'approved' });
    const promoted = await client.request('PATCH', `/api/admin/users/${String(second.row.id)}`, {
      json: { roleId: roleId('administrator') },
    });
    expect(((await promoted.json()) as { user: User }).user.role).toBe('administrator');
    const stepDown = await client.request('PATCH', `/api/admin/users/${String(admin.row.id)}`, {
      json: { roleId: roleId('responder') },
    });
    expect(stepDown.status).toBe(200);
    expect((await client.get('/api/admin/users')).status).toBe(403);

    const secondClient = await loginAs(t, second);
    const last = await secondClient.request('PATCH', `/api/admin/users/${String(second.row.id)}`, {
      json: { role: 'member' },
    });
    expect(last.status).toBe(409);
    expect(((await last.json()) as ErrorBody).code).toBe('LAST_ADMINISTRATOR');
  });
});
