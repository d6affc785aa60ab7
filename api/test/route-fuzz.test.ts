// Fuzz of EVERY route the app registers (issue 12), taken from Fastify's own route list as
// the app builds it (the onRoute hook), so a route added later is fuzzed without anyone
// remembering to list it. Each route is called as an anonymous visitor, a pending account,
// an approved member and an administrator (the only one whose requests reach the admin
// routes' parsers), every request with a valid same-origin proof (Origin and the app
// header), carrying hostile path parameters, query strings, session cookies and bodies: wrong types, huge
// strings, deep nesting, NUL and lone surrogates, prototype-pollution keys, arrays where
// objects belong, malformed JSON and other content types.
//
// Asserted: no response is a 5xx; every /api refusal is a JSON error body with a code from
// ErrorCode; and nothing is written. "Written" is an md5 over every row of every table in
// the database, listed from the catalogue (so a new table is covered too), except:
//   - audit_log: refusals and denials are appended on purpose (that is the audit);
//   - sessions: the fuzzing clients' own sessions are touched on every request;
//   - rate_limits: counters move on every login and registration attempt;
//   - auth_epoch: the session and user cache's change counter (decision 026) moves with
//     sessions (a fuzzed POST /api/logout ends the client's own session, as it should).
// Each generated body carries a key no request schema knows, or is not a JSON object at all,
// so no request can be a valid write by chance.
import fc from 'fast-check';
import { sql } from 'kysely';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { SESSION_COOKIE } from '../src/plugins/external/session';
import { build, loginAs, type TestApp, type TestClient, type TestUser } from './helpers';

type Who = 'anonymous' | 'pending' | 'member' | 'admin';
/** The administrator too: only it reaches the parsers of the admin routes. */
const WHO: readonly Who[] = ['anonymous', 'pending', 'member', 'admin'];
const ORIGIN = 'http://localhost:3000';
/** Tables that change by design while refusing requests (see the header). */
const BOOKKEEPING_TABLES = new Set(['audit_log', 'sessions', 'rate_limits', 'auth_epoch']);
const RUNS = Number(process.env.ROUTE_FUZZ_RUNS ?? 8);
const ERROR_CODES = new Set<string>(Object.values(ErrorCode));

interface Route {
  method: string;
  url: string;
}

// ---------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------

const NASTY = [
  '\u0000',
  'a\u0000b',
  '\uD800',
  'x\uDC00y',
  '\uFEFF',
  '\u202E',
  "'; DROP TABLE users; --",
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%00',
  '%',
  '%zz',
  '1e309',
  '-0',
  'NaN',
  'null',
  '__proto__',
  'constructor',
  '9'.repeat(40),
  '𝕳👩‍⚕️',
];
const POLLUTION_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

const hostileString = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(1_000, 70_000, 200_000).map((n) => 'A'.repeat(n)),
);

/**
 * Deep nesting is spliced in as text after JSON.stringify (which would itself overflow the
 * stack on 20,000 levels): a value stands in as this marker until then.
 */
const DEEP_MARKER = /"@@deep-(\d+)-([01])@@"/g;

function deepJson(depth: number, arrays: boolean): string {
  let open = '';
  let close = '';
  for (let i = 0; i < depth; i += 1) {
    const array = arrays && i % 2 === 0;
    open += array ? '[' : '{"a":';
    close = (array ? ']' : '}') + close;
  }
  return `${open}"leaf"${close}`;
}

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.constantFrom(0, -1, 1.5, 2 ** 53, -(2 ** 63), 1e308, true, false, null),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(fc.constantFrom(...POLLUTION_KEYS, 'a'), hostileString, { maxKeys: 3 }),
  fc
    .tuple(fc.constantFrom(50, 1_000, 20_000), fc.boolean())
    .map(([depth, arrays]) => `@@deep-${String(depth)}-${arrays ? '1' : '0'}@@`),
);

/** Keys request schemas know, so hostile values reach their parsers. */
const KNOWN_KEYS = [
  'email',
  'password',
  'fullName',
  'callSign',
  'qualifications',
  'idDocumentUrl',
  'certificationsUrl',
  'role',
  'roleId',
  'permissions',
  'status',
  'name',
  'displayName',
  'title',
  'message',
  'currentPassword',
  'newPassword',
  'cursor',
  'limit',
  'mutations',
  'protocolVersion',
  'schemaVersion',
  'deviceId',
  'choice',
  'value',
  'reason',
];
const UNKNOWN_KEY = '\u0000fuzz-unknown-key';

const hostileObject = fc
  .tuple(fc.dictionary(fc.constantFrom(...KNOWN_KEYS), hostileValue, { maxKeys: 4 }), hostileValue)
  .map(([known, extra]) => {
    const object: Record<string, unknown> = { ...known };
    object[UNKNOWN_KEY] = extra;
    return object;
  });

interface Body {
  contentType: string;
  payload: string;
}

const hostileBody: fc.Arbitrary<Body> = fc.oneof(
  { weight: 4, arbitrary: hostileObject.map((v) => json(v)) },
  {
    weight: 2,
    // Arrays and scalars where an object belongs.
    arbitrary: fc
      .oneof(fc.array(hostileValue, { maxLength: 3 }), hostileString, fc.constantFrom(1, null))
      .map((v) => json(v)),
  },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom(
        '{',
        '{"a":1,}',
        '{"__proto__":{"isAdmin":true}}',
        '{"constructor":{"prototype":{"isAdmin":true}}}',
        '['.repeat(100_000),
        `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
        `${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}`,
        '"\\ud800"',
        '{"email":"\\u0000"}',
      )
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
          'application/json; charset=utf-16',
          'image/png',
        ),
        hostileString,
      )
      .map(([contentType, payload]) => ({ contentType, payload: payload || 'x' })),
  },
);

function json(value: unknown): Body {
  const text = (JSON.stringify(value) ?? 'null').replace(DEEP_MARKER, (_m, depth: string, arrays) =>
    deepJson(Number(depth), arrays === '1'),
  );
  return { contentType: 'application/json', payload: text };
}

/** Percent-encodes every byte outside the unreserved set (lone surrogates become U+FFFD). */
function encode(value: string): string {
  return [...Buffer.from(value, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

/** Strings for the URL: long, but mostly under Node's 16 KiB header limit (431 past it). */
const urlString = fc.oneof(
  fc.constantFrom(...NASTY),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(300, 3_000, 20_000).map((n) => 'A'.repeat(n)),
);

const hostileSegment = fc.oneof(
  urlString.map(encode),
  fc.constantFrom('%', '%zz', '%c0%80', '%ed%a0%80', '-1', '0', '1.5', '99999999999999999999'),
);

const hostileQuery = fc
  .array(
    fc.tuple(
      fc.oneof(fc.constantFrom('limit', 'cursor', 'status', 'q', 'id', ...POLLUTION_KEYS)),
      fc.oneof(urlString.map(encode), fc.constantFrom('%', '%zz', '[]', 'a[b]=c')),
    ),
    { maxLength: 3 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${encode(k)}=${v}`).join('&'));

interface Attempt {
  params: string[];
  query: string;
  body: Body | undefined;
  /** A forged session cookie, sent by the anonymous visitor. */
  cookie: string | undefined;
}

const attempt = (paramCount: number, withBody: boolean): fc.Arbitrary<Attempt> =>
  fc.record({
    params: fc.array(hostileSegment, { minLength: paramCount, maxLength: paramCount }),
    query: hostileQuery,
    body: withBody ? hostileBody : fc.constant(undefined),
    cookie: fc.option(
      fc.oneof(
        urlString.map(encode),
        fc.constantFrom('s%3Aabc.def', 's:', '%', 'a'.repeat(4000), '\u0000'),
      ),
      { nil: undefined },
    ),
  });

// ---------------------------------------------------------------------------------------

describe('fuzz of every registered route', () => {
  const routes: Route[] = [];
  const users = new Map<Who, TestUser>();
  const clients = new Map<Who, TestClient>();
  let t: TestApp;

  beforeAll(async () => {
    t = await build({
      onRoute: (route: RouteOptions) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        for (const method of methods)
          if (method !== 'HEAD' && method !== 'OPTIONS') routes.push({ method, url: route.url });
      },
      rateLimits: {
        loginPerIp: { max: 1_000_000, windowSeconds: 60 },
        loginPerEmail: { max: 1_000_000, windowSeconds: 60 },
        registerPerIp: { max: 1_000_000, windowSeconds: 60 },
      },
    });
    users.set('pending', await t.createUser({ status: 'pending' }));
    users.set('member', await t.createUser({ status: 'approved' }));
    users.set('admin', await t.createUser({ status: 'approved', role: 'administrator' }));
    for (const who of WHO) await signIn(who);
  }, 60_000);
  afterAll(() => t.close());

  async function signIn(who: Who): Promise<void> {
    const user = users.get(who);
    clients.set(who, user ? await loginAs(t, user) : t.client());
  }

  /** A digest of every row of every table but the bookkeeping ones, in one query. */
  async function fingerprint(): Promise<Record<string, string>> {
    const tables = await sql<{ name: string }>`
      select tablename as name from pg_tables where schemaname = 'public' order by tablename
    `.execute(t.db);
    const columns = tables.rows
      .filter(({ name }) => !BOOKKEEPING_TABLES.has(name))
      .map(
        ({ name }) =>
          sql`(select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) from ${sql.table(name)} x) as ${sql.ref(name)}`,
      );
    const result = await sql<Record<string, string>>`select ${sql.join(columns)}`.execute(t.db);
    return result.rows[0] ?? {};
  }

  function urlFor(route: Route, params: string[]): string {
    let index = 0;
    const next = () => params[index++] ?? 'x';
    return route.url.replace(/:\w+|\*/g, () => next());
  }

  async function send(
    route: Route,
    who: Who,
    input: Attempt,
  ): Promise<{ status: number; text: string; label: string }> {
    const client = clients.get(who);
    const headers: Record<string, string> = { 'x-requested-with': 'rescuelog', origin: ORIGIN };
    if (client?.sessionCookie) headers.cookie = `${SESSION_COOKIE}=${client.sessionCookie}`;
    else if (input.cookie !== undefined)
      headers.cookie = `${SESSION_COOKIE}=${input.cookie.replace(/[^\x20-\x7e]/g, '')}`;
    if (input.body) headers['content-type'] = input.body.contentType;
    const path = urlFor(route, input.params) + (input.query ? `?${input.query}` : '');
    const response = await fetch(new URL(path, t.url), {
      method: route.method,
      headers,
      body: input.body?.payload,
      redirect: 'manual',
    });
    const text = await response.text();
    const label = `${who} ${route.method} ${path.slice(0, 160)} ${input.body?.contentType ?? ''} ${(input.body?.payload ?? '').slice(0, 120)}`;
    return { status: response.status, text, label };
  }

  it('finds the routes in the app itself', () => {
    expect(routes.length).toBeGreaterThan(40);
    expect(routes).toContainEqual({ method: 'PUT', url: '/api/objects/upload/:token' });
  });

  it('answers every hostile request on every route below 500, with a code, and writes nothing', async () => {
    const before = await fingerprint();
    expect(Object.keys(before)).toEqual(expect.arrayContaining(['users', 'uploads', 'cases']));
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    const perRoute = new Map<string, number>();
    for (const route of routes) {
      const paramCount = (route.url.match(/:\w+|\*/g) ?? []).length;
      const withBody = !['GET', 'HEAD', 'OPTIONS'].includes(route.method);
      for (const who of WHO) {
        const judged = failures.length;
        const run = await fc.check(
          fc.asyncProperty(attempt(paramCount, withBody), async (input) => {
            const result = await send(route, who, input);
            statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
            perRoute.set(
              `${route.method} ${route.url}`,
              (perRoute.get(`${route.method} ${route.url}`) ?? 0) + 1,
            );
            const problem = judge(route, result);
            if (problem) failures.push(`${problem}: ${result.label}`);
            return problem === undefined;
          }),
          { numRuns: RUNS, endOnFailure: true },
        );
        // A judged answer is in `failures` already; a run that ended any other way (a reset
        // connection, a crashed server, an exception in the test) is a failure too.
        if (run.failed && failures.length === judged)
          failures.push(
            `${who} ${route.method} ${route.url} ended without an answer to judge: ${String(run.errorInstance)}`,
          );
        // A refused request must never have ended the client's session; if a route did
        // (a logout that ignores its body), sign in again so coverage does not silently drop.
        if (who !== 'anonymous' && (await clients.get(who)?.get('/api/user'))?.status !== 200)
          await signIn(who);
      }
      const now = await fingerprint();
      const changed = Object.keys(now).filter((table) => now[table] !== before[table]);
      if (changed.length > 0) {
        failures.push(`${route.method} ${route.url} wrote to ${changed.join(', ')}`);
        Object.assign(before, now);
      }
    }
    if (process.env.ROUTE_FUZZ_VERBOSE)
      console.info(
        routes.length,
        [...statuses].sort(),
        [...perRoute].filter(([, n]) => n !== RUNS * WHO.length),
      );
    expect(failures).toEqual([]);
  }, 300_000);

  it('deep nesting inside an otherwise well-formed sync push is refused per mutation, never a 5xx', async () => {
    const client = clients.get('member');
    const me = (await (await client?.get('/api/user'))?.json()) as { user: { id: number } };
    const deviceId = crypto.randomUUID();
    for (const [depth, arrays] of [
      [5_000, false],
      [20_000, true],
      [60_000, false],
    ] as const) {
      const mutation = JSON.stringify({
        mutationId: crypto.randomUUID(),
        deviceId,
        seq: 1,
        actorUserId: me.user.id,
        entityIds: [crypto.randomUUID()],
        baseVersion: null,
        clientTime: new Date().toISOString(),
        schemaVersion: 3,
        name: 'case.update',
        args: '@@deep-0-0@@',
      }).replace('"@@deep-0-0@@"', deepJson(depth, arrays));
      const res = await client?.request('POST', '/api/sync/push', {
        body: `{"protocolVersion":1,"schemaVersion":3,"deviceId":"${deviceId}","mutations":[${mutation}]}`,
        headers: { 'content-type': 'application/json', origin: ORIGIN },
      });
      const text = (await res?.text()) ?? '';
      expect(res?.status, `depth ${String(depth)}: ${text.slice(0, 300)}`).toBeLessThan(500);
    }
  });

  function judge(route: Route, result: { status: number; text: string }): string | undefined {
    if (result.status >= 500) return `${String(result.status)} ${result.text.slice(0, 200)}`;
    if (result.status < 400 || !route.url.startsWith('/api')) return undefined;
    try {
      const body = JSON.parse(result.text) as { code?: unknown; error?: unknown };
      if (typeof body.error !== 'string' || !ERROR_CODES.has(String(body.code)))
        return `${String(result.status)} without an error code: ${result.text.slice(0, 200)}`;
    } catch {
      return `${String(result.status)} not JSON: ${result.text.slice(0, 200)}`;
    }
    return undefined;
  }
});
