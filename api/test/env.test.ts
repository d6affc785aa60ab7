// The environment schema (sync-protocol/env) and the API's resolution of it (src/config.ts).
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '@rescuelog/sync-protocol/env';
import { findRepoRoot, resolveConfig } from '../src/config';

describe('parseEnv', () => {
  it('has the documented defaults', () => {
    expect(parseEnv({})).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: undefined,
      publicOrigin: 'http://localhost:3000',
      allowedOrigins: [],
      firstUserAdmin: true,
    });
  });

  it('turns the first-administrator rule off in server mode unless asked for', () => {
    expect(parseEnv({ DATABASE_URL: 'postgres://db/rescuelog' }).firstUserAdmin).toBe(false);
    expect(
      parseEnv({ DATABASE_URL: 'postgres://db/rescuelog', FIRST_USER_ADMIN: 'true' })
        .firstUserAdmin,
    ).toBe(true);
    expect(parseEnv({ FIRST_USER_ADMIN: 'false' }).firstUserAdmin).toBe(false);
  });

  it('takes rate limit overrides as <max>/<seconds>', () => {
    expect(parseEnv({}).rateLimits).toEqual({});
    expect(
      parseEnv({ RATE_LIMIT_LOGIN_IP: '100/60', RATE_LIMIT_REGISTER_IP: '1000 / 3600' }).rateLimits,
    ).toEqual({
      loginPerIp: { max: 100, windowSeconds: 60 },
      registerPerIp: { max: 1000, windowSeconds: 3600 },
    });
  });

  it('parses origins, including a native wrapper origin', () => {
    const env = parseEnv({
      PUBLIC_ORIGIN: 'https://rescue.example.org/',
      ALLOWED_ORIGINS: 'capacitor://localhost, https://other.example:8443',
    });
    expect(env.publicOrigin).toBe('https://rescue.example.org');
    expect(env.allowedOrigins).toEqual(['capacitor://localhost', 'https://other.example:8443']);
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://db' }],
    ['SESSION_SECRET', { SESSION_SECRET: 'too-short' }],
    ['PUBLIC_ORIGIN', { PUBLIC_ORIGIN: 'https://rescue.example.org/app' }],
    ['ALLOWED_ORIGINS', { ALLOWED_ORIGINS: 'capacitor://localhost,not an origin' }],
    ['FIRST_USER_ADMIN', { FIRST_USER_ADMIN: 'sometimes' }],
    ['RATE_LIMIT_LOGIN_EMAIL', { RATE_LIMIT_LOGIN_EMAIL: '10 per minute' }],
    ['RATE_LIMIT_REGISTER_IP', { RATE_LIMIT_REGISTER_IP: '0/60' }],
  ])('names %s when it is invalid', (variable, source) => {
    expect(() => parseEnv(source)).toThrow(EnvError);
    expect(() => parseEnv(source)).toThrow(
      new RegExp(`^Invalid environment variable ${variable}:`),
    );
  });
});

describe('resolveConfig', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'rescuelog-config-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('generates the embedded session secret once, readable only by the owner', async () => {
    const first = resolveConfig(parseEnv({ DATA_DIR: dir }));
    const second = resolveConfig(parseEnv({ DATA_DIR: dir }));
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(second.sessionSecret).toBe(first.sessionSecret);
    const file = path.join(dir, 'session-secret');
    expect((await readFile(file, 'utf8')).trim()).toBe(first.sessionSecret);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('requires SESSION_SECRET in server mode', () => {
    expect(() =>
      resolveConfig(parseEnv({ DATABASE_URL: 'postgres://db/x', DATA_DIR: dir })),
    ).toThrow(/SESSION_SECRET/);
  });

  it('defaults DATA_DIR and WEB_DIST to the repository root', () => {
    const root = findRepoRoot(process.cwd());
    expect(root).toBeDefined();
    const config = resolveConfig(parseEnv({ SESSION_SECRET: 'x'.repeat(32) }));
    expect(config.dataDir).toBe(path.join(root ?? '', 'data'));
    expect(config.webDist).toBe(path.join(root ?? '', 'web', 'dist'));
  });

  it('allows both spellings of the local address only when PUBLIC_ORIGIN is defaulted; Secure cookies on https', () => {
    const local = resolveConfig(parseEnv({ DATA_DIR: dir, PORT: '4000' }));
    expect([...local.allowedOrigins].sort()).toEqual([
      'http://127.0.0.1:4000',
      'http://localhost:4000',
    ]);
    expect(local.cookieSecure).toBe(false);
    const hosted = resolveConfig(
      parseEnv({ DATA_DIR: dir, PUBLIC_ORIGIN: 'https://rescue.example.org' }),
    );
    expect([...hosted.allowedOrigins]).toEqual(['https://rescue.example.org']);
    expect(hosted.cookieSecure).toBe(true);
    expect(resolveConfig(parseEnv({ DATA_DIR: dir, TRUST_PROXY: 'true' })).cookieSecure).toBe(
      'auto',
    );
    // An https origin in front of a plain-http server means a TLS proxy: trust its headers.
    expect(parseEnv({ PUBLIC_ORIGIN: 'https://rescue.example.org' }).trustProxy).toBe(true);
    expect(
      parseEnv({ PUBLIC_ORIGIN: 'https://rescue.example.org', TRUST_PROXY: 'false' }).trustProxy,
    ).toBe(false);
    expect(parseEnv({}).trustProxy).toBe(false);
  });
});
