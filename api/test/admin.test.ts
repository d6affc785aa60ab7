// Administrator user management over real HTTP: who may call it, the list order and filter,
// approve, suspend (ends the user's sessions), role and permission changes, the guard that
// keeps an administrator from locking themselves out, and the audit trail of each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { build, loginAs, type TestApp, type TestClient, type TestUser } from './helpers';

interface ErrorBody {
  error: string;
  code: string;
  fieldErrors?: Record<string, string[]>;
}

describe('administrator user management', () => {
  let t: TestApp;
  let admin: TestUser;
  let adminClient: TestClient;

  beforeAll(async () => {
    t = await build();
    admin = await t.createUser({
      role: 'administrator',
      status: 'approved',
      fullName: 'Ada Admin',
    });
    adminClient = await loginAs(t, admin);
  });
  afterAll(() => t.close());

  async function auditRows(action: string, entityId: number) {
    return t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', action)
      .where('entityId', '=', String(entityId))
      .orderBy('id')
      .execute();
  }

  it('refuses members (403 ADMIN_REQUIRED, audited), pending users and anonymous callers', async () => {
    const member = await t.createUser({ status: 'approved' });
    const memberClient = await loginAs(t, member);
    const res = await memberClient.get('/api/admin/users');
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).code).toBe('ADMIN_REQUIRED');
    const denial = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'access.denied')
      .where('actorUserId', '=', member.row.id)
      .execute();
    expect(denial.length).toBeGreaterThanOrEqual(1);
    expect(denial[0]?.outcome).toBe('denied');

    // A member cannot approve themselves either: the body is never looked at.
    const self = await memberClient.post(`/api/admin/users/${String(member.row.id)}/approve`);
    expect(self.status).toBe(403);

    const pending = await t.createUser({ status: 'pending' });
    const pendingRes = await (await loginAs(t, pending)).get('/api/admin/users');
    expect(pendingRes.status).toBe(403);
    expect(((await pendingRes.json()) as ErrorBody).code).toBe('ACCOUNT_PENDING');

    const anonymous = await t.client().get('/api/admin/users');
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as ErrorBody).code).toBe('UNAUTHENTICATED');
  });

  it('lists pending accounts first, then newest first, and filters by status', async () => {
    const older = await t.createUser({ status: 'approved', fullName: 'Older Approved' });
    const newer = await t.createUser({ status: 'approved', fullName: 'Newer Approved' });
    const waiting = await t.createUser({ status: 'pending', fullName: 'Waiting Pending' });
    await t.db
      .updateTable('users')
      .set({ createdAt: new Date('2026-01-01T08:00:00Z') })
      .where('id', '=', older.row.id)
      .execute();
    await t.db
      .updateTable('users')
      .set({ createdAt: new Date('2026-01-02T08:00:00Z') })
      .where('id', '=', newer.row.id)
      .execute();
    // The pending account is the oldest of the three, and still comes first.
    await t.db
      .updateTable('users')
      .set({ createdAt: new Date('2025-06-01T08:00:00Z') })
      .where('id', '=', waiting.row.id)
      .execute();

    const res = await adminClient.get('/api/admin/users');
    expect(res.status).toBe(200);
    const { users } = (await res.json()) as { users: User[] };
    const statuses = users.map((u) => u.status);
    const firstNonPending = statuses.findIndex((s) => s !== 'pending');
    expect(statuses.slice(firstNonPending).includes('pending')).toBe(false);
    expect(users.findIndex((u) => u.id === waiting.row.id)).toBeLessThan(firstNonPending);
    expect(users.findIndex((u) => u.id === newer.row.id)).toBeLessThan(
      users.findIndex((u) => u.id === older.row.id),
    );
    expect(JSON.stringify(users)).not.toMatch(/passwordHash|argon2/);

    const filtered = (await (await adminClient.get('/api/admin/users?status=pending')).json()) as {
      users: User[];
    };
    expect(filtered.users.length).toBeGreaterThan(0);
    expect(filtered.users.every((u) => u.status === 'pending')).toBe(true);

    const bad = await adminClient.get('/api/admin/users?status=everyone');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as ErrorBody).code).toBe('VALIDATION_FAILED');
  });

  it('approves a pending user, who then gets past the pending guard; the approval is audited', async () => {
    const pending = await t.createUser({ status: 'pending' });
    const pendingClient = await loginAs(t, pending);
    expect((await pendingClient.get('/api/stats')).status).toBe(403);

    const res = await adminClient.post(`/api/admin/users/${String(pending.row.id)}/approve`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: User }).user).toMatchObject({
      id: pending.row.id,
      status: 'approved',
    });
    // The same session now works: the user is loaded fresh on every request.
    expect((await pendingClient.get('/api/stats')).status).toBe(200);

    const [entry] = await auditRows('user.approve', pending.row.id);
    expect(entry).toMatchObject({
      actorUserId: admin.row.id,
      outcome: 'success',
      entityType: 'user',
    });
    expect(entry?.details).toMatchObject({
      before: { status: 'pending' },
      after: { status: 'approved' },
    });
  });

  it('suspends a user: their sessions end at once and they cannot sign in again', async () => {
    const member = await t.createUser({ status: 'approved' });
    const first = await loginAs(t, member);
    const second = await loginAs(t, member);
    expect((await first.get('/api/user')).status).toBe(200);

    const res = await adminClient.post(`/api/admin/users/${String(member.row.id)}/suspend`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: User }).user.status).toBe('suspended');

    for (const client of [first, second]) {
      const after = await client.get('/api/user');
      expect(after.status).toBe(401);
    }
    const sessions = await t.db
      .selectFrom('sessions')
      .select('sid')
      .where('userId', '=', member.row.id)
      .execute();
    expect(sessions).toHaveLength(0);
    const login = await t
      .client()
      .post('/api/login', { email: member.email, password: member.password });
    expect(login.status).toBeGreaterThanOrEqual(400);

    const [entry] = await auditRows('user.suspend', member.row.id);
    expect(entry?.details).toMatchObject({
      before: { status: 'approved' },
      after: { status: 'suspended' },
      endedSessions: 2,
    });
  });

  it('will not let an administrator suspend their own account, nor demote the last administrator', async () => {
    const suspend = await adminClient.post(`/api/admin/users/${String(admin.row.id)}/suspend`);
    expect(suspend.status).toBe(409);
    expect(((await suspend.json()) as ErrorBody).code).toBe('CANNOT_CHANGE_OWN_ACCOUNT');

    // The only administrator cannot step down either (issue 11: LAST_ADMINISTRATOR).
    const demote = await adminClient.request('PATCH', `/api/admin/users/${String(admin.row.id)}`, {
      json: { role: 'member' },
    });
    expect(demote.status).toBe(409);
    expect(((await demote.json()) as ErrorBody).code).toBe('LAST_ADMINISTRATOR');

    const row = await t.db
      .selectFrom('users')
      .select(['role', 'status'])
      .where('id', '=', admin.row.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'administrator', status: 'approved' });
    expect((await adminClient.get('/api/admin/users')).status).toBe(200);
  });

  it('changes role and permissions, audited with before and after', async () => {
    const member = await t.createUser({ status: 'approved' });
    const memberClient = await loginAs(t, member);
    const permissions = {
      newCase: { read: true, create: true },
      casesLogged: false,
      userManagement: true,
    };
    const res = await adminClient.request('PATCH', `/api/admin/users/${String(member.row.id)}`, {
      json: { role: 'administrator', permissions },
    });
    expect(res.status).toBe(200);
    const { user } = (await res.json()) as { user: User };
    expect(user.role).toBe('administrator');
    expect(user.permissions).toEqual(permissions);

    // Takes effect on the member's existing session.
    expect((await memberClient.get('/api/admin/users')).status).toBe(200);

    const [entry] = await auditRows('user.role_change', member.row.id);
    expect(entry?.actorUserId).toBe(admin.row.id);
    expect(entry?.details).toMatchObject({
      before: { role: 'member', permissions: {} },
      after: { role: 'administrator', permissions },
    });
  });

  it('assigns a custom role by id, and refuses one that does not exist', async () => {
    const member = await t.createUser({ status: 'approved' });
    const role = await t.db
      .insertInto('roles')
      .values({
        name: 'driver',
        displayName: 'Driver',
        description: null,
        permissions: JSON.stringify({ newCase: false }),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ok = await adminClient.request('PATCH', `/api/admin/users/${String(member.row.id)}`, {
      json: { roleId: role.id },
    });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { user: User }).user.roleId).toBe(role.id);
    // The role's permissions now apply to the member: newCase is refused.
    const me = (await (await (await loginAs(t, member)).get('/api/user')).json()) as { user: User };
    expect(me.user.permissions.newCase).toBe(false);

    const missing = await adminClient.request(
      'PATCH',
      `/api/admin/users/${String(member.row.id)}`,
      { json: { roleId: 999999 } },
    );
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as ErrorBody).fieldErrors?.roleId).toEqual(['Role not found']);

    const cleared = await adminClient.request(
      'PATCH',
      `/api/admin/users/${String(member.row.id)}`,
      { json: { roleId: null } },
    );
    expect(((await cleared.json()) as { user: User }).user.roleId).toBeNull();
  });

  it('validates the patch and the id', async () => {
    const member = await t.createUser({ status: 'approved' });
    const cases: Array<[unknown, string, string]> = [
      [{}, 'VALIDATION_FAILED', 'Nothing to change'],
      [{ role: 'superuser' }, 'VALIDATION_FAILED', 'Invalid enum value'],
      [
        { permissions: { launchMissiles: true } },
        'PERMISSION_UNKNOWN',
        "Unknown permission module: 'launchMissiles'",
      ],
      [
        { permissions: { newCase: { fly: true } } },
        'PERMISSION_UNKNOWN',
        "Unknown permission flag: 'fly'",
      ],
      [{ status: 'approved' }, 'VALIDATION_FAILED', "Unrecognized key(s) in object: 'status'"],
    ];
    for (const [body, code, message] of cases) {
      const res = await adminClient.request('PATCH', `/api/admin/users/${String(member.row.id)}`, {
        json: body,
      });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = (await res.json()) as ErrorBody;
      expect(error.code).toBe(code);
      expect(error.error).toBe(message);
    }
    const unknown = await adminClient.post('/api/admin/users/999999/approve');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as ErrorBody).code).toBe('NOT_FOUND');
    const notAnId = await adminClient.post('/api/admin/users/abc/approve');
    expect(notAnId.status).toBe(400);
    const row = await t.db
      .selectFrom('users')
      .select(['role', 'permissions'])
      .where('id', '=', member.row.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'member', permissions: {} });
  });
});
