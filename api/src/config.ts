// Turns the parsed environment (sync-protocol/env) into the settings the app runs with:
// absolute paths, the session secret (generated once in embedded mode), allowed origins.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvError, type Env, type UploadLimits } from '@rescuelog/sync-protocol/env';

export interface AppConfig {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  /** PostgreSQL connections per instance (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
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
    dataDir,
    webDist,
    sessionSecret: resolveSessionSecret(env, dataDir),
    publicOrigin: env.publicOrigin,
    allowedOrigins,
    firstUserAdmin: env.firstUserAdmin,
    trustProxy: env.trustProxy.length > 0 ? env.trustProxy : false,
    uploads: env.uploads,
    cookieSecure: https ? true : env.trustProxy.length > 0 ? 'auto' : false,
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
