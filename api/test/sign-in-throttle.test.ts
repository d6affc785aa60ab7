// Sign-in throttling (decision 022), attacked: wrong passwords aimed at someone else's email
// must slow the attacker down without keeping the real user out. Addresses come from
// X-Forwarded-For (TRUST_PROXY trusts the loopback address the test requests come from), so one test process can play several networks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEVICE_COOKIE } from '../src/plugins/app/known-devices';
import { build, type TestApp, type TestClient, type TestUser } from './helpers';

// Three free failures per (email, address) pair, then 1 s, 2 s, 4 s, 8 s, 8 s, ...
const RULES = {
  loginPerEmail: { max: 3, windowSeconds: 8 },
  loginPerIp: { max: 1000, windowSeconds: 600 },
  registerPerIp: { max: 1000, windowSeconds: 3600 },
};

interface RateLimitedBody {
  error: string;
  code: string;
  retryAfterSeconds?: number;
}

function from(address: string) {
  return { headers: { 'x-forwarded-for': address } };
}

async function signIn(
  client: TestClient,
  user: { email: string },
  password: string,
  address: string,
): Promise<Response> {
  return client.post('/api/login', { email: user.email, password }, from(address));
}

/** Lets every wait of the app's counters pass, as if the clock had moved on. */
async function waitsPass(t: TestApp): Promise<void> {
  await t.db
    .updateTable('rateLimits')
    .set({ blockedUntil: new Date(Date.now() - 1000) })
    .where('blockedUntil', 'is not', null)
    .execute();
}

describe('sign-in throttling', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build({ env: { TRUST_PROXY: 'loopback' }, rateLimits: RULES });
  });
  afterAll(() => t.close());

  it("an attacker's wrong passwords for someone else's email never keep the real user out", async () => {
    const victim = await t.createUser();
    const attacker = t.client();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i += 1) {
      statuses.push((await signIn(attacker, victim, `guess ${String(i)}`, '203.0.113.9')).status);
    }
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.slice(3)).toEqual(Array.from({ length: 9 }, () => 429));

    // The victim, from their own network on a device that never signed in before.
    const phone = t.client();
    const res = await signIn(phone, victim, victim.password, '198.51.100.7');
    expect(res.status).toBe(200);
    expect(((await res.json()) as { user: { id: number } }).user.id).toBe(victim.row.id);
  });

  it('refuses with RATE_LIMITED and Retry-After, and each further failure doubles the wait up to the cap', async () => {
    const user = await t.createUser();
    const client = t.client();
    const address = '203.0.113.10';
    for (let i = 0; i < 3; i += 1) {
      expect((await signIn(client, user, 'wrong', address)).status).toBe(401);
    }
    const waits: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      // Even the right password waits: the pair is throttled, not checked.
      const refused = await signIn(client, user, user.password, address);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('set-cookie')).toBeNull();
      const body = (await refused.json()) as RateLimitedBody;
      expect(body).toEqual({
        error: 'Too many attempts. Please wait before trying again.',
        code: 'RATE_LIMITED',
        retryAfterSeconds: body.retryAfterSeconds,
      });
      expect(refused.headers.get('retry-after')).toBe(String(body.retryAfterSeconds));
      waits.push(body.retryAfterSeconds ?? 0);
      await waitsPass(t);
      expect((await signIn(client, user, 'wrong again', address)).status).toBe(401);
    }
    expect(waits).toEqual([1, 2, 4, 8, 8]);

    // Once the wait has passed, the right password gets in and the pair starts over.
    await waitsPass(t);
    expect((await signIn(client, user, user.password, address)).status).toBe(200);
    const rows = await t.db
      .selectFrom('rateLimits')
      .select('key')
      .where('key', '=', `signIn:pair:${user.email}|${address}`)
      .execute();
    expect(rows).toEqual([]);
  });

  it('parallel guesses cannot slip in before the first failure is written', async () => {
    const user = await t.createUser();
    const responses = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        signIn(t.client(), user, `parallel ${String(i)}`, '203.0.113.11'),
      ),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12);
  });

  describe('an account attacked from many addresses', () => {
    // Its own app: a pair's longest wait is 10 minutes here, so the account's (at most 60 s)
    // is what the attack runs into.
    let u: TestApp;
    let victim: TestUser;
    let tablet: TestClient;
    beforeAll(async () => {
      u = await build({
        env: { TRUST_PROXY: 'loopback' },
        rateLimits: { ...RULES, loginPerEmail: { max: 3, windowSeconds: 600 } },
      });
      victim = await u.createUser();
      // The victim signed in on this tablet before: it holds the known-device cookie.
      tablet = u.client();
      expect((await signIn(tablet, victim, victim.password, '198.51.100.20')).status).toBe(200);
      expect(tablet.otherCookies.get(DEVICE_COOKIE)).toBeDefined();
      expect((await tablet.post('/api/logout')).status).toBe(200);
      // 3 free failures from each of 5 addresses reach the account's 15 for unknown devices;
      // each further one from yet another address doubles the account's wait up to 60 s.
      for (let a = 0; a < 5; a += 1) {
        for (let i = 0; i < 3; i += 1) {
          const res = await signIn(u.client(), victim, 'spray', `192.0.2.${String(a + 1)}`);
          expect(res.status).toBe(401);
        }
      }
      for (let a = 0; a < 6; a += 1) {
        await waitsPass(u);
        const res = await signIn(u.client(), victim, 'spray', `192.0.2.${String(a + 100)}`);
        expect(res.status).toBe(401);
      }
    });
    afterAll(() => u.close());

    it('slows unknown devices down for a short while only', async () => {
      const fresh = await signIn(u.client(), victim, victim.password, '192.0.2.200');
      expect(fresh.status).toBe(429);
      const body = (await fresh.json()) as RateLimitedBody;
      expect(body.code).toBe('RATE_LIMITED');
      expect(body.retryAfterSeconds).toBeGreaterThan(30);
      expect(body.retryAfterSeconds).toBeLessThanOrEqual(60);
    });

    it('lets the real user in on their known device, even from an attacking address', async () => {
      const res = await signIn(tablet, victim, victim.password, '192.0.2.1');
      expect(res.status).toBe(200);
      const audit = await u.db
        .selectFrom('auditLog')
        .select('details')
        .where('action', '=', 'auth.login')
        .where('actorUserId', '=', victim.row.id)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(audit.details).toEqual({ knownDevice: true });
    });

    it('a forged or borrowed device cookie is an unknown device', async () => {
      const cookie = tablet.otherCookies.get(DEVICE_COOKIE) ?? '';
      const forged = u.client();
      forged.otherCookies.set(DEVICE_COOKIE, `${cookie.slice(0, -2)}xx`);
      expect((await signIn(forged, victim, victim.password, '198.51.100.20')).status).toBe(429);

      // A genuine cookie of another account does not vouch for this one.
      const other = await u.createUser();
      const someoneElse = u.client();
      expect((await signIn(someoneElse, other, other.password, '198.51.100.21')).status).toBe(200);
      expect((await signIn(someoneElse, victim, victim.password, '198.51.100.21')).status).toBe(
        429,
      );
    });

    it('a known device that guesses wrong is throttled on its own counter', async () => {
      const thief = u.client();
      thief.otherCookies.set(DEVICE_COOKIE, tablet.otherCookies.get(DEVICE_COOKIE) ?? '');
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        statuses.push((await signIn(thief, victim, `thief ${String(i)}`, '192.0.2.50')).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    });
  });

  it('keeps the fixed per-address limit against spraying many accounts', async () => {
    const sprayed = await build({
      env: { TRUST_PROXY: 'loopback' },
      rateLimits: { ...RULES, loginPerIp: { max: 4, windowSeconds: 600 } },
    });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) {
        const user = await sprayed.createUser();
        statuses.push((await signIn(sprayed.client(), user, 'Summer2026', '203.0.113.77')).status);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 429, 429]);
    } finally {
      await sprayed.close();
    }
  });

  it('two API instances on one database share the counters', async () => {
    const second = await build({
      env: { TRUST_PROXY: 'loopback' },
      rateLimits: RULES,
      database: { db: t.db, close: async () => {} },
    });
    try {
      const user = await t.createUser();
      for (let i = 0; i < 3; i += 1) {
        expect((await signIn(t.client(), user, 'wrong', '203.0.113.12')).status).toBe(401);
      }
      const res = await signIn(second.client(), user, user.password, '203.0.113.12');
      expect(res.status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('a signed-in user confirming a password change is throttled the same way, not locked', async () => {
    const user = await t.createUser();
    const client = await (async () => {
      const c = t.client();
      expect((await signIn(c, user, user.password, '198.51.100.30')).status).toBe(200);
      return c;
    })();
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await client.post(
        '/api/user/password',
        { currentPassword: `wrong ${String(i)}`, newPassword: 'a brand new secret' },
        from('198.51.100.30'),
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    // From the victim's known device the account is still reachable.
    await client.post('/api/logout');
    expect((await signIn(client, user, user.password, '198.51.100.30')).status).toBe(200);
  });
});
