// Turns the parsed environment (sync-protocol/env) into the settings the app runs with:
// absolute paths, the session secret and the VAPID keys (generated once in embedded mode),
// allowed origins.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvError, type Env, type UploadLimits } from '@rescuelog/sync-protocol/server/env';
import {
  fullLengthPrivateKey,
  generateVapidKeys,
  vapidPublicKeyOf,
} from '@rescuelog/sync-protocol/server/vapid-keys';

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections per instance (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  /** Sync pushes an instance runs at once (SYNC_PUSHES_AT_ONCE). */
  syncPushesAtOnce: number;
  dataDir: string;
  webDist: string;
  sessionSecret: string;
  publicOrigin: string;
  /** Every origin a state-changing request may come from: PUBLIC_ORIGIN and ALLOWED_ORIGINS. */
  allowedOrigins: ReadonlySet<string>;
  firstUserAdmin: boolean;
  /** Trusted proxies (addresses, CIDR ranges); false when none is configured. */
  trustProxy: string[] | false;
  uploads: UploadLimits;
  /** Secure cookies: always when PUBLIC_ORIGIN is https, per request behind a trusted proxy. */
  cookieSecure: boolean | 'auto';
  /** Web push: the VAPID key pair (base64url) and the contact push services see. */
  vapid: VapidConfig;
}

export interface VapidConfig {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/** The folder holding pnpm-workspace.yaml above `start`, if any. */
export function findRepoRoot(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    if (existsSync(path.join(dir, 'pnpm-workspace.yaml'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Relative DATA_DIR and WEB_DIST are taken from the repository root, so `pnpm start` (which
 * runs inside api/) and a command typed at the root mean the same folder. Outside the
 * repository (a deployed bundle) they are relative to the working directory.
 */
function baseDirectory(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  return findRepoRoot(here) ?? findRepoRoot(process.cwd()) ?? process.cwd();
}

/** DATA_DIR as an absolute path (default: `data/` at the repository root). */
export function resolveDataDir(env: Pick<Env, 'dataDir'>): string {
  return path.resolve(baseDirectory(), env.dataDir ?? 'data');
}

export function resolveConfig(env: Env): AppConfig {
  const base = baseDirectory();
  const dataDir = resolveDataDir(env);
  const webDist = path.resolve(base, env.webDist ?? path.join('web', 'dist'));
  const allowedOrigins = new Set([env.publicOrigin, ...env.allowedOrigins]);
  if (env.publicOriginDefaulted) {
    // Both spellings of the local address reach the same server; accept the one typed.
    allowedOrigins.add(`http://127.0.0.1:${String(env.port)}`);
  }
  const https = env.publicOrigin.startsWith('https:');
  return {
    port: env.port,
    host: env.host,
    databaseUrl: env.databaseUrl,
    databasePoolSize: env.databasePoolSize,
    syncPushesAtOnce: env.syncPushesAtOnce,
    dataDir,
    webDist,
    sessionSecret: resolveSessionSecret(env, dataDir),
    publicOrigin: env.publicOrigin,
    allowedOrigins,
    firstUserAdmin: env.firstUserAdmin,
    trustProxy: env.trustProxy.length > 0 ? env.trustProxy : false,
    uploads: env.uploads,
    cookieSecure: https ? true : env.trustProxy.length > 0 ? 'auto' : false,
    vapid: resolveVapid(env, dataDir),
  };
}

const SECRET_FILE = 'session-secret';

function resolveSessionSecret(env: Env, dataDir: string): string {
  if (env.sessionSecret !== undefined) return env.sessionSecret;
  if (env.databaseUrl !== undefined) {
    // Several instances share one database, so they must share the signing secret too.
    throw new EnvError(
      'SESSION_SECRET',
      'is required when DATABASE_URL is set (at least 32 characters)',
    );
  }
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, SECRET_FILE);
  try {
    // 'wx' fails if another process created it first; then we read theirs.
    writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32) {
    throw new EnvError(
      'SESSION_SECRET',
      `the generated secret in ${file} is shorter than 32 characters; delete the file to make a new one`,
    );
  }
  return secret;
}

const VAPID_FILE = 'vapid-keys.json';

/**
 * Server mode: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT from the environment
 * (every instance signs with the same key, or a subscription made through one instance would
 * refuse pushes from another). Embedded: those if given, else a pair generated once and kept
 * in DATA_DIR/vapid-keys.json (mode 0600), like the session secret. Changing the key makes
 * every device's subscription useless (push services refuse the new signature).
 */
function resolveVapid(env: Env, dataDir: string): VapidConfig {
  if (env.databaseUrl !== undefined) {
    if (env.vapid === undefined)
      throw new EnvError(
        'VAPID_PUBLIC_KEY',
        'is required when DATABASE_URL is set, with VAPID_PRIVATE_KEY (generate a pair with `npx web-push generate-vapid-keys`)',
      );
    if (env.vapidSubject === undefined)
      throw new EnvError(
        'VAPID_SUBJECT',
        'is required when DATABASE_URL is set: a mailto: address or https: URL where push services can reach the operator',
      );
  }
  const keys = env.vapid ?? readOrCreateVapidKeys(dataDir);
  let derived: string | undefined;
  try {
    derived = vapidPublicKeyOf(keys.privateKey);
  } catch {
    derived = undefined;
  }
  if (derived === undefined)
    throw new EnvError('VAPID_PRIVATE_KEY', 'is not a valid P-256 private key');
  if (derived !== keys.publicKey)
    throw new EnvError(
      'VAPID_PUBLIC_KEY',
      env.vapid
        ? 'does not belong to VAPID_PRIVATE_KEY (they must be one pair)'
        : `the key pair in ${path.join(dataDir, VAPID_FILE)} does not match; delete the file to make a new one (devices then subscribe again)`,
    );
  return { ...keys, subject: env.vapidSubject ?? defaultVapidSubject(env.publicOrigin) };
}

/** Push services want a way to reach the operator: the app's https origin, else a mailto. */
function defaultVapidSubject(publicOrigin: string): string {
  if (publicOrigin.startsWith('https:')) return publicOrigin;
  return 'mailto:rescuelog@localhost';
}

function readOrCreateVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, VAPID_FILE);
  try {
    writeFileSync(file, `${JSON.stringify(generateVapidKeys())}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    parsed = undefined;
  }
  const keys = parsed as { publicKey?: unknown; privateKey?: unknown } | undefined;
  if (typeof keys?.publicKey !== 'string' || typeof keys.privateKey !== 'string')
    throw new EnvError(
      'VAPID_PRIVATE_KEY',
      `${file} is not a VAPID key pair; delete it to make a new one (devices then subscribe again)`,
    );
  return { publicKey: keys.publicKey, privateKey: fullLengthPrivateKey(keys.privateKey) };
}
