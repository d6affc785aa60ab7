// The session cookie and its cheap verification (decision 030): the cookie is the session id
// signed with SESSION_SECRET; a session cached in this instance is found by its exact signed
// cookie without computing the HMAC again, and that shortcut ends with the session. Anything
// else that is presented as a session cookie — tampered, signed with another secret, made up —
// names no session, and the answer tells the browser to drop it.
import { Signer } from '@fastify/cookie';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_STALE_BOUND_MS } from '../src/lib/auth-cache';
import { SESSION_COOKIE } from '../src/plugins/external/session';
import { build, loginAs, type TestApp, type TestClient } from './helpers';

const SECRET_A = 'first-session-secret-that-is-long-enough-0123456789';
const SECRET_B = 'second-session-secret-that-is-long-enough-987654321';

/** The cookie's value as the server parses it. */
function cookieOf(client: TestClient): string {
  return decodeURIComponent(client.sessionCookie ?? '');
}

function sidOf(cookie: string): string {
  return cookie.slice(0, cookie.lastIndexOf('.'));
}

/** GET /api/user with exactly this session cookie value; the status and the cleared cookie. */
async function presenting(
  t: TestApp,
  value: string,
): Promise<{ status: number; clearedCookie: boolean }> {
  const res = await fetch(`${t.url}/api/user`, {
    headers: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(value)}` },
  });
  await res.arrayBuffer();
  const clearedCookie = res.headers
    .getSetCookie()
    .some(
      (line) => line.startsWith(`${SESSION_COOKIE}=;`) && /Expires=Thu, 01 Jan 1970/i.test(line),
    );
  return { status: res.status, clearedCookie };
}

describe('the session cookie', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await build({ env: { SESSION_SECRET: SECRET_A } });
    // B hears of changes only from notifications (no epoch poll), so when it drops an entry
    // after a change made through A, the notification did it; on PostgreSQL that notification
    // may reach B after A has answered, so B is watched for up to AUTH_STALE_BOUND_MS (026).
    b = await build({
      database: { db: a.db, close: async () => {} },
      env: { SESSION_SECRET: SECRET_A },
      authCache: { pollMs: 3_600_000, staleBoundMs: 3_600_000 },
    });
  });

  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('is the id signed as @fastify/cookie signed it, so sessions from before decision 030 stay valid', async () => {
    const client = await loginAs(a, await a.createUser());
    const cookie = cookieOf(client);
    const row = await a.db
      .selectFrom('sessions')
      .select('sid')
      .where('sid', '=', sidOf(cookie))
      .executeTakeFirst();
    expect(row).toBeDefined();
    expect(new Signer(SECRET_A).sign(sidOf(cookie))).toBe(cookie);
    expect(new Signer(SECRET_A).unsign(cookie)).toMatchObject({ valid: true, value: row?.sid });
    // A cookie the old library wrote for an existing session is accepted as it is.
    expect((await presenting(b, new Signer(SECRET_A).sign(sidOf(cookie)))).status).toBe(200);
  });

  it('a tampered cookie is refused and cleared, even while the genuine one is cached', async () => {
    const client = await loginAs(a, await a.createUser());
    const cookie = cookieOf(client);
    expect((await presenting(a, cookie)).status).toBe(200);
    expect(a.app.authCache.sessionByCookie(cookie)).toBeDefined();
    const sid = sidOf(cookie);
    const signature = cookie.slice(sid.length + 1);
    const flip = (text: string, at: number) =>
      text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    const forged = [
      `${sid}.${flip(signature, 5)}`, // signature changed
      `${flip(sid, 3)}.${signature}`, // id changed, signature kept
      `${sid}.${signature}x`, // signature lengthened
      `${sid}.${signature.slice(0, -1)}`, // signature shortened
      `${sid}.`, // no signature
      sid, // the bare id
      `${cookie}.${signature}`, // a signature appended
      new Signer(SECRET_B).sign(sid), // the right id signed with another secret
      `${sid}.${'A'.repeat(300)}`, // oversized
    ];
    for (const value of forged) {
      expect(await presenting(a, value), value).toEqual({ status: 401, clearedCookie: true });
      expect(await presenting(b, value), value).toEqual({ status: 401, clearedCookie: true });
    }
    expect((await presenting(a, cookie)).status).toBe(200);
  });

  it('a cookie signed before a change of SESSION_SECRET is refused (the row still exists)', async () => {
    const user = await a.createUser();
    const client = await loginAs(a, user);
    const cookie = cookieOf(client);
    const rekeyed = await build({
      database: { db: a.db, close: async () => {} },
      env: { SESSION_SECRET: SECRET_B },
    });
    try {
      expect(await presenting(rekeyed, cookie)).toEqual({ status: 401, clearedCookie: true });
      const row = await a.db
        .selectFrom('sessions')
        .select('sid')
        .where('sid', '=', sidOf(cookie))
        .executeTakeFirst();
      expect(row).toBeDefined();
      // A sign-in under the new secret works there (and its cookie is refused under the old).
      const fresh = await loginAs(rekeyed, user);
      expect((await presenting(rekeyed, cookieOf(fresh))).status).toBe(200);
      expect((await presenting(a, cookieOf(fresh))).status).toBe(401);
    } finally {
      await rekeyed.close();
    }
  });

  it('the verified cookie is dropped when the session ends: logout, on this instance and another', async () => {
    const client = await loginAs(a, await a.createUser());
    const cookie = cookieOf(client);
    expect((await presenting(a, cookie)).status).toBe(200);
    expect((await presenting(b, cookie)).status).toBe(200);
    expect(a.app.authCache.sessionByCookie(cookie)?.sid).toBe(sidOf(cookie));
    expect(b.app.authCache.sessionByCookie(cookie)?.sid).toBe(sidOf(cookie));
    expect((await client.post('/api/logout')).status).toBe(200);
    expect(a.app.authCache.sessionByCookie(cookie)).toBeUndefined();
    await expect
      .poll(() => b.app.authCache.sessionByCookie(cookie), { timeout: AUTH_STALE_BOUND_MS })
      .toBeUndefined();
    expect(await presenting(a, cookie)).toEqual({ status: 401, clearedCookie: true });
    expect(await presenting(b, cookie)).toEqual({ status: 401, clearedCookie: true });
  });

  it('the verified cookie is dropped when an administrator suspends the user, on every instance', async () => {
    const admin = await loginAs(a, await a.createUser({ role: 'administrator' }));
    const user = await a.createUser();
    const client = await loginAs(a, user);
    const cookie = cookieOf(client);
    expect((await presenting(a, cookie)).status).toBe(200);
    expect((await presenting(b, cookie)).status).toBe(200);
    expect(b.app.authCache.sessionByCookie(cookie)).toBeDefined();
    expect((await admin.post(`/api/admin/users/${String(user.row.id)}/suspend`)).status).toBe(200);
    expect(a.app.authCache.sessionByCookie(cookie)).toBeUndefined();
    await expect
      .poll(() => b.app.authCache.sessionByCookie(cookie), { timeout: AUTH_STALE_BOUND_MS })
      .toBeUndefined();
    expect((await presenting(b, cookie)).status).toBe(401);
  });

  it('after the cache drops everything (an epoch gap, a lost listener) the cookie goes through its HMAC and the database again', async () => {
    const client = await loginAs(a, await a.createUser());
    const cookie = cookieOf(client);
    expect((await presenting(b, cookie)).status).toBe(200);
    expect(b.app.authCache.sessionByCookie(cookie)).toBeDefined();
    // The session ends without any notification reaching B, and B's cache is flushed as an
    // epoch gap or a lost listener flushes it: B must read the database (and refuse).
    await a.db.deleteFrom('sessions').where('sid', '=', sidOf(cookie)).execute();
    b.app.authCache.flush();
    expect(b.app.authCache.sessionByCookie(cookie)).toBeUndefined();
    expect((await presenting(b, cookie)).status).toBe(401);
  });
});

describe('the session cookie behind a trusted proxy on an http origin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build({ env: { PUBLIC_ORIGIN: 'http://localhost:3000', TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(() => t.close());

  it('is set without Secure for a plain-http request and with Secure when the proxy says https', async () => {
    const user = await t.createUser();
    const plain = t.client();
    const res = await plain.post('/api/login', { email: user.email, password: user.password });
    expect(res.status).toBe(200);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
    expect(cookie).toBeDefined();
    expect(cookie).not.toMatch(/; Secure/i);
    expect(cookie).toMatch(/; Path=\/api;/);
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect((await plain.get('/api/user')).status).toBe(200);

    const tls = t.client();
    const secured = await tls.post(
      '/api/login',
      { email: user.email, password: user.password },
      { headers: { 'x-forwarded-proto': 'https' } },
    );
    expect(secured.status).toBe(200);
    expect(secured.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toMatch(
      /; Secure/i,
    );
  });
});
