// Issue 37 over real HTTP. GET /api/session answers who is signed in, `user: null` (200) when
// no one is, so the app's start on the sign-in screen is not a failed request (decision 059);
// GET /api/user keeps answering 401 without a session. Quick Stats count only the cases the
// user may see, by the lists' rule (decision 024).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import type { Stats } from '@rescuelog/sync-protocol/stats';
import { build, loginAs, type TestApp, type TestUser } from './helpers';

describe('GET /api/session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(() => t.close());

  it('answers 200 { user: null } signed out, and GET /api/user still 401', async () => {
    const anonymous = t.client();
    const res = await anonymous.get('/api/session');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: null });
    expect((await anonymous.get('/api/user')).status).toBe(401);
  });

  it('answers the signed-in user, pending ones too, with their role name', async () => {
    const pending = await loginAs(t, await t.createUser({ status: 'pending' }));
    const body = (await (await pending.get('/api/session')).json()) as { user: User };
    expect(body.user.status).toBe('pending');
    const admin = await loginAs(
      t,
      await t.createUser({ role: 'administrator', status: 'approved' }),
    );
    const me = (await (await admin.get('/api/session')).json()) as { user: User };
    expect(me.user).toMatchObject({ role: 'administrator' });
    expect(me.user).toEqual(((await (await admin.get('/api/user')).json()) as { user: User }).user);
  });

  it('signs a suspended account out: user null, and the session is over', async () => {
    const member = await t.createUser({ status: 'approved' });
    const client = await loginAs(t, member);
    await t.db
      .updateTable('users')
      .set({ status: 'suspended' })
      .where('id', '=', member.row.id)
      .execute();
    const res = await client.get('/api/session');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ user: null });
    expect((await client.get('/api/user')).status).toBe(401);
  });
});

describe('Quick Stats follow the lists’ visibility rule', () => {
  let t: TestApp;
  let own: TestUser;
  let colleague: TestUser;
  let caseNumber = 0;
  beforeAll(async () => {
    t = await build();
    own = await t.createUser({ status: 'approved' });
    colleague = await t.createUser({ status: 'approved' });
  });
  afterAll(() => t.close());

  async function insertCase(userId: number, status: 'in_progress' | 'completed') {
    caseNumber += 1;
    await t.db
      .insertInto('cases')
      .values({
        caseId: `V-${String(caseNumber).padStart(4, '0')}`,
        userId,
        status,
        createdAt: new Date(),
        completedAt: status === 'completed' ? new Date() : null,
      })
      .execute();
  }

  it('a member without a Cases Logged grant counts their own cases; an administrator all', async () => {
    await insertCase(own.row.id, 'in_progress');
    await insertCase(colleague.row.id, 'in_progress');
    await insertCase(colleague.row.id, 'completed');
    const stats = async (user: TestUser) =>
      (await (await (await loginAs(t, user)).get('/api/stats')).json()) as Stats;
    expect(await stats(own)).toEqual({
      thisMonthIncidents: 1,
      thisWeekIncidents: 1,
      activeIncidents: 1,
    });
    // The same count as the list they see.
    const list = (await (await (await loginAs(t, own)).get('/api/cases')).json()) as unknown[];
    expect(list).toHaveLength(1);
    const admin = await t.createUser({ role: 'administrator', status: 'approved' });
    expect(await stats(admin)).toEqual({
      thisMonthIncidents: 3,
      thisWeekIncidents: 3,
      activeIncidents: 2,
    });
  });
});
