// Registration, sign-in, sign-out and the current user, over real HTTP against the real app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REGISTRATION_ATTEMPT_NOTICE,
  REGISTRATION_MESSAGE,
  REGISTRATION_MESSAGE_FIRST_ADMIN,
} from '@rescuelog/sync-protocol/accounts/users';
import { build, loginAs, uniqueEmail, type TestApp } from './helpers';

function registration(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email: uniqueEmail('reg'),
    password: 'station secret 7',
    fullName: 'Thandi Responder',
    qualifications: 'Emergency Care Technician',
    ...overrides,
  };
}

describe('POST /api/register', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build({ rateLimits: { registerPerIp: { max: 1000, windowSeconds: 3600 } } });
  });
  afterAll(() => t.close());

  it('creates a pending member, answers only a message, and signs nobody in', async () => {
    const client = t.client();
    const email = uniqueEmail('new');
    const res = await client.post(
      '/api/register',
      registration({ email: email.toUpperCase(), callSign: 'R12' }),
    );
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ message: REGISTRATION_MESSAGE });
    expect(res.headers.getSetCookie()).toEqual([]);
    expect((await client.get('/api/user')).status).toBe(401);

    // The form signs in next with the same email and password, as a pending user.
    const signedIn = await loginAs(t, { email, password: 'station secret 7' });
    const me = await signedIn.get('/api/user');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: Record<string, unknown> }).user).toMatchObject({
      email,
      role: 'member',
      status: 'pending',
      callSign: 'R12',
      fullName: 'Thandi Responder',
    });

    const row = await t.db
      .selectFrom('users')
      .select(['id', 'passwordHash', 'status'])
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    expect(row.passwordHash.startsWith('$argon2id$')).toBe(true);
    const audit = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'auth.register')
      .where('actorUserId', '=', row.id)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.outcome).toBe('success');
  });

  it.each([
    ['email', { email: 'not-an-email' }, 'Valid email address is required'],
    ['email', { email: undefined }, 'Valid email address is required'],
    ['password', { password: '12345' }, 'Password must be at least 6 characters'],
    ['password', { password: undefined }, 'Password must be at least 6 characters'],
    ['fullName', { fullName: 'A' }, 'Full name is required'],
    ['fullName', { fullName: undefined }, 'Full name is required'],
  ])('refuses an invalid %s with the spec message %#', async (field, overrides, message) => {
    const res = await t.client().post('/api/register', registration(overrides));
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      error: string;
      code: string;
      fieldErrors: Record<string, string[]>;
    };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.error).toBe(message);
    expect(body.fieldErrors[field]).toContain(message);
  });

  it.each(['password1', 'Sunshine', 'QWERTY123', 'iloveyou'])(
    'refuses the common password %s, says why, and creates nothing',
    async (password) => {
      const email = uniqueEmail('common');
      const res = await t.client().post('/api/register', registration({ email, password }));
      expect(res.status).toBe(400);
      const body = (await res.json()) as { code: string; fieldErrors: Record<string, string[]> };
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.fieldErrors.password).toEqual([
        'This password is too common; choose one that is harder to guess',
      ]);
      const row = await t.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', email)
        .executeTakeFirst();
      expect(row).toBeUndefined();
    },
  );

  it('accepts an uncommon password of exactly the 6-character floor', async () => {
    expect(
      (await t.client().post('/api/register', registration({ password: 'kx7#qp' }))).status,
    ).toBe(201);
  });

  it('reports every invalid field at once', async () => {
    const res = await t.client().post('/api/register', { email: 'x', password: '1', fullName: '' });
    const body = (await res.json()) as { fieldErrors: Record<string, string[]> };
    expect(body.fieldErrors.email).toEqual(['Valid email address is required']);
    expect(body.fieldErrors.password).toEqual(['Password must be at least 6 characters']);
    expect(body.fieldErrors.fullName).toEqual(['Full name is required']);
  });

  it('answers a taken email (any case) exactly like a new one, creates nothing, and tells the owner', async () => {
    const owner = await t.createUser({ email: uniqueEmail('owner') });
    const count = async () =>
      (
        await t.db
          .selectFrom('users')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const before = await count();
    const taken = await t
      .client()
      .post(
        '/api/register',
        registration({ email: owner.email.toUpperCase(), fullName: 'Someone Else' }),
      );
    const fresh = await t.client().post('/api/register', registration());
    expect(taken.status).toBe(fresh.status);
    expect(await taken.json()).toEqual(await fresh.json());
    expect(taken.headers.getSetCookie()).toEqual(fresh.headers.getSetCookie());
    expect([...taken.headers.keys()].sort()).toEqual([...fresh.headers.keys()].sort());
    expect(await count()).toBe(String(Number(before) + 1));

    // The owner finds an in-app notice, and the attempt is audited against their account.
    const ownerClient = await loginAs(t, owner);
    const inbox = (await (
      await ownerClient.get('/api/user/notifications/unread')
    ).json()) as Array<{
      title: string;
      message: string;
      type: string;
    }>;
    expect(inbox).toContainEqual(
      expect.objectContaining({
        title: REGISTRATION_ATTEMPT_NOTICE.title,
        message: REGISTRATION_ATTEMPT_NOTICE.message,
        type: 'system',
      }),
    );
    const audit = await t.db
      .selectFrom('auditLog')
      .select(['outcome', 'entityId', 'details'])
      .where('action', '=', 'auth.register')
      .where('entityId', '=', String(owner.row.id))
      .execute();
    expect(audit).toEqual([
      {
        outcome: 'failure',
        entityId: String(owner.row.id),
        details: { email: owner.email, reason: 'email_taken', ownerNotified: true },
      },
    ]);
    // The owner's password still works; the registrant's does not.
    expect(
      (await t.client().post('/api/login', { email: owner.email, password: 'station secret 7' }))
        .status,
    ).toBe(401);
    expect((await ownerClient.get('/api/user')).status).toBe(200);
  });
});

describe('registration timing', () => {
  it('takes about as long for a taken email as for a new one (production argon2id)', async () => {
    const t = await build({
      productionHashing: true,
      rateLimits: { registerPerIp: { max: 1000, windowSeconds: 3600 } },
    });
    try {
      const owner = await t.createUser({ email: uniqueEmail('timed') });
      const time = async (body: Record<string, unknown>) => {
        const start = performance.now();
        const res = await t.client().post('/api/register', body);
        expect(res.status).toBe(201);
        return performance.now() - start;
      };
      const median = (xs: number[]) =>
        [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
      const takenMs: number[] = [];
      const newMs: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        takenMs.push(await time(registration({ email: owner.email })));
        newMs.push(await time(registration()));
      }
      // Skipping the password hash for a taken email would make it several times faster.
      const ratio = median(takenMs) / median(newMs);
      expect(ratio).toBeGreaterThan(0.5);
      expect(ratio).toBeLessThan(2);
    } finally {
      await t.close();
    }
  });
});

describe('first user becomes administrator', () => {
  it('on: the first account on an empty system is an approved administrator, the second is pending', async () => {
    const t = await build({ env: { FIRST_USER_ADMIN: 'true' } });
    try {
      const firstEmail = uniqueEmail('first');
      const first = await t.client().post('/api/register', registration({ email: firstEmail }));
      expect(first.status).toBe(201);
      expect(await first.json()).toEqual({ message: REGISTRATION_MESSAGE_FIRST_ADMIN });
      const secondEmail = uniqueEmail('second');
      const second = await t.client().post('/api/register', registration({ email: secondEmail }));
      expect(await second.json()).toEqual({ message: REGISTRATION_MESSAGE });
      const rows = await t.db
        .selectFrom('users')
        .select(['email', 'role', 'status'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { email: firstEmail, role: 'administrator', status: 'approved' },
        { email: secondEmail, role: 'member', status: 'pending' },
      ]);
    } finally {
      await t.close();
    }
  });

  it('on: simultaneous first registrations make exactly one administrator', async () => {
    const t = await build({ env: { FIRST_USER_ADMIN: 'true' } });
    try {
      const responses = await Promise.all(
        Array.from({ length: 5 }, () => t.client().post('/api/register', registration())),
      );
      expect(responses.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
      const admins = await t.db
        .selectFrom('users')
        .select('id')
        .where('role', '=', 'administrator')
        .execute();
      expect(admins).toHaveLength(1);
    } finally {
      await t.close();
    }
  });

  it('off (server mode default): the first account is a pending member', async () => {
    const t = await build({ env: { FIRST_USER_ADMIN: 'false' } });
    try {
      const body = (await (await t.client().post('/api/register', registration())).json()) as {
        message: string;
      };
      expect(body.message).toBe(REGISTRATION_MESSAGE);
      const rows = await t.db.selectFrom('users').select(['role', 'status']).execute();
      expect(rows).toEqual([{ role: 'member', status: 'pending' }]);
    } finally {
      await t.close();
    }
  });
});

describe('login, logout and the current user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(() => t.close());

  it('GET /api/user without a session is 401 UNAUTHENTICATED', async () => {
    const res = await t.client().get('/api/user');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: 'Authentication required', code: 'UNAUTHENTICATED' });
  });

  it('signs in with the right password and returns the user without the hash', async () => {
    const user = await t.createUser();
    const client = t.client();
    const res = await client.post('/api/login', {
      email: user.email.toUpperCase(),
      password: user.password,
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toMatch(/argon2|passwordHash/);
    expect((JSON.parse(text) as { user: { id: number } }).user.id).toBe(user.row.id);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('rescuelog_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\/api/);
    expect(cookie).not.toMatch(/Secure/i);
    const me = await client.get('/api/user');
    expect(((await me.json()) as { user: { id: number } }).user.id).toBe(user.row.id);
    const audit = await t.db
      .selectFrom('auditLog')
      .select(['outcome', 'ip'])
      .where('action', '=', 'auth.login')
      .where('actorUserId', '=', user.row.id)
      .execute();
    expect(audit).toEqual([{ outcome: 'success', ip: '127.0.0.1' }]);
  });

  it('gives the same generic error for an unknown email and a wrong password, and audits both', async () => {
    const user = await t.createUser();
    const wrong = await t
      .client()
      .post('/api/login', { email: user.email, password: 'not the password' });
    const unknownEmail = uniqueEmail('ghost');
    const unknown = await t
      .client()
      .post('/api/login', { email: unknownEmail, password: 'whatever' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    const expected = { error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' };
    expect(await wrong.json()).toEqual(expected);
    expect(await unknown.json()).toEqual(expected);
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const failures = await t.db
      .selectFrom('auditLog')
      .select(['actorUserId', 'details'])
      .where('action', '=', 'auth.login_failed')
      .execute();
    expect(failures).toContainEqual({
      actorUserId: user.row.id,
      details: { email: user.email, reason: 'wrong-password' },
    });
    expect(failures).toContainEqual({
      actorUserId: null,
      details: { email: unknownEmail, reason: 'unknown-email' },
    });
  });

  it("validates the login form with the spec's messages", async () => {
    const res = await t.client().post('/api/login', { email: 'someone@example.org', password: '' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe('Password is required');
    const bad = await t.client().post('/api/login', { email: 'nope', password: 'x' });
    expect(((await bad.json()) as { error: string }).error).toBe('Valid email address is required');
  });

  it('regenerates the session at login: the cookie from before no longer works', async () => {
    const first = await t.createUser();
    const second = await t.createUser();
    const client = await loginAs(t, first);
    const before = client.sessionCookie;
    expect(before).toBeDefined();
    const res = await client.post('/api/login', { email: second.email, password: second.password });
    expect(res.status).toBe(200);
    expect(client.sessionCookie).toBeDefined();
    expect(client.sessionCookie).not.toBe(before);
    expect(
      ((await (await client.get('/api/user')).json()) as { user: { id: number } }).user.id,
    ).toBe(second.row.id);

    const old = t.client();
    old.sessionCookie = before;
    expect((await old.get('/api/user')).status).toBe(401);
  });

  it('logout destroys the session server-side and is harmless without one', async () => {
    const user = await t.createUser();
    const client = await loginAs(t, user);
    const cookie = client.sessionCookie;
    const res = await client.post('/api/logout');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ message: 'You have been logged out successfully' });
    expect(client.sessionCookie).toBeUndefined();
    const replay = t.client();
    replay.sessionCookie = cookie;
    expect((await replay.get('/api/user')).status).toBe(401);
    expect((await t.client().post('/api/logout')).status).toBe(200);
    const rows = await t.db
      .selectFrom('sessions')
      .select('sid')
      .where('userId', '=', user.row.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('a suspended user cannot sign in, and is told so only with the right password', async () => {
    const user = await t.createUser({ status: 'suspended' });
    const right = await t
      .client()
      .post('/api/login', { email: user.email, password: user.password });
    expect(right.status).toBe(403);
    expect(((await right.json()) as { code: string }).code).toBe('ACCOUNT_SUSPENDED');
    const wrong = await t
      .client()
      .post('/api/login', { email: user.email, password: 'wrong password' });
    expect(((await wrong.json()) as { code: string }).code).toBe('INVALID_CREDENTIALS');
  });

  it('a pending user can sign in and read /api/user', async () => {
    const user = await t.createUser({ status: 'pending' });
    const client = await loginAs(t, user);
    const me = await client.get('/api/user');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user: { status: string } }).user.status).toBe('pending');
  });
});

describe('behind a TLS proxy (PUBLIC_ORIGIN https)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build({
      env: { PUBLIC_ORIGIN: 'https://rescue.example.org', TRUST_PROXY: '127.0.0.1' },
    });
  });
  afterAll(() => t.close());

  it('sets a Secure session cookie when the proxy says the request was https', async () => {
    const user = await t.createUser();
    const client = t.client();
    const res = await client.post(
      '/api/login',
      { email: user.email, password: user.password },
      { headers: { 'x-forwarded-proto': 'https', origin: 'https://rescue.example.org' } },
    );
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('rescuelog_session='));
    expect(cookie).toMatch(/; Secure/i);
    const me = await client.get('/api/user', { headers: { 'x-forwarded-proto': 'https' } });
    expect(me.status).toBe(200);
  });
});
