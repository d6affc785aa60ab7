// Test helpers: the real app on a fresh database (in-memory PGlite, or a new database on the
// PostgreSQL server in DATABASE_URL), listening on 127.0.0.1, spoken to over real HTTP.
//   const t = await build();                  // afterAll(() => t.close())
//   const admin = await t.createUser({ role: 'administrator', status: 'approved' });
//   const client = await loginAs(t, admin);    // goes through POST /api/login
//   const res = await client.get('/api/user');
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database, User as UserRow } from '@rescuelog/db/schema';
import { createPostgresDatabase } from '@rescuelog/db/connect';
import { createTestDatabase } from '@rescuelog/db/testing';
import { parseEnv } from '@rescuelog/sync-protocol/server/env';
import type { UserRole, UserStatus } from '@rescuelog/sync-protocol/accounts/users';
import { buildApp, type AppOptions } from '../src/app';
import { resolveConfig } from '../src/config';
import { SESSION_COOKIE } from '../src/plugins/external/session';

/** Cheap argon2id for tests only; production always uses 19 MiB / t=2 (PRODUCTION_HASHING). */
export const TEST_PASSWORD_HASHING = { memoryCost: 256, timeCost: 1, parallelism: 1 };
export const TEST_PASSWORD = 'correct horse';

export interface BuildOptions {
  /** Extra environment variables, as the process would get them (e.g. FIRST_USER_ADMIN). */
  env?: Record<string, string>;
  rateLimits?: AppOptions['rateLimits'];
  sessionTimeouts?: AppOptions['sessionTimeouts'];
  /** The session and user cache's epoch poll and stale bound. */
  authCache?: AppOptions['authCache'];
  /** Production argon2 parameters instead of the cheap test ones. */
  productionHashing?: boolean;
  logger?: AppOptions['logger'];
  extraProtectedRoutes?: AppOptions['extraProtectedRoutes'];
  /** The record kinds the server syncs (a test adds a throwaway kind). */
  registry?: AppOptions['registry'];
  /** Runs on the migrated database before the app starts (a test kind's own migration). */
  migrate?: (db: Kysely<Database>) => Promise<void>;
  /** How long the app trusts its copy of the system settings. */
  settingsCacheTtlMs?: number;
  /** Told of every route the app registers. */
  onRoute?: AppOptions['onRoute'];
  /** An already migrated database to share with another app (two instances, one database). */
  database?: { db: Kysely<Database>; close(): Promise<void> };
  /** Let push subscriptions point at the stand-in push service on 127.0.0.1 (push-service.ts). */
  pushTesting?: boolean;
  /** The notification job's timings. */
  notificationJob?: AppOptions['notificationJob'];
}

export interface TestApp {
  /** http://127.0.0.1:<port> */
  url: string;
  app: FastifyInstance;
  db: Kysely<Database>;
  dataDir: string;
  /** A client without a session (but sending the app's X-Requested-With header). */
  client(): TestClient;
  /** Inserts a user directly (password TEST_PASSWORD unless given). */
  createUser(
    values?: Partial<{
      email: string;
      password: string;
      fullName: string;
      role: UserRole;
      status: UserStatus;
    }>,
  ): Promise<TestUser>;
  close(): Promise<void>;
}

export interface TestUser {
  row: UserRow;
  email: string;
  password: string;
}

let emailCounter = 0;
export function uniqueEmail(prefix = 'user'): string {
  emailCounter += 1;
  return `${prefix}${String(emailCounter)}.${String(process.pid)}@example.org`;
}

export async function build(options: BuildOptions = {}): Promise<TestApp> {
  const shared = options.database;
  const handle = shared
    ? { db: shared.db, databaseUrl: undefined, close: async () => {} }
    : await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-api-test-'));
  const env = parseEnv({
    PORT: '0',
    DATA_DIR: dataDir,
    WEB_DIST: path.join(dataDir, 'no-web-dist'),
    SESSION_SECRET: 'test-session-secret-that-is-long-enough-0123456789',
    PUBLIC_ORIGIN: 'http://localhost:3000',
    FIRST_USER_ADMIN: 'false',
    ...options.env,
  });
  // On PostgreSQL the pushes' own pool, as the server opens it (decision 042).
  const pushes =
    handle.databaseUrl === undefined
      ? undefined
      : await createPostgresDatabase(handle.databaseUrl, { poolSize: env.syncPushesAtOnce });
  let app: FastifyInstance;
  try {
    if (options.migrate) await options.migrate(handle.db);
    app = await buildApp({
      config: resolveConfig(env),
      database: handle.db,
      ...(pushes ? { pushDatabase: pushes.db } : {}),
      ...(options.productionHashing ? {} : { passwordHashing: TEST_PASSWORD_HASHING }),
      ...(options.rateLimits ? { rateLimits: options.rateLimits } : {}),
      ...(options.sessionTimeouts ? { sessionTimeouts: options.sessionTimeouts } : {}),
      ...(options.authCache ? { authCache: options.authCache } : {}),
      logger: options.logger ?? false,
      ...(options.extraProtectedRoutes
        ? { extraProtectedRoutes: options.extraProtectedRoutes }
        : {}),
      ...(options.registry ? { registry: options.registry } : {}),
      ...(options.onRoute ? { onRoute: options.onRoute } : {}),
      ...(options.pushTesting ? { pushTesting: { allowLoopbackEndpoints: true } } : {}),
      ...(options.notificationJob ? { notificationJob: options.notificationJob } : {}),
      ...(options.settingsCacheTtlMs !== undefined
        ? { settingsCacheTtlMs: options.settingsCacheTtlMs }
        : {}),
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
  } catch (error) {
    await pushes?.close();
    await handle.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  const address = app.server.address();
  if (address === null || typeof address === 'string')
    throw new Error('The test server has no TCP address');
  const url = `http://127.0.0.1:${String(address.port)}`;

  return {
    url,
    app,
    db: handle.db,
    dataDir,
    client: () => new TestClient(url),
    async createUser(values = {}) {
      const email = values.email ?? uniqueEmail();
      const password = values.password ?? TEST_PASSWORD;
      const row = await handle.db
        .insertInto('users')
        .values({
          email,
          passwordHash: await app.passwords.hash(password),
          fullName: values.fullName ?? 'Test Responder',
          role: values.role ?? 'member',
          status: values.status ?? 'approved',
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return { row, email, password };
    },
    async close() {
      await app.close();
      await pushes?.close();
      await handle.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface RequestOptions {
  json?: unknown;
  body?: string;
  headers?: Record<string, string>;
  /** Leave out the X-Requested-With header the web app sends. */
  withoutAppHeader?: boolean;
}

/** fetch with a one-cookie jar for the session cookie, like a browser tab on our origin. */
export class TestClient {
  sessionCookie: string | undefined;
  /** Every other cookie the server set (the known-device cookie), by name. */
  readonly otherCookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request(method: string, urlPath: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (!options.withoutAppHeader) headers['x-requested-with'] = 'rescuelog';
    const jar = [...this.otherCookies].map(([name, value]) => `${name}=${value}`);
    if (this.sessionCookie !== undefined) jar.push(`${SESSION_COOKIE}=${this.sessionCookie}`);
    if (jar.length > 0) headers.cookie = jar.join('; ');
    let body: string | undefined = options.body;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    Object.assign(headers, options.headers);
    const response = await fetch(new URL(urlPath, this.baseUrl), {
      method,
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair?.indexOf('=') ?? -1;
      if (!pair || eq <= 0) continue;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      const cleared = value === '' || /expires=Thu, 01 Jan 1970/i.test(line);
      if (name === SESSION_COOKIE) this.sessionCookie = cleared ? undefined : value;
      else if (cleared) this.otherCookies.delete(name);
      else this.otherCookies.set(name, value);
    }
    return response;
  }

  get(urlPath: string, options?: RequestOptions): Promise<Response> {
    return this.request('GET', urlPath, options);
  }

  post(urlPath: string, json?: unknown, options: RequestOptions = {}): Promise<Response> {
    return this.request('POST', urlPath, json === undefined ? options : { ...options, json });
  }

  delete(urlPath: string, json?: unknown, options: RequestOptions = {}): Promise<Response> {
    return this.request('DELETE', urlPath, json === undefined ? options : { ...options, json });
  }
}

/** Signs in through the real POST /api/login and returns the signed-in client. */
export async function loginAs(
  t: TestApp,
  user: { email: string; password: string },
): Promise<TestClient> {
  const client = t.client();
  const response = await client.post('/api/login', { email: user.email, password: user.password });
  if (response.status !== 200)
    throw new Error(`login failed: ${String(response.status)} ${await response.text()}`);
  return client;
}
