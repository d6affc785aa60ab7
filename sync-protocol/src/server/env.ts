// The API's environment, parsed once at start. Pure (no node: imports) so it can be unit
// tested anywhere; the API resolves paths and the generated session secret on top of it.
import { z } from 'zod';
import '../zod-config';

/** Unset and empty mean the same: "use the default". */
const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const booleanFlag = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === '') return undefined;
    const normalised = v.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(normalised)) return true;
    if (['false', '0', 'no', 'off'].includes(normalised)) return false;
    ctx.addIssue({ code: 'custom', message: `expected true or false, got '${v}'` });
    return z.NEVER;
  });

/** An origin is scheme://host[:port] with nothing after it; browsers send exactly that. */
export function parseOrigin(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.pathname !== '/' && url.pathname !== '') return undefined;
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    return undefined;
  // Custom schemes (capacitor://localhost) have an opaque `origin`; build it ourselves.
  return `${url.protocol}//${url.host}`;
}

const originString = z.string().transform((v, ctx) => {
  const origin = parseOrigin(v.trim());
  if (origin === undefined) {
    ctx.addIssue({
      code: 'custom',
      message: `'${v}' is not an origin like https://rescue.example.org`,
    });
    return z.NEVER;
  }
  return origin;
});

/** '<max>/<seconds>', e.g. '10/900': at most 10 attempts per 15 minutes. */
const rateLimitRule = optionalString.transform((v, ctx) => {
  if (v === undefined) return undefined;
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(v);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
    ctx.addIssue({
      code: 'custom',
      message: `expected <max attempts>/<window seconds> like 10/900, got '${v}'`,
    });
    return z.NEVER;
  }
  return { max: Number(match[1]), windowSeconds: Number(match[2]) };
});

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** True for a literal IPv6 address (the URL parser is the one strict parser every runtime has). */
function isIpv6(value: string): boolean {
  if (!value.includes(':') || /[[\]/%]/.test(value)) return false;
  try {
    return new URL(`http://[${value}]/`).hostname.length > 2;
  } catch {
    return false;
  }
}

/** Names proxy-addr (Fastify's trustProxy) understands for whole address ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'] as const;

/**
 * One entry of TRUST_PROXY: an address ('10.0.0.5', 'fd00::1'), a CIDR ('172.18.0.0/16') or
 * one of proxy-addr's named ranges. Returns a message when it is none of these.
 */
export function checkProxyEntry(entry: string): string | undefined {
  if ((PROXY_RANGE_NAMES as readonly string[]).includes(entry)) return undefined;
  const [address = '', prefix, ...rest] = entry.split('/');
  if (rest.length > 0) return `'${entry}' has more than one '/'`;
  const v4 = IPV4.test(address);
  if (!v4 && !isIpv6(address))
    return `'${entry}' is not an IP address, a CIDR range or one of ${PROXY_RANGE_NAMES.join(', ')}`;
  if (prefix !== undefined) {
    const max = v4 ? 32 : 128;
    if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > max)
      return `'${entry}' has a prefix length outside 0-${String(max)}`;
  }
  return undefined;
}

/**
 * TRUST_PROXY: the proxies whose X-Forwarded-For/-Proto are believed, comma-separated.
 * Unset, empty or 'false' trusts nobody. 'true' (every hop) is refused: anyone could then
 * choose the address the rate limits and the audit log see.
 */
const trustProxyList = optionalString.transform((v, ctx) => {
  if (v === undefined || v.toLowerCase() === 'false') return [];
  if (['true', '1', 'yes', 'on', '*'].includes(v.toLowerCase())) {
    ctx.addIssue({
      code: 'custom',
      message: `'${v}' would trust every client's X-Forwarded-For; give the proxy's address or CIDR range instead, e.g. 172.18.0.0/16`,
    });
    return z.NEVER;
  }
  const entries = v
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  for (const entry of entries) {
    const problem = checkProxyEntry(entry);
    if (problem !== undefined) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
  }
  return entries;
});

/** A positive size in MiB ('100', '0.5'), as bytes. */
const mebibytes = (fallback: number) =>
  optionalString.transform((v, ctx) => {
    if (v === undefined) return Math.round(fallback * 1_048_576);
    if (!/^\d+(\.\d+)?$/.test(v) || Number(v) <= 0) {
      ctx.addIssue({ code: 'custom', message: `expected a positive number of MiB, got '${v}'` });
      return z.NEVER;
    }
    return Math.round(Number(v) * 1_048_576);
  });

/** A positive whole number of some unit, with a default. */
/** PostgreSQL connections per API instance (docs/decisions/030). */
export const DEFAULT_DATABASE_POOL_SIZE = 10;
/**
 * Sync pushes an instance runs at once; the others wait in the instance, holding no database
 * connection (decisions 030 and 033). On PostgreSQL they run on a pool of this many
 * connections of their own, beside the screens' (decision 042).
 */
export const DEFAULT_SYNC_PUSHES_AT_ONCE = 4;

const positiveWhole = (fallback: number) =>
  optionalString.transform((v, ctx) => {
    if (v === undefined) return fallback;
    if (!/^\d+$/.test(v) || Number(v) < 1) {
      ctx.addIssue({
        code: 'custom',
        message: `expected a whole number of at least 1, got '${v}'`,
      });
      return z.NEVER;
    }
    return Number(v);
  });

/** Base64url without padding (a trailing '=' is tolerated): what web-push and browsers use. */
const base64url = (bytes: number, what: string, first?: { char: string; meaning: string }) =>
  optionalString.transform((v, ctx) => {
    if (v === undefined) return undefined;
    const text = v.replace(/=+$/, '');
    const length = Math.ceil((bytes * 4) / 3);
    if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length !== length) {
      ctx.addIssue({
        code: 'custom',
        message: `expected ${what}: ${String(bytes)} bytes as base64url (${String(length)} characters)`,
      });
      return z.NEVER;
    }
    if (first && !text.startsWith(first.char)) {
      ctx.addIssue({ code: 'custom', message: `expected ${what} (${first.meaning})` });
      return z.NEVER;
    }
    return text;
  });

/** VAPID_SUBJECT: how a push service reaches the operator, a mailto: or https: URL. */
const vapidSubject = optionalString.transform((v, ctx) => {
  if (v === undefined) return undefined;
  const mailto = /^mailto:[^\s@]+@[^\s@]+$/.test(v);
  let https = false;
  try {
    https = new URL(v).protocol === 'https:';
  } catch {
    https = false;
  }
  if (!mailto && !https) {
    ctx.addIssue({
      code: 'custom',
      message: `expected a mailto: address or an https: URL (e.g. mailto:ops@rescue.example.org), got '${v}'`,
    });
    return z.NEVER;
  }
  return v;
});

export const rawEnvSchema = z.object({
  PORT: optionalString.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number between 0 and 65535')
      .transform(Number)
      .refine((n) => n <= 65535, 'must be a whole number between 0 and 65535')
      .default(3000),
  ),
  HOST: optionalString.pipe(z.string().default('127.0.0.1')),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// connection string')
      .optional(),
  ),
  DATABASE_POOL_SIZE: positiveWhole(DEFAULT_DATABASE_POOL_SIZE),
  SYNC_PUSHES_AT_ONCE: positiveWhole(DEFAULT_SYNC_PUSHES_AT_ONCE),
  DATA_DIR: optionalString,
  WEB_DIST: optionalString,
  SESSION_SECRET: optionalString.pipe(
    z.string().min(32, 'must be at least 32 characters').optional(),
  ),
  PUBLIC_ORIGIN: optionalString.pipe(originString.optional()),
  ALLOWED_ORIGINS: optionalString.transform((v, ctx) => {
    if (v === undefined) return [];
    const origins: string[] = [];
    for (const part of v.split(',')) {
      if (part.trim() === '') continue;
      const origin = parseOrigin(part.trim());
      if (origin === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `'${part.trim()}' is not an origin like capacitor://localhost`,
        });
        return z.NEVER;
      }
      origins.push(origin);
    }
    return origins;
  }),
  FIRST_USER_ADMIN: booleanFlag,
  TRUST_PROXY: trustProxyList,
  UPLOAD_QUOTA_ACCOUNT_MIB: mebibytes(100),
  UPLOAD_QUOTA_ADDRESS_MIB: mebibytes(500),
  UPLOAD_QUOTA_ADDRESS_HOURS: positiveWhole(24),
  UPLOAD_QUOTA_PENDING_TOTAL_MIB: mebibytes(2048),
  UPLOAD_ORPHAN_HOURS: positiveWhole(24),
  UPLOAD_CLEANUP_MINUTES: positiveWhole(60),
  RATE_LIMIT_LOGIN_IP: rateLimitRule,
  RATE_LIMIT_LOGIN_EMAIL: rateLimitRule,
  RATE_LIMIT_REGISTER_IP: rateLimitRule,
  VAPID_PUBLIC_KEY: base64url(65, 'a P-256 public key', {
    char: 'B',
    meaning: 'an uncompressed point, starting with B',
  }),
  VAPID_PRIVATE_KEY: base64url(32, 'a P-256 private key'),
  VAPID_SUBJECT: vapidSubject,
  LOG_LEVEL: optionalString.pipe(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
});

export interface Env {
  port: number;
  host: string;
  /** undefined: the embedded PGlite database in `dataDir`. */
  databaseUrl: string | undefined;
  /** Connections in the PostgreSQL pool of one instance (unused on the embedded database). */
  databasePoolSize: number;
  /** Sync pushes an instance runs at once (SYNC_PUSHES_AT_ONCE). */
  syncPushesAtOnce: number;
  /** As given; the API resolves the default (`data/` at the repository root) and relative paths. */
  dataDir: string | undefined;
  webDist: string | undefined;
  /** undefined only in embedded mode, where the API generates one and keeps it in `dataDir`. */
  sessionSecret: string | undefined;
  publicOrigin: string;
  /** True when PUBLIC_ORIGIN was not given (then the 127.0.0.1 spelling is accepted too). */
  publicOriginDefaulted: boolean;
  allowedOrigins: string[];
  firstUserAdmin: boolean;
  /** Addresses, CIDR ranges or proxy-addr range names of trusted proxies; empty trusts none. */
  trustProxy: string[];
  uploads: UploadLimits;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /**
   * Web push VAPID keys (base64url) and subject. The API requires them in server mode
   * (DATABASE_URL), where every instance must sign with the same key; on the embedded
   * default it generates the keys once in DATA_DIR when they are not given.
   */
  vapid: { publicKey: string; privateKey: string } | undefined;
  vapidSubject: string | undefined;
  /** Overrides of the API's default rate limits; unset keeps the default. */
  rateLimits: {
    loginPerIp?: RateLimitRule;
    loginPerEmail?: RateLimitRule;
    registerPerIp?: RateLimitRule;
  };
}

/** Upload quotas and upkeep (docs/decisions/025). */
export interface UploadLimits {
  /** Bytes one account may hold (stored files, plus uploads in progress). */
  accountQuotaBytes: number;
  /** Bytes stored from one client address within `addressWindowHours`. */
  addressQuotaBytes: number;
  addressWindowHours: number;
  /** Bytes all pending (not yet approved) accounts may hold together. */
  pendingTotalBytes: number;
  /** A stored file no account refers to is deleted this long after it was stored. */
  orphanGraceHours: number;
  /** How often the upload cleanup runs (also once at start). */
  cleanupIntervalMinutes: number;
}

export interface RateLimitRule {
  max: number;
  windowSeconds: number;
}

export class EnvError extends Error {
  constructor(
    readonly variable: string,
    detail: string,
  ) {
    super(`Invalid environment variable ${variable}: ${detail}`);
    this.name = 'EnvError';
  }
}

/** Parses the process environment; throws an EnvError naming the first bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const known = Object.fromEntries(Object.keys(rawEnvSchema.shape).map((k) => [k, source[k]]));
  const result = rawEnvSchema.safeParse(known);
  if (!result.success) {
    const issue = result.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    throw new EnvError(variable, issue?.message ?? 'invalid value');
  }
  const raw = result.data;
  if ((raw.PUBLIC_ORIGIN ?? '').startsWith('https:') && raw.TRUST_PROXY.length === 0) {
    // The server speaks plain HTTP: an https origin means a TLS proxy, and without trusting
    // it no request looks https, so the Secure session cookie would never be set.
    throw new EnvError(
      'TRUST_PROXY',
      "PUBLIC_ORIGIN is https, so a TLS proxy sits in front: set TRUST_PROXY to that proxy's address or CIDR range (e.g. 172.18.0.0/16)",
    );
  }
  // A key is useless without its other half; say which one is missing. (Server mode needs
  // both, and VAPID_SUBJECT: the API checks that, as it does SESSION_SECRET.)
  if (raw.VAPID_PUBLIC_KEY !== undefined && raw.VAPID_PRIVATE_KEY === undefined)
    throw new EnvError('VAPID_PRIVATE_KEY', 'is required with VAPID_PUBLIC_KEY');
  if (raw.VAPID_PRIVATE_KEY !== undefined && raw.VAPID_PUBLIC_KEY === undefined)
    throw new EnvError('VAPID_PUBLIC_KEY', 'is required with VAPID_PRIVATE_KEY');
  return {
    port: raw.PORT,
    host: raw.HOST,
    databaseUrl: raw.DATABASE_URL,
    databasePoolSize: raw.DATABASE_POOL_SIZE,
    syncPushesAtOnce: raw.SYNC_PUSHES_AT_ONCE,
    dataDir: raw.DATA_DIR,
    webDist: raw.WEB_DIST,
    sessionSecret: raw.SESSION_SECRET,
    publicOrigin: raw.PUBLIC_ORIGIN ?? `http://localhost:${String(raw.PORT)}`,
    publicOriginDefaulted: raw.PUBLIC_ORIGIN === undefined,
    allowedOrigins: raw.ALLOWED_ORIGINS,
    firstUserAdmin: raw.FIRST_USER_ADMIN ?? raw.DATABASE_URL === undefined,
    trustProxy: raw.TRUST_PROXY,
    uploads: {
      accountQuotaBytes: raw.UPLOAD_QUOTA_ACCOUNT_MIB,
      addressQuotaBytes: raw.UPLOAD_QUOTA_ADDRESS_MIB,
      addressWindowHours: raw.UPLOAD_QUOTA_ADDRESS_HOURS,
      pendingTotalBytes: raw.UPLOAD_QUOTA_PENDING_TOTAL_MIB,
      orphanGraceHours: raw.UPLOAD_ORPHAN_HOURS,
      cleanupIntervalMinutes: raw.UPLOAD_CLEANUP_MINUTES,
    },
    logLevel: raw.LOG_LEVEL,
    vapid:
      raw.VAPID_PUBLIC_KEY !== undefined && raw.VAPID_PRIVATE_KEY !== undefined
        ? { publicKey: raw.VAPID_PUBLIC_KEY, privateKey: raw.VAPID_PRIVATE_KEY }
        : undefined,
    vapidSubject: raw.VAPID_SUBJECT,
    rateLimits: {
      ...(raw.RATE_LIMIT_LOGIN_IP ? { loginPerIp: raw.RATE_LIMIT_LOGIN_IP } : {}),
      ...(raw.RATE_LIMIT_LOGIN_EMAIL ? { loginPerEmail: raw.RATE_LIMIT_LOGIN_EMAIL } : {}),
      ...(raw.RATE_LIMIT_REGISTER_IP ? { registerPerIp: raw.RATE_LIMIT_REGISTER_IP } : {}),
    },
  };
}
