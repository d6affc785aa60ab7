// Property-based: every route, as a user allowed to call it, gets malformed and hostile input
// (wrong types, huge and odd unicode strings, SQL and script fragments, prototype-pollution
// keys, deep nesting, non-JSON under a JSON content type, other content types, hostile path
// parameters and query strings). The answer is always a 4xx with a code from ErrorCode (never
// a 5xx), and nothing is written.
//
// "Nothing written" means: users, roles, uploads, notifications, notification deliveries,
// the push queue and push subscriptions, cases and the sync bookkeeping (devices, rejections, conflicts, applied mutations) are
// byte-for-byte the same (an md5 over every row, so updates count, not only inserts),
// and the audit log has no new entry other than denials and failures (which are the point
// of an audit log). Sessions and rate-limit counters are bookkeeping and may move.
//
// Each generated input carries at least one element that no schema accepts (an unknown key
// in a strict object, a non-integer id, a malformed body), so a 2xx is always a bug.
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { SESSION_COOKIE } from '../src/plugins/external/session';
import { build, loginAs, type TestApp, type TestClient } from './helpers';

type Who = 'anonymous' | 'pending' | 'member' | 'admin';
/**
 * body: a JSON (or other) request body; query: the query string; params: each `:param`;
 * raw: raw bytes (the upload PUT); suffix: an extra path segment (routes that read nothing,
 * so the not-found handler must answer); ignoredQuery: a query string the route must ignore
 * (a URL over Node's 16 KiB header limit is refused with 431, also with a code).
 */
type Part = 'body' | 'query' | 'params' | 'raw' | 'suffix' | 'ignoredQuery';

interface RouteCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  as: Who;
  fuzz: Part[];
}

/** Every route the API has, with who may call it and which inputs it reads. */
const ROUTES: RouteCase[] = [
  { method: 'GET', path: '/api/health', as: 'anonymous', fuzz: ['suffix', 'ignoredQuery'] },
  { method: 'GET', path: '/api/ready', as: 'anonymous', fuzz: ['suffix', 'ignoredQuery'] },
  { method: 'POST', path: '/api/register', as: 'anonymous', fuzz: ['body'] },
  { method: 'POST', path: '/api/login', as: 'anonymous', fuzz: ['body'] },
  { method: 'POST', path: '/api/logout', as: 'anonymous', fuzz: ['suffix'] },
  { method: 'GET', path: '/api/session', as: 'anonymous', fuzz: ['suffix', 'ignoredQuery'] },
  { method: 'GET', path: '/api/user', as: 'pending', fuzz: ['suffix', 'ignoredQuery'] },
  { method: 'PUT', path: '/api/user/documents', as: 'pending', fuzz: ['body'] },
  { method: 'POST', path: '/api/objects/upload', as: 'pending', fuzz: ['body'] },
  { method: 'PUT', path: '/api/objects/upload/:token', as: 'pending', fuzz: ['params', 'raw'] },
  { method: 'GET', path: '/api/objects/:name', as: 'member', fuzz: ['params'] },
  { method: 'GET', path: '/api/stats', as: 'member', fuzz: ['suffix', 'ignoredQuery'] },
  { method: 'GET', path: '/api/cases', as: 'member', fuzz: ['query'] },
  { method: 'GET', path: '/api/incident-reports', as: 'member', fuzz: ['query'] },
  { method: 'GET', path: '/api/cases/:caseId', as: 'member', fuzz: ['params'] },
  { method: 'POST', path: '/api/cases/:caseId/unlock', as: 'admin', fuzz: ['params', 'body'] },
  {
    method: 'GET',
    path: '/api/cases/:caseId/access-history',
    as: 'admin',
    fuzz: ['params', 'query'],
  },
  { method: 'GET', path: '/api/cases/:caseId/fhir', as: 'member', fuzz: ['params'] },
  {
    method: 'GET',
    path: '/api/user/notifications/unread-count',
    as: 'member',
    fuzz: ['suffix', 'ignoredQuery'],
  },
  {
    method: 'GET',
    path: '/api/user/notifications/unread',
    as: 'member',
    fuzz: ['suffix', 'ignoredQuery'],
  },
  {
    method: 'GET',
    path: '/api/user/notifications/read',
    as: 'member',
    fuzz: ['suffix', 'ignoredQuery'],
  },
  { method: 'POST', path: '/api/user/notifications/mark-all-read', as: 'member', fuzz: ['body'] },
  { method: 'GET', path: '/api/admin/users', as: 'admin', fuzz: ['query'] },
  { method: 'POST', path: '/api/admin/users/:id/approve', as: 'admin', fuzz: ['params', 'body'] },
  { method: 'POST', path: '/api/admin/users/:id/suspend', as: 'admin', fuzz: ['params', 'body'] },
  { method: 'PATCH', path: '/api/admin/users/:id', as: 'admin', fuzz: ['params', 'body'] },
  { method: 'GET', path: '/api/admin/users/:id/documents', as: 'admin', fuzz: ['params'] },
  { method: 'GET', path: '/api/admin/roles', as: 'admin', fuzz: ['suffix', 'ignoredQuery'] },
  { method: 'POST', path: '/api/admin/roles', as: 'admin', fuzz: ['body'] },
  { method: 'PATCH', path: '/api/admin/roles/:id', as: 'admin', fuzz: ['params', 'body'] },
  {
    method: 'DELETE',
    path: '/api/admin/roles/:id',
    as: 'admin',
    fuzz: ['params', 'body', 'query'],
  },
  { method: 'GET', path: '/api/admin/users/:id/permissions', as: 'admin', fuzz: ['params'] },
  { method: 'GET', path: '/api/settings', as: 'pending', fuzz: ['suffix', 'ignoredQuery'] },
  { method: 'GET', path: '/api/admin/settings', as: 'admin', fuzz: ['suffix', 'ignoredQuery'] },
  { method: 'PATCH', path: '/api/admin/settings', as: 'admin', fuzz: ['body'] },
  { method: 'PATCH', path: '/api/user/profile', as: 'member', fuzz: ['body'] },
  { method: 'POST', path: '/api/user/password', as: 'member', fuzz: ['body'] },
  { method: 'GET', path: '/api/user/sessions', as: 'member', fuzz: ['suffix', 'ignoredQuery'] },
  { method: 'POST', path: '/api/user/sessions/end-others', as: 'member', fuzz: ['body'] },
  { method: 'DELETE', path: '/api/user/sessions/:id', as: 'member', fuzz: ['params', 'body'] },
  // No 'suffix': a segment after it is the :id of the route below, fuzzed there.
  { method: 'GET', path: '/api/admin/notifications', as: 'admin', fuzz: ['ignoredQuery'] },
  { method: 'POST', path: '/api/admin/notifications', as: 'admin', fuzz: ['body'] },
  { method: 'GET', path: '/api/admin/notifications/:id', as: 'admin', fuzz: ['params'] },
  {
    method: 'POST',
    path: '/api/admin/notifications/:id/cancel',
    as: 'admin',
    fuzz: ['params', 'body'],
  },
  {
    method: 'POST',
    path: '/api/admin/notifications/:id/resend-failed',
    as: 'admin',
    fuzz: ['params', 'body'],
  },
  {
    method: 'GET',
    path: '/api/push/vapid-public-key',
    as: 'member',
    fuzz: ['suffix', 'ignoredQuery'],
  },
  {
    method: 'GET',
    path: '/api/user/push-subscriptions',
    as: 'member',
    fuzz: ['suffix', 'ignoredQuery'],
  },
  { method: 'POST', path: '/api/user/push-subscriptions', as: 'member', fuzz: ['body'] },
  { method: 'DELETE', path: '/api/user/push-subscriptions', as: 'member', fuzz: ['body'] },
  { method: 'POST', path: '/api/user/push-subscriptions/test', as: 'member', fuzz: ['body'] },
  { method: 'POST', path: '/api/notifications/receipts', as: 'anonymous', fuzz: ['body'] },
  { method: 'POST', path: '/api/sync/push', as: 'member', fuzz: ['body'] },
  { method: 'POST', path: '/api/sync/pull', as: 'member', fuzz: ['body'] },
  { method: 'GET', path: '/api/admin/conflicts', as: 'admin', fuzz: ['query'] },
  { method: 'GET', path: '/api/admin/conflicts/:id', as: 'admin', fuzz: ['params'] },
  {
    method: 'POST',
    path: '/api/admin/conflicts/:id/resolve',
    as: 'admin',
    fuzz: ['params', 'body'],
  },
];

/**
 * The app's own route list (Fastify's printRoutes tree, flattened), so a route added later
 * without a row in ROUTES fails the completeness test below instead of going unfuzzed.
 */
function registeredRoutes(tree: string): string[] {
  const routes: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const path = stack.join('');
    for (const method of (match[3] ?? '').split(', ').filter((m) => m !== '' && m !== 'HEAD'))
      routes.push(`${method} ${path}`);
  }
  return routes.sort();
}

const RUNS = 30;
const ERROR_CODES = new Set<string>(Object.values(ErrorCode));

// ---------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------

const FRAGMENTS = [
  "'; DROP TABLE users; --",
  "' OR '1'='1",
  '1; SELECT pg_sleep(10)',
  "admin'--",
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{constructor.constructor("return process")()}}',
  '${process.exit()}',
  '../../../../etc/passwd',
  '%00',
  '\u0000',
  '\uFEFF',
  '\uD800',
  '𝕳𝖊𝖑𝖑𝖔 👩‍⚕️🚑',
  'زمان',
  'ｆｕｌｌｗｉｄｔｈ',
  '\u202Eevil',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
];

const POLLUTION_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  'hasOwnProperty',
  'toString',
  'valueOf',
];

const hostileString = fc.oneof(
  fc.constantFrom(...FRAGMENTS),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 32 }),
  fc.integer({ min: 1000, max: 200_000 }).map((n) => 'A'.repeat(n)),
  fc.tuple(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 16 })).map(([a, b]) => `${a}${b}`),
);

function nested(depth: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i += 1) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.constantFrom(0, -1, Number.MAX_SAFE_INTEGER, 2 ** 31, 1e308, true, false, null),
  fc.array(hostileString, { maxLength: 5 }),
  fc.dictionary(fc.constantFrom(...POLLUTION_KEYS, 'a', 'b'), hostileString, { maxKeys: 3 }),
  fc.integer({ min: 10, max: 2000 }).map((d) => nested(d, 'deep')),
);

/** Every key a request schema knows, so an "unknown" key is never accidentally a real one. */
const KNOWN_KEYS = new Set([
  'email',
  'password',
  'fullName',
  'callSign',
  'contactNumber',
  'idNumber',
  'qualifications',
  'qualificationsOther',
  'nextOfKinName',
  'nextOfKinRelationship',
  'nextOfKinContact',
  'idDocumentUrl',
  'certificationsUrl',
  'role',
  'roleId',
  'permissions',
  'status',
  'name',
  'displayName',
  'description',
  'title',
  'message',
  'type',
  'priority',
  'targetUserIds',
  'targetRoles',
  'currentPassword',
  'newPassword',
  'organisationName',
  'serviceTimeZone',
  'defaultRoleId',
  'sessionInactivityMinutes',
  'cprMetronomeRate',
  'scheduledFor',
  'url',
  'sound',
  'limit',
  'reason',
  'cursor',
]);

const unknownKey = fc.oneof(
  fc.constantFrom(...POLLUTION_KEYS, ...FRAGMENTS, ''),
  fc.string({ maxLength: 20 }).filter((k) => !KNOWN_KEYS.has(k)),
);

/** Some known keys with hostile values, plus at least one key no schema accepts. */
const hostileObject = fc
  .tuple(
    fc.dictionary(fc.constantFrom(...KNOWN_KEYS), hostileValue, { maxKeys: 4 }),
    unknownKey,
    hostileValue,
  )
  .map(([known, key, value]) => {
    const object: Record<string, unknown> = { ...known };
    // defineProperty: `object[key] = v` with '__proto__' would set the prototype, not a key.
    Object.defineProperty(object, key, {
      value,
      enumerable: true,
      configurable: true,
      writable: true,
    });
    return object;
  });

interface BodyInput {
  contentType: string | undefined;
  payload: string;
}

const json = (value: unknown): BodyInput => ({
  contentType: 'application/json',
  payload: JSON.stringify(value) ?? 'null',
});

const MALFORMED_JSON = [
  '{',
  '{"a":',
  '{"a":1,}',
  "{'a':1}",
  '{"a":1}{"b":2}',
  'NaN',
  'undefined',
  '\uFEFF{"a":1}',
  '{"__proto__":{"isAdmin":true}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"a":{"__proto__":{"polluted":1}}}',
  '['.repeat(50_000),
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  `{"a":"${'x'.repeat(2 * 1024 * 1024)}"}`,
];

const hostileBody: fc.Arbitrary<BodyInput> = fc.oneof(
  { weight: 4, arbitrary: hostileObject.map(json) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(
        hostileString,
        fc.integer(),
        fc.constantFrom(null, true, false),
        fc.array(hostileValue, { maxLength: 4 }),
      )
      .map(json),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(...MALFORMED_JSON)
      .map((payload) => ({ contentType: 'application/json', payload })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/xml',
          'application/json; charset=utf-16',
        ),
        hostileString,
      )
      .filter(([, text]) => text.trim() !== '')
      .map(([contentType, payload]) => ({ contentType, payload })),
  },
);

/** A path parameter that is never a valid positive integer id. */
const hostileParam = hostileString.filter((s) => {
  if (s === '' || s === '.' || s === '..') return false;
  const n = Number(s);
  return !(Number.isInteger(n) && n > 0);
});

/** A query string with at least one key no query schema accepts, sometimes after a raw fragment. */
const hostileQuery = fc
  .tuple(
    fc.constantFrom(
      '',
      '%zz&',
      '&&&',
      'a[b]=1&',
      'limit=5&limit=6&',
      'status=pending&',
      'limit=%00&',
      '=&=&',
    ),
    fc.array(fc.tuple(unknownKey, hostileString), { minLength: 1, maxLength: 3 }),
  )
  .map(
    ([raw, pairs]) =>
      raw +
      pairs.map(([k, v]) => `${encodeSegment(k === '' ? 'x' : k)}=${encodeSegment(v)}`).join('&'),
  );

/**
 * Percent-encodes every byte outside the unreserved set. Unlike encodeURIComponent it never
 * throws: a lone surrogate becomes U+FFFD, as a browser would send it.
 */
function encodeSegment(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

const hostileBytes = fc.oneof(
  fc.uint8Array({ maxLength: 2048 }).map((b) => Buffer.from(b)),
  hostileString.map((s) => Buffer.from(s)),
);

// ---------------------------------------------------------------------------------------

describe('hostile input on every route', () => {
  let t: TestApp;
  const clients = new Map<Who, TestClient>();
  let targetUserId = 0;
  let targetRoleId = 0;
  let targetCaseNumber = '';

  beforeAll(async () => {
    t = await build({
      rateLimits: {
        loginPerIp: { max: 1_000_000, windowSeconds: 60 },
        loginPerEmail: { max: 1_000_000, windowSeconds: 60 },
        registerPerIp: { max: 1_000_000, windowSeconds: 60 },
      },
    });
    clients.set('anonymous', t.client());
    clients.set('pending', await loginAs(t, await t.createUser({ status: 'pending' })));
    clients.set('member', await loginAs(t, await t.createUser({ status: 'approved' })));
    clients.set(
      'admin',
      await loginAs(t, await t.createUser({ role: 'administrator', status: 'approved' })),
    );
    // Valid targets, so a hostile body is tested on a route that would otherwise act.
    targetUserId = (await t.createUser({ status: 'pending' })).row.id;
    targetRoleId = (
      await t.db
        .insertInto('roles')
        .values({ name: 'target-role', displayName: 'Target', description: null })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    // A completed case: a valid unlock would change it, so every refused body is checked on a real target.
    targetCaseNumber = generateHumanId('C');
    await t.db
      .insertInto('cases')
      .values({
        caseId: targetCaseNumber,
        userId: targetUserId,
        status: 'completed',
        completedAt: new Date(),
      })
      .execute();
  });
  afterAll(() => t.close());

  async function fingerprint(): Promise<Record<string, string>> {
    const digest = (table: string) =>
      sql.raw(
        `(select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) from ${table} x)`,
      );
    const result = await sql<Record<string, string>>`
      select
        ${digest('users')} as users,
        ${digest('roles')} as roles,
        ${digest('uploads')} as uploads,
        ${digest('notifications')} as notifications,
        ${digest('notification_deliveries')} as deliveries,
        ${digest('notification_pushes')} as pushes,
        ${digest('push_subscriptions')} as push_subscriptions,
        ${digest('cases')} as cases,
        ${digest('devices')} as devices,
        ${digest('sync_rejections')} as sync_rejections,
        ${digest('sync_conflicts')} as sync_conflicts,
        ${digest('applied_mutations')} as applied_mutations,
        (select count(*)::text from audit_log where outcome not in ('denied', 'failure')) as audit
    `.execute(t.db);
    const row = result.rows[0];
    if (!row) throw new Error('no fingerprint');
    return row;
  }

  function pathFor(route: RouteCase, params: Record<string, string> = {}): string {
    return route.path.replace(/:(\w+)/g, (_m, name: string) => {
      if (params[name] !== undefined) return params[name];
      if (name === 'id' && route.path.includes('/sessions/')) return 'f'.repeat(32);
      if (name === 'id')
        return String(route.path.includes('/roles/') ? targetRoleId : targetUserId);
      if (name === 'token') return 'A'.repeat(43);
      if (name === 'caseId') return targetCaseNumber;
      return 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.pdf';
    });
  }

  async function send(
    route: RouteCase,
    urlPath: string,
    body?: { contentType: string | undefined; payload: string | Buffer },
  ) {
    const client = clients.get(route.as);
    if (!client) throw new Error(`no client for ${route.as}`);
    const headers: Record<string, string> = { 'x-requested-with': 'rescuelog' };
    if (client.sessionCookie) headers.cookie = `${SESSION_COOKIE}=${client.sessionCookie}`;
    if (body?.contentType) headers['content-type'] = body.contentType;
    const response = await fetch(new URL(urlPath, t.url), {
      method: route.method,
      headers,
      body: body?.payload,
      redirect: 'manual',
    });
    const text = await response.text();
    return { status: response.status, text };
  }

  function expectRefused(result: { status: number; text: string }, label: string): void {
    expect(
      result.status,
      `${label} -> ${String(result.status)} ${result.text.slice(0, 300)}`,
    ).toBeGreaterThanOrEqual(400);
    expect(result.status, `${label} -> ${result.text.slice(0, 300)}`).toBeLessThan(500);
    const parsed = JSON.parse(result.text) as { code?: unknown; error?: unknown };
    expect(typeof parsed.error, label).toBe('string');
    expect(ERROR_CODES.has(String(parsed.code)), `${label}: code ${String(parsed.code)}`).toBe(
      true,
    );
  }

  const cases = ROUTES.flatMap((route) =>
    route.fuzz.map((part) => [`${route.method} ${route.path}`, part, route] as const),
  );

  it.each(cases)('%s: hostile %s', async (label, part, route) => {
    const before = await fingerprint();
    const baseline = part === 'ignoredQuery' ? (await send(route, pathFor(route))).status : 0;

    let property:
      | fc.IAsyncPropertyWithHooks<never[]>
      | fc.IAsyncPropertyWithHooks<[Buffer, string]>
      | fc.IAsyncPropertyWithHooks<[BodyInput]>
      | fc.IAsyncPropertyWithHooks<[string]>;
    switch (part) {
      case 'body':
        property = fc.asyncProperty(hostileBody, async (body) => {
          expectRefused(
            await send(route, pathFor(route), body),
            `${label} ${body.contentType ?? ''} ${body.payload.slice(0, 120)}`,
          );
        });
        break;
      case 'query':
        property = fc.asyncProperty(hostileQuery, async (query) => {
          expectRefused(
            await send(route, `${pathFor(route)}?${query}`),
            `${label}?${query.slice(0, 120)}`,
          );
        });
        break;
      case 'params': {
        const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] ?? '');
        property = fc.asyncProperty(hostileParam, async (value) => {
          const params = Object.fromEntries(names.map((n) => [n, encodeSegment(value)]));
          expectRefused(
            await send(route, pathFor(route, params)),
            `${label} ${JSON.stringify(value).slice(0, 120)}`,
          );
        });
        break;
      }
      case 'raw':
        property = fc.asyncProperty(
          hostileBytes,
          fc.constantFrom(
            'image/png',
            'application/pdf',
            'application/octet-stream',
            'text/html',
            'application/json',
          ),
          async (bytes, contentType) => {
            expectRefused(
              await send(route, pathFor(route), { contentType, payload: bytes }),
              `${label} ${contentType} ${String(bytes.length)} bytes`,
            );
          },
        );
        break;
      case 'suffix':
        property = fc.asyncProperty(hostileParam, async (segment) => {
          const result = await send(route, `${pathFor(route)}/${encodeSegment(segment)}`);
          expectRefused(result, `${label}/${JSON.stringify(segment).slice(0, 120)}`);
          // 431: the request line alone is over Node's 16 KiB header limit.
          expect([404, 431]).toContain(result.status);
        });
        break;
      case 'ignoredQuery':
        // A route that reads no query answers as it would without one, and never fails.
        property = fc.asyncProperty(hostileQuery, async (query) => {
          const result = await send(route, `${pathFor(route)}?${query}`);
          if (result.status === 431) expectRefused(result, `${label}?${query.slice(0, 120)}`);
          else
            expect(
              result.status,
              `${label}?${query.slice(0, 120)} -> ${result.text.slice(0, 200)}`,
            ).toBe(baseline);
        });
        break;
    }
    await fc.assert(property as fc.IAsyncProperty<unknown[]>, { numRuns: RUNS });

    expect(await fingerprint()).toEqual(before);
  });

  it('lists every /api route the app has', () => {
    const listed = ROUTES.map((r) => `${r.method} ${r.path}`).sort();
    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter((r) =>
      r.split(' ')[1]?.startsWith('/api'),
    );
    expect(registered.length).toBeGreaterThan(20);
    // A route missing here is untested: add it to ROUTES with who may call it and what it reads.
    expect(registered.filter((r) => !listed.includes(r))).toEqual([]);
  });

  it('still works for the users it was attacked as', async () => {
    expect((await clients.get('admin')?.get('/api/admin/users'))?.status).toBe(200);
    expect((await clients.get('member')?.get('/api/stats'))?.status).toBe(200);
    expect((await clients.get('pending')?.get('/api/user'))?.status).toBe(200);
    // Object.prototype was never polluted in this process either.
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
