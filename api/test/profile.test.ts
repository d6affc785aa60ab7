// The signed-in user's own account over real HTTP (issue 11, /profile): profile fields with
// the §5 rules, an email change that needs the current password and stays unique, a password
// change that ends every other session and renews this one, and the list of sessions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionInfo, User } from '@rescuelog/sync-protocol/accounts/users';
import { build, loginAs, uniqueEmail, type TestApp, type TestClient } from './helpers';

interface ErrorBody {
  error: string;
  code: string;
  fieldErrors?: Record<string, string[]>;
}

describe('own profile', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await build();
  });
  afterAll(() => t.close());

  const profile = (c: TestClient, json: unknown) =>
    c.request('PATCH', '/api/user/profile', { json });
  const me = async (c: TestClient) => {
    const res = await c.get('/api/user');
    return res.status === 200 ? ((await res.json()) as { user: User }).user : res.status;
  };

  it('edits own profile fields with the §5 rules, audited', async () => {
    const person = await t.createUser({ status: 'approved', fullName: 'Old Name' });
    const client = await loginAs(t, person);
    const res = await profile(client, {
      fullName: 'Naledi Mokoena',
      callSign: 'RESCUE 4',
      qualifications: 'Other',
      qualificationsOther: 'Rope rescue technician',
      nextOfKinName: 'Thabo Mokoena',
    });
    expect(res.status).toBe(200);
    expect(await me(client)).toMatchObject({
      fullName: 'Naledi Mokoena',
      callSign: 'RESCUE 4',
      qualificationsOther: 'Rope rescue technician',
    });
    const [entry] = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'user.profile_update')
      .where('entityId', '=', String(person.row.id))
      .execute();
    expect(entry?.details).toMatchObject({
      before: { fullName: 'Old Name', callSign: null },
      after: { fullName: 'Naledi Mokoena', callSign: 'RESCUE 4' },
    });

    for (const [body, field, message] of [
      [{ fullName: 'N' }, 'fullName', 'Full name is required'],
      [
        { qualifications: 'Other', qualificationsOther: '' },
        'qualificationsOther',
        'Please describe your qualifications',
      ],
      [{ email: 'not-an-email' }, 'email', 'Valid email address is required'],
      [{ role: 'administrator' }, '_', "Unrecognized key(s) in object: 'role'"],
    ] as const) {
      const bad = await profile(client, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(((await bad.json()) as ErrorBody).fieldErrors?.[field]).toContain(message);
    }
    expect(await me(client)).toMatchObject({ fullName: 'Naledi Mokoena', role: 'member' });
  });

  it('changes the email only with the current password, and never to one in use', async () => {
    const person = await t.createUser({ status: 'approved' });
    const other = await t.createUser({ status: 'approved' });
    const client = await loginAs(t, person);
    const newEmail = uniqueEmail('renamed');

    const without = await profile(client, { email: newEmail });
    expect(without.status).toBe(400);
    expect(((await without.json()) as ErrorBody).fieldErrors?.currentPassword).toEqual([
      'Enter your current password to change your email address',
    ]);
    const wrong = await profile(client, { email: newEmail, currentPassword: 'not it' });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as ErrorBody).code).toBe('CURRENT_PASSWORD_INVALID');
    const taken = await profile(client, {
      email: other.email.toUpperCase(),
      currentPassword: person.password,
    });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as ErrorBody).code).toBe('EMAIL_TAKEN');
    expect(await me(client)).toMatchObject({ email: person.email });

    const ok = await profile(client, { email: newEmail, currentPassword: person.password });
    expect(ok.status).toBe(200);
    await loginAs(t, { email: newEmail, password: person.password });
    // The same email again (other fields changed) needs no password.
    expect((await profile(client, { email: newEmail, callSign: 'X1' })).status).toBe(200);
  });

  it('changes the password: other sessions end, this one continues under a new id', async () => {
    const person = await t.createUser({ status: 'approved' });
    const phone = await loginAs(t, person);
    const tablet = await loginAs(t, person);
    const oldCookie = phone.sessionCookie;

    const short = await phone.post('/api/user/password', {
      currentPassword: person.password,
      newPassword: '12345',
    });
    expect(short.status).toBe(400);
    expect(((await short.json()) as ErrorBody).fieldErrors?.newPassword).toEqual([
      'Password must be at least 6 characters',
    ]);
    const common = await phone.post('/api/user/password', {
      currentPassword: person.password,
      newPassword: 'iloveyou',
    });
    expect(common.status).toBe(400);
    expect(((await common.json()) as ErrorBody).fieldErrors?.newPassword).toEqual([
      'This password is too common; choose one that is harder to guess',
    ]);
    const wrong = await phone.post('/api/user/password', {
      currentPassword: 'guess',
      newPassword: 'a new secret',
    });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as ErrorBody).code).toBe('CURRENT_PASSWORD_INVALID');
    expect(typeof (await me(tablet))).toBe('object');

    const changed = await phone.post('/api/user/password', {
      currentPassword: person.password,
      newPassword: 'a new secret',
    });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({
      message: 'Your password has been changed',
      endedSessions: 1,
    });
    expect(phone.sessionCookie).not.toBe(oldCookie);
    expect(await me(phone)).toMatchObject({ id: person.row.id });
    expect(await me(tablet)).toBe(401);
    const stale = t.client();
    stale.sessionCookie = oldCookie;
    expect(await me(stale)).toBe(401);

    const oldLogin = await t.client().post('/api/login', {
      email: person.email,
      password: person.password,
    });
    expect(oldLogin.status).toBe(401);
    await loginAs(t, { email: person.email, password: 'a new secret' });

    const audit = await t.db
      .selectFrom('auditLog')
      .select(['outcome', 'details'])
      .where('action', '=', 'user.password_change')
      .where('entityId', '=', String(person.row.id))
      .orderBy('id')
      .execute();
    expect(audit).toEqual([
      { outcome: 'failure', details: { reason: 'current_password_invalid' } },
      { outcome: 'success', details: { endedSessions: 1 } },
    ]);
  });

  it('lists own sessions and signs out one or all others', async () => {
    const person = await t.createUser({ status: 'approved' });
    const here = await loginAs(t, person);
    const laptop = await loginAs(t, person);
    const tablet = await loginAs(t, person);
    await loginAs(t, await t.createUser({ status: 'approved' })); // someone else's

    const list = async () =>
      ((await (await here.get('/api/user/sessions')).json()) as { sessions: SessionInfo[] })
        .sessions;
    const sessions = await list();
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    expect(sessions[0]?.id).toMatch(/^[a-f0-9]{32}$/);
    expect(JSON.stringify(sessions)).not.toContain(here.sessionCookie?.split('.')[0] ?? 'x');

    const laptopId = (
      (await (await laptop.get('/api/user/sessions')).json()) as {
        sessions: SessionInfo[];
      }
    ).sessions.find((s) => s.current)?.id;
    const ended = await here.request('DELETE', `/api/user/sessions/${String(laptopId)}`);
    expect(ended.status).toBe(200);
    expect(await me(laptop)).toBe(401);
    expect((await here.request('DELETE', `/api/user/sessions/${String(laptopId)}`)).status).toBe(
      404,
    );

    const others = await here.post('/api/user/sessions/end-others');
    expect(((await others.json()) as { endedSessions: number }).endedSessions).toBe(1);
    expect(await me(tablet)).toBe(401);
    expect(await me(here)).toMatchObject({ id: person.row.id });
    expect(await list()).toHaveLength(1);
  });
});
