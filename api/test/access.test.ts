// Who may call what: pending restrictions, administrator and permission guards (each denial
// audited), suspended users' sessions, and the server-side session timeouts.
import type { FastifyInstance, RouteOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_STALE_BOUND_MS } from '../src/lib/auth-cache';
import { build, loginAs, type TestApp } from './helpers';

async function guardedRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get('/guarded/approved', async () => ({ ok: true }));
  fastify.get('/guarded/pending-ok', { config: { allowPending: true } }, async () => ({
    ok: true,
  }));
  fastify.get('/guarded/admin', { preHandler: fastify.requireAdmin }, async () => ({ ok: true }));
  fastify.get(
    '/guarded/cases-read',
    { preHandler: fastify.requirePermission('newCase', 'read') },
    async () => ({ ok: true }),
  );
  fastify.get(
    '/guarded/cases-create',
    { preHandler: fastify.requirePermission('newCase', 'create') },
    async () => ({ ok: true }),
  );
}

describe('guards', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Routes that exist only in this test, registered like real ones would be: in the
    // protected context (signed in + approved unless allowPending) plus a guard.
    t = await build({ extraProtectedRoutes: guardedRoutes });
  });
  afterAll(() => t.close());

  it('the guards are decorators usable as preHandlers', () => {
    expect(typeof t.app.requireApproved).toBe('function');
    expect(typeof t.app.requireAdmin).toBe('function');
    expect(typeof t.app.requirePermission('newCase', 'create')).toBe('function');
  });

  it('a pending user gets 403 ACCOUNT_PENDING on anything but the allowed routes, and it is audited', async () => {
    const user = await t.createUser({ status: 'pending' });
    const client = await loginAs(t, user);
    const res = await client.get('/api/guarded/approved');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({
      error: 'Your account is pending approval from an administrator.',
      code: 'ACCOUNT_PENDING',
    });
    const denial = await t.db
      .selectFrom('auditLog')
      .select(['outcome', 'details'])
      .where('action', '=', 'access.denied')
      .where('actorUserId', '=', user.row.id)
      .executeTakeFirstOrThrow();
    expect(denial.outcome).toBe('denied');
    expect(denial.details).toMatchObject({ code: 'ACCOUNT_PENDING', method: 'GET' });
    expect((await client.get('/api/guarded/pending-ok')).status).toBe(200);
    expect((await client.post('/api/logout')).status).toBe(200);
  });

  it('requireAdmin: 401 without session, 403 ADMIN_REQUIRED for a member, 200 for an administrator', async () => {
    expect((await t.client().get('/api/guarded/admin')).status).toBe(401);
    const member = await loginAs(t, await t.createUser());
    const denied = await member.get('/api/guarded/admin');
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { code: string }).code).toBe('ADMIN_REQUIRED');
    const admin = await loginAs(t, await t.createUser({ role: 'administrator' }));
    expect((await admin.get('/api/guarded/admin')).status).toBe(200);
  });

  it('requirePermission applies the §6 rule: members may read but not create without an entry', async () => {
    const member = await t.createUser();
    const client = await loginAs(t, member);
    expect((await client.get('/api/guarded/cases-read')).status).toBe(200);
    const denied = await client.get('/api/guarded/cases-create');
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { code: string }).code).toBe('FORBIDDEN');
    await t.db
      .updateTable('users')
      .set({ permissions: { newCase: { create: true } } })
      .where('id', '=', member.row.id)
      .execute();
    // Written behind the server's back: its cache hears of it by a database notification
    // (decision 026), which arrives a moment later on PostgreSQL.
    await expect
      .poll(async () => (await client.get('/api/guarded/cases-create')).status, {
        timeout: AUTH_STALE_BOUND_MS,
        interval: 5,
      })
      .toBe(200);
    const admin = await loginAs(t, await t.createUser({ role: 'administrator' }));
    expect((await admin.get('/api/guarded/cases-create')).status).toBe(200);
  });
});

/**
 * What a pending account may call (spec: /api/user, the uploads, /api/user/documents; plus
 * the settings every screen reads, and the routes that need no session at all). Written out
 * here, not read from the routes' own config, so the test states the rule it checks.
 */
const PENDING_MAY_CALL = new Set([
  // No session needed.
  'GET /api/health',
  'GET /api/ready',
  'POST /api/register',
  'POST /api/login',
  'POST /api/logout',
  'POST /api/notifications/receipts',
  'GET /api/session',
  // Signed in, approved or not.
  'GET /api/user',
  'GET /api/settings',
  'PUT /api/user/documents',
  'POST /api/objects/upload',
  'PUT /api/objects/upload/:token',
]);

describe('a pending account on the real routes', () => {
  let t: TestApp;
  /** Every route the app registers, from Fastify itself (as the route fuzz takes them). */
  const routes: Array<{ method: string; url: string }> = [];
  beforeAll(async () => {
    t = await build({
      onRoute: (route: RouteOptions) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods)
          if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url });
      },
    });
  });
  afterAll(() => t.close());

  it('gets 403 ACCOUNT_PENDING from every registered /api route but the few it may call', async () => {
    const client = await loginAs(t, await t.createUser({ status: 'pending' }));
    const api = routes.filter((r) => r.url.startsWith('/api/'));
    expect(api.length).toBeGreaterThan(40);
    // Every allowed route exists (a renamed one must not leave a stale, harmless entry).
    const registered = new Set(api.map((r) => `${r.method} ${r.url}`));
    expect([...PENDING_MAY_CALL].filter((r) => !registered.has(r))).toEqual([]);
    const answered: string[] = [];
    for (const route of api) {
      const name = `${route.method} ${route.url}`;
      if (PENDING_MAY_CALL.has(name)) continue;
      // Parameters that would pass their own schemas, so only the pending rule can refuse.
      const path = route.url
        .replace(/:caseId/g, 'C-2611-7Q4M-XK3P')
        .replace(/:\w+/g, '1')
        .replace(/\*/g, 'x');
      const res = await client.request(
        route.method,
        path,
        route.method === 'GET' ? {} : { json: {} },
      );
      const body = (await res.json().catch(() => null)) as { code?: string } | null;
      if (res.status !== 403 || body?.code !== 'ACCOUNT_PENDING')
        answered.push(`${name}: ${String(res.status)} ${body?.code ?? ''}`);
    }
    expect(answered).toEqual([]);
    // Outside /api only the web app's files are served (reads that need no account).
    expect(routes.filter((r) => !r.url.startsWith('/api/') && r.method !== 'GET')).toEqual([]);
  });

  it('may call /api/user, the upload, /api/user/documents and /api/logout', async () => {
    const client = await loginAs(t, await t.createUser({ status: 'pending' }));
    expect((await client.get('/api/user')).status).toBe(200);
    expect((await client.get('/api/settings')).status).toBe(200);
    const upload = await client.post('/api/objects/upload');
    expect(upload.status).toBe(200);
    expect(((await upload.json()) as { uploadURL: string }).uploadURL).toMatch(
      /\/api\/objects\/upload\//,
    );
    expect((await client.request('PUT', '/api/user/documents', { json: {} })).status).not.toBe(403);
    expect((await client.post('/api/logout')).status).toBe(200);
  });

  it('without a session every protected route is 401', async () => {
    for (const [method, path] of [
      ['GET', '/api/user'],
      ['GET', '/api/stats'],
      ['POST', '/api/objects/upload'],
      ['PUT', '/api/user/documents'],
      ['GET', '/api/admin/users'],
    ] as const) {
      const res = await t.client().request(method, path);
      expect(res.status, `${method} ${path}`).toBe(401);
      expect(((await res.json()) as { code: string }).code).toBe('UNAUTHENTICATED');
    }
  });
});

describe('sessions end', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build();
  });
  afterAll(() => t.close());

  it('endSessionsForUser (used on suspension) signs the user out everywhere', async () => {
    const user = await t.createUser();
    const phone = await loginAs(t, user);
    const tablet = await loginAs(t, user);
    const other = await loginAs(t, await t.createUser());
    expect(await t.app.sessionService.endSessionsForUser(user.row.id)).toBe(2);
    expect((await phone.get('/api/user')).status).toBe(401);
    expect((await tablet.get('/api/user')).status).toBe(401);
    expect((await other.get('/api/user')).status).toBe(200);
  });

  it('a user suspended while signed in is refused at the next request', async () => {
    const user = await t.createUser();
    const client = await loginAs(t, user);
    await t.db
      .updateTable('users')
      .set({ status: 'suspended' })
      .where('id', '=', user.row.id)
      .execute();
    // Written behind the server's back: its cache hears of it by a database notification
    // (decision 026), which arrives a moment later on PostgreSQL.
    await expect
      .poll(
        async () => {
          const res = await client.get('/api/user');
          return `${String(res.status)} ${((await res.json()) as { code?: string }).code ?? ''}`;
        },
        { timeout: AUTH_STALE_BOUND_MS, interval: 5 },
      )
      .toBe('403 ACCOUNT_SUSPENDED');
    expect((await client.get('/api/user')).status).toBe(401);
  });

  it('inactivity timeout: a session unused for 12 hours is dead (SESSION_EXPIRED), 11 hours is fine', async () => {
    const user = await t.createUser();
    const client = await loginAs(t, user);
    const sessions = t.db.updateTable('sessions').where('userId', '=', user.row.id);
    await sessions.set({ lastSeenAt: sql`now() - interval '11 hours'` }).execute();
    expect((await client.get('/api/user')).status).toBe(200);
    // That request counted as activity.
    const touched = await t.db
      .selectFrom('sessions')
      .select(sql<boolean>`last_seen_at > now() - interval '1 minute'`.as('recent'))
      .where('userId', '=', user.row.id)
      .executeTakeFirstOrThrow();
    expect(touched.recent).toBe(true);
    await sessions.set({ lastSeenAt: sql`now() - interval '12 hours 1 minute'` }).execute();
    // What a server that has not cached the session reads (another instance, or after a
    // restart): the row. A cached session's own inactivity is session-cache.test.ts's.
    t.app.authCache.flush();
    const res = await client.get('/api/user');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('SESSION_EXPIRED');
    expect((await client.get('/api/user')).status).toBe(401);
  });

  it('absolute timeout: a session older than 7 days is dead however active', async () => {
    const user = await t.createUser();
    const client = await loginAs(t, user);
    await t.db
      .updateTable('sessions')
      .set({ createdAt: sql`now() - interval '7 days 1 minute'`, lastSeenAt: sql`now()` })
      .where('userId', '=', user.row.id)
      .execute();
    const res = await client.get('/api/user');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('SESSION_EXPIRED');
  });

  it('cleanup deletes expired sessions', async () => {
    await loginAs(t, await t.createUser());
    await t.db
      .updateTable('sessions')
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .execute();
    await t.app.sessionService.cleanupExpired();
    expect(await t.db.selectFrom('sessions').select('sid').execute()).toEqual([]);
  });
});
