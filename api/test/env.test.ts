// The environment schema (sync-protocol/env) and the API's resolution of it (src/config.ts).
import { createECDH } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from '@rescuelog/sync-protocol/server/env';
import { generateVapidKeys, vapidPublicKeyOf } from '@rescuelog/sync-protocol/server/vapid-keys';
import { findRepoRoot, resolveConfig } from '../src/config';

/** A folder's files with their sizes and times (null: no such folder), to see it untouched. */
async function listing(dir: string): Promise<Array<[string, number, number]> | null> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return null;
  }
  const entries: Array<[string, number, number]> = [];
  for (const name of names.sort()) {
    const info = await stat(path.join(dir, name));
    entries.push([name, info.size, info.mtimeMs]);
  }
  return entries;
}

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

  it('sizes the PostgreSQL pool from DATABASE_POOL_SIZE (10 by default), a whole number of at least 1', () => {
    expect(parseEnv({}).databasePoolSize).toBe(10);
    expect(parseEnv({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    for (const bad of ['0', '-3', '2.5', 'many'])
      expect(() => parseEnv({ DATABASE_POOL_SIZE: bad })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it('runs SYNC_PUSHES_AT_ONCE pushes at once (4 by default), on a pool of their own', () => {
    expect(parseEnv({}).syncPushesAtOnce).toBe(4);
    // The pushes' pool is not the screens' (decision 042): it may be as large as theirs.
    expect(parseEnv({ SYNC_PUSHES_AT_ONCE: '12', DATABASE_POOL_SIZE: '10' }).syncPushesAtOnce).toBe(
      12,
    );
    for (const bad of ['0', '1.5', 'all'])
      expect(() => parseEnv({ SYNC_PUSHES_AT_ONCE: bad })).toThrow(/SYNC_PUSHES_AT_ONCE/);
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
      TRUST_PROXY: '10.0.0.2',
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
    ['VAPID_PUBLIC_KEY', { VAPID_PUBLIC_KEY: 'not-a-key', VAPID_PRIVATE_KEY: 'x'.repeat(43) }],
    [
      'VAPID_PUBLIC_KEY',
      { VAPID_PUBLIC_KEY: `A${'x'.repeat(86)}`, VAPID_PRIVATE_KEY: 'x'.repeat(43) },
    ],
    ['VAPID_PRIVATE_KEY', { VAPID_PUBLIC_KEY: `B${'x'.repeat(86)}`, VAPID_PRIVATE_KEY: 'short' }],
    ['VAPID_PRIVATE_KEY', { VAPID_PUBLIC_KEY: `B${'x'.repeat(86)}` }],
    ['VAPID_PUBLIC_KEY', { VAPID_PRIVATE_KEY: 'x'.repeat(43) }],
    ['VAPID_SUBJECT', { VAPID_SUBJECT: 'ops@rescue.example.org' }],
    ['VAPID_SUBJECT', { VAPID_SUBJECT: 'http://rescue.example.org' }],
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

  it('generates the embedded VAPID key pair once, readable only by the owner', async () => {
    const first = resolveConfig(parseEnv({ DATA_DIR: dir }));
    const second = resolveConfig(parseEnv({ DATA_DIR: dir }));
    expect(second.vapid).toEqual(first.vapid);
    expect(Buffer.from(first.vapid.publicKey, 'base64url')).toHaveLength(65);
    expect(vapidPublicKeyOf(first.vapid.privateKey)).toBe(first.vapid.publicKey);
    expect(first.vapid.subject).toBe('mailto:rescuelog@localhost');
    const file = path.join(dir, 'vapid-keys.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      publicKey: first.vapid.publicKey,
      privateKey: first.vapid.privateKey,
    });
  });

  it('signs pushes with an embedded key file written with a 31-byte private key (its leading zero dropped)', async () => {
    const own = await mkdtemp(path.join(tmpdir(), 'rescuelog-vapid-'));
    try {
      const scalar = Buffer.concat([Buffer.alloc(1), Buffer.alloc(31, 7)]);
      const ecdh = createECDH('prime256v1');
      ecdh.setPrivateKey(scalar);
      const publicKey = ecdh.getPublicKey().toString('base64url');
      await writeFile(
        path.join(own, 'vapid-keys.json'),
        JSON.stringify({ publicKey, privateKey: scalar.subarray(1).toString('base64url') }),
      );
      const { vapid } = resolveConfig(parseEnv({ DATA_DIR: own }));
      expect(vapid.privateKey).toBe(scalar.toString('base64url'));
      expect(vapid.publicKey).toBe(publicKey);
      const headers = webpush.getVapidHeaders(
        'https://push.example.org',
        vapid.subject,
        vapid.publicKey,
        vapid.privateKey,
        'aes128gcm',
      );
      expect(String(headers.Authorization)).toMatch(/^vapid t=/);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  it('requires the VAPID keys and subject in server mode, and a matching pair', () => {
    const keys = generateVapidKeys();
    const server = {
      DATABASE_URL: 'postgres://db/x',
      DATA_DIR: dir,
      SESSION_SECRET: 'x'.repeat(32),
    };
    expect(() => resolveConfig(parseEnv(server))).toThrow(
      /^Invalid environment variable VAPID_PUBLIC_KEY: is required when DATABASE_URL is set/,
    );
    const withKeys = {
      ...server,
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
    };
    expect(() => resolveConfig(parseEnv(withKeys))).toThrow(
      /^Invalid environment variable VAPID_SUBJECT: is required when DATABASE_URL is set/,
    );
    const config = resolveConfig(
      parseEnv({ ...withKeys, VAPID_SUBJECT: 'mailto:ops@rescue.example.org' }),
    );
    expect(config.vapid).toEqual({ ...keys, subject: 'mailto:ops@rescue.example.org' });
    const other = generateVapidKeys();
    expect(() =>
      resolveConfig(
        parseEnv({
          ...withKeys,
          VAPID_PUBLIC_KEY: other.publicKey,
          VAPID_SUBJECT: 'https://rescue.example.org',
        }),
      ),
    ).toThrow(
      /^Invalid environment variable VAPID_PUBLIC_KEY: does not belong to VAPID_PRIVATE_KEY/,
    );
  });

  // A key whose scalar starts with a zero byte (about one in 256) must still be 32 bytes, or
  // VAPID_PRIVATE_KEY's check refuses it: 2,000 keys miss such a scalar once in ~2,700 runs.
  it('generates VAPID private keys of 32 bytes that the environment check accepts', () => {
    const lengths = new Set<number>();
    for (let i = 0; i < 2000; i += 1) {
      const keys = generateVapidKeys();
      lengths.add(Buffer.from(keys.privateKey, 'base64url').length);
      if (lengths.size > 1) break;
      expect(vapidPublicKeyOf(keys.privateKey)).toBe(keys.publicKey);
    }
    expect([...lengths]).toEqual([32]);
  });

  it('requires SESSION_SECRET in server mode', () => {
    expect(() =>
      resolveConfig(parseEnv({ DATABASE_URL: 'postgres://db/x', DATA_DIR: dir })),
    ).toThrow(/SESSION_SECRET/);
  });

  it('defaults DATA_DIR and WEB_DIST to the repository root, writing nothing there', async () => {
    const root = findRepoRoot(process.cwd());
    expect(root).toBeDefined();
    const checkoutData = path.join(root ?? '', 'data');
    const before = await listing(checkoutData);
    // The secret and the VAPID pair come from the environment, so nothing needs to be made
    // in the default folder (which is the checkout's own data/ here).
    const keys = generateVapidKeys();
    const config = resolveConfig(
      parseEnv({
        SESSION_SECRET: 'x'.repeat(32),
        VAPID_PUBLIC_KEY: keys.publicKey,
        VAPID_PRIVATE_KEY: keys.privateKey,
      }),
    );
    expect(config.dataDir).toBe(checkoutData);
    expect(config.webDist).toBe(path.join(root ?? '', 'web', 'dist'));
    expect(await listing(checkoutData)).toEqual(before);
  });

  it('allows both spellings of the local address only when PUBLIC_ORIGIN is defaulted; Secure cookies on https', () => {
    const local = resolveConfig(parseEnv({ DATA_DIR: dir, PORT: '4000' }));
    expect([...local.allowedOrigins].sort()).toEqual([
      'http://127.0.0.1:4000',
      'http://localhost:4000',
    ]);
    expect(local.cookieSecure).toBe(false);
    const hosted = resolveConfig(
      parseEnv({
        DATA_DIR: dir,
        PUBLIC_ORIGIN: 'https://rescue.example.org',
        TRUST_PROXY: '10.0.0.2',
      }),
    );
    expect([...hosted.allowedOrigins]).toEqual(['https://rescue.example.org']);
    expect(hosted.cookieSecure).toBe(true);
    expect(hosted.trustProxy).toEqual(['10.0.0.2']);
    expect(resolveConfig(parseEnv({ DATA_DIR: dir, TRUST_PROXY: '127.0.0.1' })).cookieSecure).toBe(
      'auto',
    );
    expect(resolveConfig(parseEnv({ DATA_DIR: dir })).trustProxy).toBe(false);
  });
});

describe('TRUST_PROXY', () => {
  it('trusts nobody unless a proxy is named, whatever PUBLIC_ORIGIN says', () => {
    expect(parseEnv({}).trustProxy).toEqual([]);
    expect(parseEnv({ TRUST_PROXY: 'false' }).trustProxy).toEqual([]);
    expect(parseEnv({ TRUST_PROXY: '' }).trustProxy).toEqual([]);
  });

  it('takes addresses, CIDR ranges and named ranges, comma-separated', () => {
    expect(
      parseEnv({ TRUST_PROXY: '10.0.0.2, 172.18.0.0/16,fd00::/8, ::1, loopback' }).trustProxy,
    ).toEqual(['10.0.0.2', '172.18.0.0/16', 'fd00::/8', '::1', 'loopback']);
  });

  it.each([
    ['true', /give the proxy's address/],
    ['*', /give the proxy's address/],
    ['10.0.0.256', /not an IP address/],
    ['proxy.internal', /not an IP address/],
    ['10.0.0.0/33', /prefix length outside 0-32/],
    ['fd00::/129', /prefix length outside 0-128/],
    ['10.0.0.0/8/1', /more than one/],
    ['10.0.0.1, nonsense', /'nonsense' is not an IP address/],
  ])('refuses %s with a message naming TRUST_PROXY', (value, message) => {
    expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(EnvError);
    expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    expect(() => parseEnv({ TRUST_PROXY: value })).toThrow(message);
  });

  it('an https PUBLIC_ORIGIN without a trusted proxy stops the start', () => {
    expect(() => parseEnv({ PUBLIC_ORIGIN: 'https://rescue.example.org' })).toThrow(
      /TRUST_PROXY: PUBLIC_ORIGIN is https/,
    );
  });
});

describe('upload limits', () => {
  it('defaults, and MiB or whole numbers from the environment', () => {
    expect(parseEnv({}).uploads).toEqual({
      accountQuotaBytes: 100 * 1_048_576,
      addressQuotaBytes: 500 * 1_048_576,
      addressWindowHours: 24,
      pendingTotalBytes: 2048 * 1_048_576,
      orphanGraceHours: 24,
      cleanupIntervalMinutes: 60,
    });
    const set = parseEnv({
      UPLOAD_QUOTA_ACCOUNT_MIB: '0.5',
      UPLOAD_QUOTA_ADDRESS_MIB: '30',
      UPLOAD_QUOTA_ADDRESS_HOURS: '1',
      UPLOAD_QUOTA_PENDING_TOTAL_MIB: '1000',
      UPLOAD_ORPHAN_HOURS: '2',
      UPLOAD_CLEANUP_MINUTES: '5',
    }).uploads;
    expect(set).toEqual({
      accountQuotaBytes: 524_288,
      addressQuotaBytes: 30 * 1_048_576,
      addressWindowHours: 1,
      pendingTotalBytes: 1000 * 1_048_576,
      orphanGraceHours: 2,
      cleanupIntervalMinutes: 5,
    });
  });

  it.each([
    ['UPLOAD_QUOTA_ACCOUNT_MIB', '-1'],
    ['UPLOAD_QUOTA_PENDING_TOTAL_MIB', '0'],
    ['UPLOAD_QUOTA_ADDRESS_MIB', 'lots'],
    ['UPLOAD_ORPHAN_HOURS', '1.5'],
    ['UPLOAD_CLEANUP_MINUTES', '0'],
  ])('refuses %s=%s', (variable, value) => {
    expect(() => parseEnv({ [variable]: value })).toThrow(new RegExp(variable));
  });
});

describe('docker-compose.yml', () => {
  it('publishes only the proxy, and trusts exactly its address', async () => {
    const root = findRepoRoot(process.cwd()) ?? '';
    const text = await readFile(path.join(root, 'docker-compose.yml'), 'utf8');
    // Top-level services are the two-space-indented keys under `services:`.
    const services = new Map<string, string>();
    const body = text.slice(text.indexOf('\nservices:\n'), text.indexOf('\nnetworks:\n'));
    for (const block of body.split(/\n(?= {2}[a-z]+:\n)/)) {
      const name = /^ {2}([a-z]+):/.exec(block)?.[1];
      if (name) services.set(name, block);
    }
    const api = services.get('api') ?? '';
    const proxy = services.get('proxy') ?? '';
    expect(api).not.toMatch(/^\s+ports:/m);
    expect(proxy).toMatch(/^\s+ports:/m);
    const trusted = /TRUST_PROXY: (\S+)/.exec(api)?.[1] ?? '';
    expect(proxy).toContain(`ipv4_address: ${trusted}`);
    expect(parseEnv({ TRUST_PROXY: trusted }).trustProxy).toEqual([trusted]);
    expect(text).toMatch(/backend:\n\s+internal: true/);
  });
});
